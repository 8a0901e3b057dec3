package treemcast

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestFamilyEndpoints: on a network with terminals a family's multicasts go from
// terminals to terminals only, and ParseMsgs reads node names there.
func TestFamilyEndpoints(t *testing.T) {
	g, err := topology.Parse("dragonfly:a=2,p=1,h=1")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFamily(g, "pairs:2")
	if err != nil {
		t.Fatal(err)
	}
	ms := f.Multicasts()
	if want := 6 * (5 + 10); len(ms) != want { // 6 terminals: 5 single and C(5,2) double destinations each
		t.Errorf("%d multicasts; want %d", len(ms), want)
	}
	for _, m := range ms {
		for _, v := range append([]topology.NodeID{m.Source}, m.Dests...) {
			if !g.Terminal(v) {
				t.Fatalf("multicast %v uses router %s", m, g.NodeName(v))
			}
		}
	}
	got, err := ParseMsgs(g, "g0r0t0->g1r1t0,g2r0t0;g2r1t0->g0r0t0")
	if err != nil || len(got) != 2 || len(got[0].Dests) != 2 || g.NodeName(got[1].Source) != "g2r1t0" {
		t.Fatalf("ParseMsgs: %v %v", got, err)
	}
	if back := FormatMsgs(g, got); back != "g0r0t0->g1r1t0,g2r0t0;g2r1t0->g0r0t0" {
		t.Errorf("FormatMsgs: %q", back)
	}
	if _, err := ParseMsgs(g, "g0r0t0->g1r1"); err == nil {
		t.Errorf("ParseMsgs took a router as a destination")
	}
}
