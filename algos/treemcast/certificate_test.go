package treemcast

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// TestCertificates: a tree-multicast deadlock check that holds comes with a progress
// certificate (model/flit's measure, checked on every transition, with and without
// state symmetry), and a family run counts its members' certificates and honours the
// fingerprint store, whose collision bound it sums.
//
// Reference: 000 Lemma 1 (pruning resolves Fig. 3); DESIGN.md "Liveness".
func TestCertificates(t *testing.T) {
	g := grid(t, "mesh:3x2")
	msgs, err := ParseMsgs(g, fig3)
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.Buffer, p.Prune = 1, flit.PruneOnStop
	for _, sym := range []bool{false, true} {
		res, _, err := Check(Instance{Grid: g, Msgs: msgs, Params: p}, CheckOptions{Prop: checker.PropDeadlock, Symmetry: sym})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Certificate()
		if res.Verdict != checker.Holds || c.Kind != checker.CertProgress || c.Transitions != res.Stats.Transitions {
			t.Fatalf("symmetry %v: %v, certificate %+v over %d transitions; want holds, progress on every transition", sym, res.Verdict, c, res.Stats.Transitions)
		}
	}
}
