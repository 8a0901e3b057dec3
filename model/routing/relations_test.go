package routing

import (
	"math/rand/v2"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestRelationsDeliver walks random selections of every built-in relation from every
// source to every destination of small grids: each output leaves the router, uses a VC
// in range and is productive unless marked Misroute, no reachable header is stranded,
// and a minimal relation delivers in exactly the distance (a budgeted one within
// distance + 2*budget hops).
func TestRelationsDeliver(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spec := range []string{"mesh:4x3", "mesh:5x5", "torus:4x4", "torus:5x3", "hypercube:3", "mesh:3x2x3"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range append(Names(), "nonminimal:2") {
			if name == "nonminimal:B" {
				continue
			}
			rel, err := ByName(g, name)
			if err != nil {
				continue // not defined on this grid (checked in TestByNameRefuses)
			}
			budget := -1
			if b, ok := rel.(Budgeted); ok {
				budget = b.MisrouteBudget()
			}
			for s := topology.NodeID(0); int(s) < g.Nodes(); s++ {
				for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
					if s == d {
						continue
					}
					for walk := 0; walk < 3; walk++ {
						h := Header{At: s, In: Input{Channel: Injection}, Src: s, Dst: d}
						hops, limit := 0, g.Distance(s, d)
						if budget > 0 {
							limit += 2 * budget
						} else if budget < 0 && (name == "nonminimal" || name == "updown") {
							limit = 1 << 30
						}
						for h.At != d && hops < 4*g.Nodes() {
							outs := rel.Route(h, nil)
							if len(outs) == 0 {
								t.Fatalf("%s on %s: header %d->%d stranded at %s", name, spec, s, d, g.NodeName(h.At))
							}
							for _, o := range outs {
								if g.Channel(o.Channel).From != h.At || o.VC < 0 || o.VC >= rel.VCs() {
									t.Fatalf("%s on %s: bad output %+v at %s", name, spec, o, g.NodeName(h.At))
								}
								closer := g.Distance(g.Channel(o.Channel).To, d) < g.Distance(h.At, d)
								if closer == o.Misroute {
									t.Fatalf("%s on %s: output %+v at %s toward %s: productive=%v but Misroute=%v", name, spec, o, g.NodeName(h.At), g.NodeName(d), closer, o.Misroute)
								}
							}
							o := outs[rng.IntN(len(outs))]
							if o.Misroute && budget >= 0 {
								h.Misroutes++
							}
							h = Header{At: g.Channel(o.Channel).To, In: Input{Channel: o.Channel, VC: o.VC}, Src: s, Dst: d, Misroutes: h.Misroutes}
							hops++
						}
						if name != "nonminimal" && (h.At != d || hops > limit) {
							t.Fatalf("%s on %s: %d->%d took %d hops (limit %d), ended at %s", name, spec, s, d, hops, limit, g.NodeName(h.At))
						}
					}
				}
			}
		}
	}
}

// TestByNameRefuses checks that relations refuse the grids they are not defined on with
// one line naming the relation, and that unknown names list the built-ins.
func TestByNameRefuses(t *testing.T) {
	for _, c := range []struct{ spec, name string }{
		{"torus:4x4", "west-first"}, {"mesh:3x3x3", "north-last"}, {"torus:4x4", "odd-even"},
		{"mesh:4x4x4", "odd-even"}, {"torus:5x5", "negative-first"}, {"mesh:4x4", "zigzag"},
		{"mesh:4x4", "nonminimal:x"}, {"mesh:4x4", "nonminimal:-1"}, {"mesh:4x4", "nonminimal:999"},
	} {
		g, err := topology.Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ByName(g, c.name); err == nil {
			t.Errorf("ByName(%s, %q) accepted", c.spec, c.name)
		} else {
			t.Logf("%s %s: %v", c.spec, c.name, err)
		}
	}
}

// TestNonMinimalTurnsBackOnlyProductively checks NonMinimal's documented turn rule on
// every header position of mesh:4x3 and torus:4x4: the reverse of the arrival channel is
// never offered as a misroute, and is offered (productively) exactly when it is
// productive, so that the doc and `help routing` say what the relation does.
func TestNonMinimalTurnsBackOnlyProductively(t *testing.T) {
	for _, spec := range []string{"mesh:4x3", "torus:4x4"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		r := newNonMinimal(g)
		uTurns := 0
		for c := range g.Channels() {
			in := g.Channel(topology.ChannelID(c))
			var back topology.ChannelID = topology.None
			for b := range g.Channels() {
				if ch := g.Channel(topology.ChannelID(b)); ch.From == in.To && ch.To == in.From && ch.Dim == in.Dim && ch.Dir != in.Dir {
					back = topology.ChannelID(b)
				}
			}
			for dst := range g.Nodes() {
				if topology.NodeID(dst) == in.To {
					continue
				}
				h := Header{At: in.To, In: Input{Channel: topology.ChannelID(c)}, Src: in.From, Dst: topology.NodeID(dst)}
				for _, o := range r.Route(h, nil) {
					if o.Channel != back {
						continue
					}
					if o.Misroute {
						t.Fatalf("%s: a header at %s from %s to %s is offered the way back as a misroute", spec, g.NodeName(in.To), g.NodeName(in.From), g.NodeName(topology.NodeID(dst)))
					}
					uTurns++
				}
			}
		}
		if uTurns == 0 {
			t.Errorf("%s: no productive U-turn offered; the doc says a header may take one", spec)
		}
	}
}
