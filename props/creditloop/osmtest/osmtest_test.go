package osmtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/fabric/sm"
)

// shared returns a file of ../shared/fabrics/ib, skipping with one line where absent.
func shared(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "..", "shared", "fabrics", "ib", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real fabric files absent (%s): %v", p, err)
	}
	return p
}

func need(t *testing.T) {
	t.Helper()
	if err := CanStart(); err != nil {
		t.Skipf("OpenSM cannot run here: %v", err)
	}
}

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
			res, err := Route(context.Background(), t.TempDir(), Request{Fabric: topo, Engine: c.engine, Roots: rootsOf(topo, c.roots...)})
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
				for _, g := range rootsOf(topo, c.roots...) {
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
