package decide_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// TestBookSimVerdicts decides every BookSim routing function wormcheck maps on a small
// network of its topology: dimension order, its xy/yx, two-phase and adaptive
// variants hold with their VC classes (by the channel dependency graph, or Duato's
// condition for min_adapt), chaos's minimal adaptive routing on one VC deadlocks on
// meshes and tori, and xy_yx_cmesh's express threshold of one column sends a worm on
// k = 8 round a loop that it closes on itself.
func TestBookSimVerdicts(t *testing.T) {
	ring := filepath.Join(t.TempDir(), "ring.anynet")
	if err := os.WriteFile(ring, []byte("router 0 node 0 router 1 router 3\nrouter 1 node 1 router 2\nrouter 2 node 2 router 3\nrouter 3 node 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		topo, rel string
		want      props.Verdict
	}{
		{"mesh:4x4", "booksim:dim_order,vcs=1", props.Holds},
		{"mesh:4x4", "booksim:dim_order_ni,vcs=16", props.Holds},
		{"mesh:4x4", "booksim:dim_order_pni,vcs=4", props.Holds},
		{"mesh:4x4", "booksim:xy_yx,vcs=2", props.Holds},
		{"mesh:4x4", "booksim:adaptive_xy_yx,vcs=2", props.Holds},
		{"mesh:4x4", "booksim:romm,vcs=2", props.Holds},
		{"mesh:4x4", "booksim:valiant,vcs=2", props.Holds},
		{"mesh:4x4", "booksim:min_adapt,vcs=2", props.Holds},
		{"mesh:4x4", "booksim:planar_adapt,vcs=3", props.Holds},
		{"mesh:4x4", "booksim:chaos", props.Violated},
		{"torus:4x4", "booksim:dim_order,vcs=2", props.Holds},
		{"torus:4x4", "booksim:dim_order_bal,vcs=2", props.Holds},
		{"torus:3x3", "booksim:dim_order_ni,vcs=9", props.Holds},
		{"torus:4x4", "booksim:min_adapt,vcs=4", props.Holds},
		{"torus:4x4", "booksim:chaos", props.Violated},
		{"cmesh:k=4", "booksim:dor,vcs=1", props.Holds},
		{"cmesh:k=4", "booksim:dor_no_express,vcs=1", props.Holds},
		{"cmesh:k=4", "booksim:xy_yx,vcs=2", props.Holds},
		{"cmesh:k=4", "booksim:xy_yx_no_express,vcs=2", props.Holds},
		{"cmesh:k=8", "booksim:xy_yx,vcs=2", props.Violated},
		{"flatfly:k=4,n=2,c=1", "booksim:ran_min,vcs=1", props.Holds},
		{"flatfly:k=4,n=2,c=1", "booksim:xyyx,vcs=2", props.Holds},
		{"flatfly:k=4,n=2,c=1", "booksim:adaptive_xyyx,vcs=2", props.Holds},
		{"flatfly:k=4,n=2,c=1", "booksim:valiant,vcs=2", props.Holds},
		{"flatfly:k=4,n=2,c=1", "booksim:ugal,vcs=2", props.Holds},
		{"flatfly:k=4,n=2,c=1", "booksim:ugal_xyyx,vcs=4", props.Holds},
		{"fly:k=2,n=3", "booksim:dest_tag,vcs=1", props.Holds},
		{"fattree:2,3", "booksim:nca,vcs=1", props.Holds},
		{"fattree:2,3", "booksim:anca,vcs=1", props.Holds},
		{"dragonfly:a=2,p=1,h=1", "booksim:min,vcs=2", props.Holds},
		{"dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=3", props.Holds},
		{"file:" + ring, "booksim:min,vcs=1", props.Holds},
		{"file:" + ring, "shortest-path", props.Violated},
	} {
		rep, err := decide.Prove(context.Background(), tc.topo, tc.rel, os.ReadFile)
		if err != nil {
			t.Fatalf("%s on %s: %v", tc.rel, tc.topo, err)
		}
		if rep.Verdict != tc.want {
			t.Errorf("%s on %s: %s (%s); want %s", tc.rel, tc.topo, rep.Verdict, rep.Reason, tc.want)
		}
	}
}
