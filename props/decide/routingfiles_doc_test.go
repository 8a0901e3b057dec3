package decide_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// TestRoutingFileExamples decides every example of docs/routing-files.md: each JSON
// block after a "<!-- check: VERDICT [--topo T] -->" comment must get VERDICT from the
// static decision, so the page never shows a relation doing what it does not.
func TestRoutingFileExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/routing-files.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- check: (holds|violated)(?: --topo (\\S+))? -->\n```json\n(.*?)```")
	examples := re.FindAllSubmatch(doc, -1)
	if len(examples) < 9 {
		t.Fatalf("docs/routing-files.md has %d checked examples; want the 9 it had", len(examples))
	}
	dir := t.TempDir()
	for i, ex := range examples {
		path := filepath.Join(dir, "example.json")
		if err := os.WriteFile(path, ex[3], 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := decide.Prove(context.Background(), string(ex[2]), path, os.ReadFile)
		if err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, ex[3])
			continue
		}
		want := props.Holds
		if string(ex[1]) == "violated" {
			want = props.Violated
		}
		if rep.Verdict != want {
			t.Errorf("example %d (%s): %s (%s); the page says %s", i+1, rep.Instance.Algorithm, rep.Verdict, rep.Reason, want)
		}
	}
}
