package input_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestEveryParserTakesAByteOrderMark: a file an editor saved with a UTF-8 byte-order
// mark reads as the same file without it, whatever its format (only the anynet reader
// and the JSON readers refused it, each in its own words).
func TestEveryParserTakesAByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	dir := t.TempDir()
	for name, text := range map[string]string{
		"ring.anynet": "router 0 router 1\nrouter 1 router 2\nrouter 2 router 0\n",
		"ring.dot":    "graph ring { a -- b; b -- c; c -- a; }\n",
		"ring.json":   `{"format": "wormcheck-topology/1", "name": "ring", "routers": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "links": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "a"}]}`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(bom+text), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := topology.Parse("file:" + p)
		if err != nil {
			t.Errorf("%s with a byte-order mark: %v", name, err)
			continue
		}
		if g.Nodes() != 3 {
			t.Errorf("%s: %d nodes, want 3", name, g.Nodes())
		}
	}
	g, err := topology.Parse("mesh:3x3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := routing.ParseFile([]byte(bom+`{"format": "wormcheck-routing/1", "name": "all", "rules": []}`), g); err != nil {
		t.Errorf("routing file with a byte-order mark: %v", err)
	}
}
