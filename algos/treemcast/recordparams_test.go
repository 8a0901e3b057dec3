package treemcast

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
)

// TestRecordParamsNameRouting checks that a family result's parameters name the
// members' routing relation (a built-in by name, a routing file by its contents), so
// that a result says all a re-run needs.
func TestRecordParamsNameRouting(t *testing.T) {
	g := grid(t, "mesh:3x2")
	p := DefaultParams()
	builtin, err := routing.ByName(g, "west-first")
	if err != nil {
		t.Fatal(err)
	}
	file, err := routing.ParseFile([]byte(`{"format": "wormcheck-routing/1", "name": "my-west-first",
		"rules": [{"forbid": ["north->west", "south->west"]}]}`), g)
	if err != nil {
		t.Fatal(err)
	}
	if r := (Family{Grid: g, K: 1, Relation: builtin}).RecordParams(p, checker.PropDeadlock, checker.Exact); r.Routing != "west-first" || r.RoutingFile != nil {
		t.Fatalf("a built-in relation is named: got routing %q, file %s", r.Routing, r.RoutingFile)
	}
	if r := (Family{Grid: g, K: 1, Relation: file}).RecordParams(p, checker.PropDeadlock, checker.Exact); r.Routing != "" || !strings.Contains(string(r.RoutingFile), "my-west-first") {
		t.Fatalf("a routing file is kept whole: got routing %q, file %s", r.Routing, r.RoutingFile)
	}
}
