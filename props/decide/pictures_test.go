package decide_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props/decide"
)

// TestReportPictures: a static report draws the certificate of an acyclic graph (every
// held channel numbered) and the realised deadlock of a violated relation, on irregular
// networks too.
func TestReportPictures(t *testing.T) {
	for _, tc := range []struct{ topo, routing, want string }{
		{"file:../../model/topology/testdata/topo/ring_chord.anynet", "updown", "an acyclic channel dependency graph"},
		{"mesh:4x4", "west-first", "an acyclic channel dependency graph"},
		{"file:../../model/topology/testdata/topo/ring6.dot", "shortest-path", "static decision, 1 VCs: violated"},
	} {
		rep, err := decide.Prove(t.Context(), tc.topo, tc.routing, nil)
		if err != nil {
			t.Fatal(err)
		}
		svg, err := rep.SVG()
		if err != nil || !strings.Contains(string(svg), tc.want) {
			t.Errorf("%s on %s: picture %v lacks %q", tc.routing, tc.topo, err, tc.want)
		}
	}
}
