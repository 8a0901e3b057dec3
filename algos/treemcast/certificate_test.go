package treemcast

import (
	"strings"
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
		res, _, err := Check(Instance{Grid: g, Msgs: msgs, Params: p}, CheckOptions{Prop: PropDeadlock, Symmetry: sym})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Certificate()
		if res.Verdict != checker.Holds || c.Kind != checker.CertProgress || c.Transitions != res.Stats.Transitions {
			t.Fatalf("symmetry %v: %v, certificate %+v over %d transitions; want holds, progress on every transition", sym, res.Verdict, c, res.Stats.Transitions)
		}
	}
	f := Family{Grid: g, K: 1, Symmetry: true}
	exact, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Store: checker.Fingerprint})
	if err != nil {
		t.Fatal(err)
	}
	if exact.Params.Store != "" || exact.CollisionBound != 0 || fp.Params.Store != "fingerprint" || fp.CollisionBound <= 0 {
		t.Fatalf("store %q bound %g (exact), %q bound %g (fingerprint)", exact.Params.Store, exact.CollisionBound, fp.Params.Store, fp.CollisionBound)
	}
	if fp.States != exact.States || fp.Verdict != exact.Verdict {
		t.Fatalf("fingerprint run %v on %d states, exact %v on %d", fp.Verdict, fp.States, exact.Verdict, exact.States)
	}
	c := exact.Certificates
	if c.Progress != exact.Instances || c.None != 0 || c.Transitions != exact.Transitions || exact.Certificates.Certificate().Kind != checker.CertProgress {
		t.Fatalf("certificates %+v over %d members and %d transitions; want every member certified by progress", c, exact.Instances, exact.Transitions)
	}
	// Shards of runs with different stores do not merge: they are different runs.
	half := func(store checker.StoreMode, i int) *FamilyResult {
		r, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Store: store, Shard: Shard{Index: i, Count: 2}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if _, err := Merge([]*FamilyResult{half(checker.Exact, 0), half(checker.Fingerprint, 1)}); err == nil || !strings.Contains(err.Error(), "parameters") {
		t.Fatalf("merging an exact and a fingerprint shard: %v; want refused for its parameters", err)
	}
	m, err := Merge([]*FamilyResult{half(checker.Fingerprint, 0), half(checker.Fingerprint, 1)})
	if err != nil || m.Certificates != fp.Certificates || m.CollisionBound <= 0 {
		t.Fatalf("merged fingerprint shards: %v, certificates %+v (whole run %+v), bound %g", err, m.Certificates, fp.Certificates, m.CollisionBound)
	}
}
