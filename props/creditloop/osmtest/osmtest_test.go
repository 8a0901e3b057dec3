package osmtest

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/fabric/fabrictest"
	"github.com/wormcheck/wormcheck/model/fabric/sm"
)

func need(t *testing.T) {
	t.Helper()
	if err := CanStart(); err != nil {
		t.Skipf("OpenSM cannot run here: %v", err)
	}
}

// farthest names, among roots, the switches farthest from every CA (by hops): the
// roots of an irregular fabric without a spine of its own, such as the 62-switch cluster.
const farthest = "(the switches farthest from the CAs)"

// rootsOf returns the GUIDs of the switches whose description is in names.
func rootsOf(f *fabric.Fabric, names ...string) []uint64 {
	var out []uint64
	for _, n := range f.Nodes {
		for _, x := range names {
			if n.Desc == x {
				out = append(out, n.GUID)
			}
		}
	}
	return out
}

// simRoots returns the root switches names gives as GUIDs the simulated fabric has:
// by description (rootsOf), or, for farthest, as ibsim numbers the fabric's switches
// (asked of a first OpenSM run under minhop: ibsim gives a net file's nodes the same
// GUIDs every time, and they are not the GUIDs of a subnet list's own).
func simRoots(t *testing.T, topo *fabric.Fabric, names []string) []uint64 {
	if len(names) != 1 || names[0] != farthest {
		return rootsOf(topo, names...)
	}
	res, err := Route(context.Background(), t.TempDir(), Request{Fabric: topo, Engine: "minhop"})
	if err != nil {
		t.Fatal(err)
	}
	sim, _, err := fabric.Load(res.Files())
	if err != nil {
		t.Fatal(err)
	}
	return farthestFromCAs(sim)
}

// farthestFromCAs is the GUIDs of the switches at the largest hop distance from the
// nearest CA, in node order.
func farthestFromCAs(f *fabric.Fabric) []uint64 {
	dist := make([]int, len(f.Nodes))
	var queue []int32
	for i, n := range f.Nodes {
		dist[i] = -1
		if n.Kind != fabric.Switch {
			dist[i] = 0
			queue = append(queue, int32(i))
		}
	}
	most := 0
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, p := range f.Nodes[u].Ports {
			if v := p.Remote.Node; p.Remote.Valid() && dist[v] < 0 {
				dist[v] = dist[u] + 1
				most = max(most, dist[v])
				queue = append(queue, v)
			}
		}
	}
	var out []uint64
	for i, n := range f.Nodes {
		if n.Kind == fabric.Switch && dist[i] == most {
			out = append(out, n.GUID)
		}
	}
	return out
}

// Our minhop and updn tables equal OpenSM's, entry for entry, on the same fabrics (the
// subnet list OpenSM wrote, so that LIDs and GUIDs are OpenSM's).
func TestTablesAsOpenSM(t *testing.T) {
	need(t)
	cases := []struct {
		file   string
		engine string
		roots  []string
	}{
		{"subnet.lst", "minhop", nil},
		{"subnet.lst", "updn", []string{farthest}},
		{"4x4 torus", "minhop", nil},
		{"4x4 torus", "updn", []string{"T0_0"}},
		{"CreditLoopDemo.cables", "minhop", nil},
		{"CreditLoopDemo.cables", "updn", []string{"RD1"}},
		{"credit-loops.topo", "minhop", nil},
		{"credit-loops.topo", "updn", []string{"SW_L0_1", "SW_L0_2", "SW_L0_3", "SW_L0_4"}},
		{"ibsim-net", "minhop", nil},
		{"ibsim-net.2sw2path4hca", "minhop", nil},
		{"ibsim-net.2sw2path4hca", "updn", []string{"Switch1"}},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.engine, func(t *testing.T) {
			var topo *fabric.Fabric
			if c.file == "4x4 torus" {
				topo = torusNet(t, 4, 4)
			} else {
				var err error
				if topo, _, err = fabric.Load(fabric.Files{Topology: shared(t, c.file)}); err != nil {
					t.Fatal(err)
				}
			}
			rootGUIDs := simRoots(t, topo, c.roots)
			res, err := Route(context.Background(), t.TempDir(), Request{Fabric: topo, Engine: c.engine, Roots: rootGUIDs})
			if err != nil {
				t.Fatal(err)
			}
			if res.Engine != c.engine {
				t.Fatalf("OpenSM configured the tables with %q, not %s", res.Engine, c.engine)
			}
			theirs, _, err := fabric.Load(res.Files())
			if err != nil {
				t.Fatal(err)
			}
			ours := theirs.Clone()
			ours.LFT = nil
			if c.engine == "minhop" {
				err = sm.MinHop(ours)
			} else {
				var roots []int32
				for _, g := range rootGUIDs {
					roots = append(roots, int32(ours.NodeByGUID(g)))
				}
				err = sm.UpDown(ours, roots)
			}
			if err != nil {
				t.Fatal(err)
			}
			diff := 0
			for _, s := range theirs.Switches() {
				for lid := 1; lid <= theirs.MaxLIDInUse(); lid++ {
					if !theirs.Owner(uint16(lid)).Valid() {
						continue
					}
					a, b := theirs.LFTPort(s, uint16(lid)), ours.LFTPort(s, uint16(lid))
					if a != b {
						diff++
						if diff <= 5 {
							t.Errorf("%s LID %d: OpenSM port %d, ours %d", theirs.NodeName(s), lid, a, b)
						}
					}
				}
			}
			if diff > 0 {
				t.Fatalf("%d entries differ", diff)
			}
		})
	}
}

// shared returns a file of ../shared/fabrics/ib, skipping with one line where absent.
func shared(t testing.TB, name string) string { return fabrictest.Shared(t, name) }
