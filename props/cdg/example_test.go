package cdg_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/cdg"
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

// A relation of your own, written in Go, proved deadlock-free on a mesh from go test:
// its channel dependency graph is acyclic. On a torus the same relation has a cyclic
// graph, and the witness names the ring and its turns.
func Example_userRelation() {
	mesh, _ := topology.NewMesh(8, 8)
	r, err := cdg.Analyze(yFirst{mesh}, cdg.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Verdict(), "-", r.Reason())

	torus, _ := topology.NewTorus(4, 4)
	r, _ = cdg.Analyze(yFirst{torus}, cdg.Options{})
	fmt.Println(r.Verdict(), "-", r.Witness().Violation)
	// Output:
	// holds - the channel dependency graph is acyclic (Dally & Seitz; sufficient)
	// inconclusive - channel dependency cycle of 4 channels: (0,0)->(1,0).vc0 -> (1,0)->(2,0).vc0 -> (2,0)->(3,0).vc0 -> (3,0)->(0,0).vc0 -> back
}
