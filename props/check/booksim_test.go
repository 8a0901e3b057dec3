package check_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/decide"
)

// TestUGALDragonflyDraws pins what the relation of BookSim's ugal_dragonflynew does not
// cover. As a relation (every draw offered, a header stuck only when every output is
// held) it is deadlock-free on the smallest dragonfly by the exact search alone (its
// channel dependency graph is cyclic). BookSim draws each packet's intermediate router
// at its source and then waits for that one way: testdata/ugal-dragonflynew-draws.json
// fixes six packets' draws as a routing table, every hop of which the relation offers
// (checked here hop by hop), and those six packets deadlock in the flit model: each
// phase-0 packet waits on VC 0 of a channel held by the next one, round the three groups.
func TestUGALDragonflyDraws(t *testing.T) {
	ctx := context.Background()
	rep, err := decide.Prove(ctx, "dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=3", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Holds || rep.Analysis.Acyclic {
		t.Fatalf("booksim:ugal on dragonfly:a=2,p=1,h=1: %s, acyclic %v; want holds by the exact search only", rep.Verdict, rep.Analysis.Acyclic)
	}
	rr, err := check.Run(ctx, check.Instance{Algorithm: "routing", Topology: "dragonfly:a=2,p=1,h=1", Params: map[string]string{"routing": "booksim:ugal,vcs=3"}}, checker.PropDeadlock, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Verdict != props.Holds || !strings.Contains(rr.Reason, "BookSim draws one and waits for it, which this does not cover") {
		t.Errorf("routing booksim:ugal: %s (%s); want holds with the caution about BookSim's draws", rr.Verdict, rr.Reason)
	}
	const file = "testdata/ugal-dragonflynew-draws.json"
	worms := "g0r1t0->g1r1t0,g0r0t0->g2r1t0,g1r0t0->g2r0t0,g1r1t0->g0r0t0,g2r1t0->g0r1t0,g2r0t0->g1r0t0"
	// every hop of every worm is one BookSim's function may take
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	table, err := routing.ParseFile(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := table.Grid()
	ugal, err := routing.NewBookSim(g, "ugal", 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range strings.Split(worms, ",") {
		s, d, _ := strings.Cut(w, "->")
		src, _ := g.NodeByName(s)
		dst, _ := g.NodeByName(d)
		h := routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
		for hops := 0; h.At != dst; hops++ {
			outs := table.Route(h, nil)
			if len(outs) != 1 && !g.Terminal(h.At) || len(outs) == 0 || hops > 8 {
				t.Fatalf("%s at %s: the table gives %v", w, g.NodeName(h.At), outs)
			}
			offered := false
			for _, o := range ugal.Route(h, nil) {
				offered = offered || o.Channel == outs[0].Channel && o.VC == outs[0].VC
			}
			if !offered && !g.Terminal(h.At) { // BookSim injects on any VC; the table picks one
				t.Fatalf("%s at %s: %s.vc%d is not an output of BookSim's ugal", w, g.NodeName(h.At), g.ChannelName(outs[0].Channel), outs[0].VC)
			}
			h = routing.Header{At: g.Channel(outs[0].Channel).To, In: routing.Input{Channel: outs[0].Channel, VC: outs[0].VC}, Src: src, Dst: dst}
		}
	}
	in := check.Instance{Algorithm: "unicast", Params: map[string]string{"routing": file, "msgs": worms, "length": "1"}}
	r, err := check.Run(ctx, in, checker.PropDeadlock, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != props.Violated || !strings.Contains(r.Instance.Topology, "dragonfly:a=2,p=1,h=1") {
		t.Errorf("six UGAL draws on %s: %s (%s); want a deadlock", r.Instance.Topology, r.Verdict, r.Reason)
	}
}
