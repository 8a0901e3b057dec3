package decide_test

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/decide"
)

// yFirst is a user's own routing relation: dimension order with dimension 1 first (YX
// routing), on one virtual channel.
type yFirst struct{ g *topology.Network }

func (r yFirst) Name() string            { return "yx" }
func (r yFirst) Grid() *topology.Network { return r.g }
func (r yFirst) VCs() int                { return 1 }
func (r yFirst) Route(h routing.Header, out []routing.Output) []routing.Output {
	for _, d := range []int{1, 0} {
		if n, dir := r.g.Offset(h.At, h.Dst, d); n > 0 {
			return append(out, routing.Output{Channel: r.g.ChannelOut(h.At, d, dir)})
		}
	}
	return out
}

// The exact decision of a relation of your own: YX routing on a 4x4 torus without
// dateline classes has a deadlock configuration, four worms round a ring; ProveRelation
// realises it in the flit model, and the flit explorer, given the instance it implies
// (check.Unicast with the Go relation in Spec.Routing), finds the deadlock too.
func Example_exactDecision() {
	torus, _ := topology.NewTorus(4, 4)
	rel := yFirst{torus}
	rep, err := decide.ProveRelation(context.Background(), rel, decide.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Verdict, "-", rep.Reason)
	for _, w := range rep.Witness.Configuration.Worms {
		fmt.Printf("m%d %s->%s holds %v, waits for %s (m%d)\n", w.Message, w.Src, w.Dst, w.Route[len(w.Route)-w.Held:], w.Waits[0].Channel, w.Waits[0].Holder)
	}
	sp := rep.Realisation.Spec
	sp.Routing = rel
	flitRep, err := check.Unicast{Grid: torus, Spec: sp}.Check(context.Background(), "deadlock", check.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("explorer:", flitRep.Verdict)
	// Output:
	// violated - a minimal deadlock configuration: 4 worms holding 4 channels, every header's permitted outputs held
	// m0 (0,0)->(2,0) holds [(0,0)->(1,0).vc0], waits for (1,0)->(2,0) (m1)
	// m1 (1,0)->(3,0) holds [(1,0)->(2,0).vc0], waits for (2,0)->(3,0) (m2)
	// m2 (2,0)->(0,0) holds [(2,0)->(3,0).vc0], waits for (3,0)->(0,0) (m3)
	// m3 (3,0)->(1,0) holds [(3,0)->(0,0).vc0], waits for (0,0)->(1,0) (m0)
	// explorer: violated
}
