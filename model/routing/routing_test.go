package routing

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestDORFollowsPath checks that routing hop by hop with the DOR relation walks exactly
// topology.DOR's path, classes included, for every (src, dst) of small meshes, tori and
// hypercubes.
func TestDORFollowsPath(t *testing.T) {
	for _, spec := range []string{"mesh:3x3", "torus:4x4", "torus:5x3", "torus:3x3x3", "hypercube:3", "torus:6"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, dateline := range []bool{false, true} {
			rel := NewDOR(g, dateline)
			for s := topology.NodeID(0); int(s) < g.Nodes(); s++ {
				for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
					want := rel.R.Hops(s, d)
					h := Header{At: s, In: Input{Channel: Injection}, Src: s, Dst: d}
					for i, hop := range want {
						outs := rel.Route(h, nil)
						if len(outs) != 1 || outs[0].Channel != hop.Channel || outs[0].VC != int(hop.Class) {
							t.Fatalf("%s dateline=%v %d->%d hop %d: relation gives %v, path %v", spec, dateline, s, d, i, outs, hop)
						}
						h.At, h.In = g.Channel(hop.Channel).To, Input{Channel: hop.Channel, VC: outs[0].VC}
					}
					if h.At != d {
						t.Fatalf("%s %d->%d: path ends at %d", spec, s, d, h.At)
					}
				}
			}
		}
	}
}
