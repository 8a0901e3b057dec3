package unicast

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestFamilyCertificates: every instance of a deadlock-free XY family is certified to
// deliver by model/flit's progress measure, checked on every transition, and a run with
// the fingerprint store explores the same states and reports its collision bound.
//
// Reference: Dally & Seitz (WH1); DESIGN.md "Liveness".
func TestFamilyCertificates(t *testing.T) {
	f := Family{Topology: "mesh:2x3", MaxWorms: 2, MinWorms: 1, Params: [][2]int{{2, 1}}, Connected: true}
	r, err := f.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict() != checker.Holds || r.Instances == 0 || r.Certificates.Progress != r.Instances || r.Certificates.Transitions != r.Transitions {
		t.Fatalf("%v over %d instances, certificates %+v, %d transitions; want holds, all certified by progress", r.Verdict(), r.Instances, r.Certificates, r.Transitions)
	}
	if r.CollisionBound != 0 {
		t.Fatalf("exact store reports a collision bound %g", r.CollisionBound)
	}
	f.Store = checker.Fingerprint
	fp, err := f.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if fp.States != r.States || fp.CollisionBound <= 0 || fp.CollisionBound > 1e-9 {
		t.Fatalf("fingerprint: %d states (exact %d), bound %g", fp.States, r.States, fp.CollisionBound)
	}
}
