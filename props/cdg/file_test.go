package cdg

import (
	"os"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
)

// TestRoutingFiles proves or refutes the routing files of model/routing/testdata: the
// hand-written west-first is acyclic; forbidding two turns of the same abstract cycle
// leaves the other cycle (Glass & Ni §3: one turn of each cycle must go); odd-even's
// turn rules without Chiu's routing procedure strand a header that reaches an even
// column one step short of its destination's column.
func TestRoutingFiles(t *testing.T) {
	for _, c := range []struct {
		file, spec string
		verdict    string
	}{
		{"west-first.json", "mesh:6x6", "holds"},
		{"two-turns.json", "mesh:3x3", "inconclusive"},
		{"odd-even-turns.json", "mesh:6x6", "holds"},
		{"strand.json", "mesh:3x3", "violated"},
		{"ring-table.json", "mesh:2x2", "inconclusive"},
	} {
		data, err := os.ReadFile("../../model/routing/testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := routing.ParseFile(data, mustGrid(t, c.spec))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Analyze(rel, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Verdict().String(); got != c.verdict {
			t.Errorf("%s on %s: %s (%s), want %s", c.file, c.spec, got, r.Reason(), c.verdict)
		}
		if c.verdict != "holds" && r.Witness() == nil {
			t.Errorf("%s: no witness", c.file)
		}
	}
}
