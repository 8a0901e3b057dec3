package routing

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestReplicate checks a relation replicated over more VCs against its base, header by
// header: a header on VC v is routed as the base routes one on v's class, and every
// output's class is offered whole, in order; escape outputs keep their class's verdict;
// a VC count that is not a multiple of the base's is refused.
func TestReplicate(t *testing.T) {
	g, err := topology.Parse("torus:3x3")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"dor", "duato", "adaptive", "nonminimal:1", "updown"} {
		base, err := ByName(g, name)
		if err != nil {
			t.Fatal(err)
		}
		per := 3
		rel, err := Replicate(base, base.VCs()*per)
		if err != nil {
			t.Fatal(err)
		}
		if rel.VCs() != base.VCs()*per || rel.Name() != base.Name() {
			t.Fatalf("%s: %d VCs named %q", name, rel.VCs(), rel.Name())
		}
		if b, p := Unreplicate(rel); b.Name() != base.Name() || b.VCs() != base.VCs() || p != per {
			t.Fatalf("%s: unreplicated to %v x%d", name, b, p)
		}
		_, esc := rel.(Escaping)
		be, besc := base.(Escaping)
		if esc != besc {
			t.Fatalf("%s: escaping %v, its base %v", name, esc, besc)
		}
		for c := range g.Channels() {
			ch := g.Channel(topology.ChannelID(c))
			for vc := range rel.VCs() {
				for d := range g.Nodes() {
					if topology.NodeID(d) == ch.To {
						continue
					}
					h := Header{At: ch.To, In: Input{Channel: topology.ChannelID(c), VC: vc}, Src: ch.From, Dst: topology.NodeID(d)}
					hb := h
					hb.In.VC = vc / per
					var want []Output
					for _, o := range base.Route(hb, nil) {
						for i := range per {
							want = append(want, Output{Channel: o.Channel, VC: o.VC*per + i, Misroute: o.Misroute})
						}
					}
					got := rel.Route(h, nil)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %+v routed %v, want %v", name, h, got, want)
					}
					if esc {
						for _, o := range got {
							ob := o
							ob.VC /= per
							if rel.(Escaping).Escape(h, o) != be.Escape(hb, ob) {
								t.Fatalf("%s: %+v escape of %v differs from its class's", name, h, o)
							}
						}
					}
				}
			}
		}
	}
	dor, _ := ByName(g, "dor")
	if _, err := Replicate(dor, 3); err == nil {
		t.Error("dor (2 VCs) on 3 VCs: accepted")
	}
	if rel, err := Replicate(dor, 2); err != nil || rel.VCs() != 2 || func() bool { _, p := Unreplicate(rel); return p != 1 }() {
		t.Errorf("dor on its own 2 VCs: %v %v", rel, err)
	}
}
