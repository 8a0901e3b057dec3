package decide_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// TestReportEvidence: a static report's evidence is the certificate of an acyclic graph
// (every held channel numbered) or the realised deadlock of a violated relation, on
// irregular networks too.
func TestReportEvidence(t *testing.T) {
	for _, tc := range []struct{ topo, routing, want string }{
		{"file:../../model/topology/testdata/topo/ring_chord.anynet", "updown", "an acyclic channel dependency graph"},
		{"mesh:4x4", "west-first", "an acyclic channel dependency graph"},
		{"file:../../model/topology/testdata/topo/ring6.dot", "shortest-path", "static decision, 1 VC: violated"},
	} {
		rep, err := decide.Prove(t.Context(), tc.topo, tc.routing, nil)
		if err != nil {
			t.Fatal(err)
		}
		var text string
		switch ev := rep.Evidence.(type) {
		case *props.RanksEvidence:
			text = ev.Title + "\n" + ev.Subtitle
		case *props.FlitEvidence:
			text = ev.Title + "\n" + ev.Subtitle
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s on %s: evidence %T titled %q lacks %q", tc.routing, tc.topo, rep.Evidence, text, tc.want)
		}
	}
}
