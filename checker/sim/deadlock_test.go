package sim

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Reference: Dally & Seitz (claims WH2, WH3): DOR on a torus ring with a single virtual
// channel deadlocks under load; with the two dateline classes it drains. The simulator
// must find the deadlock (no flit moves while flits remain), not hang or hide it.
func TestTorusRingDeadlockNeedsDatelineClasses(t *testing.T) {
	g := mustGrid(t, "torus:8")
	base := Config{Grid: g, Length: 24, Buffer: 2, Seed: 5, Cycles: 500, DrainLimit: 20000, StopSources: true,
		Traffic: Traffic{Rate: 0.2}}
	noDateline := base
	noDateline.Routing = topology.DOR{Grid: g, Order: []int{0}}
	noDateline.VCs = 1
	res, err := Run(noDateline)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Deadlocked || res.Undelivered == 0 {
		t.Fatalf("single-class ring did not deadlock: %+v", *res)
	}
	withDateline := base
	withDateline.VCs = 2
	res, err = Run(withDateline)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deadlocked || res.Undelivered != 0 || res.Completed != res.Generated {
		t.Fatalf("dateline ring did not drain: %+v", *res)
	}
}
