package topology_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Example parses a topology spec and routes a worm with dimension-order routing: on a
// torus the dateline virtual-channel class switches to 1 at the wrap-around channel.
func Example() {
	g, err := topology.Parse("torus:4x4")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := topology.NewDOR(g)
	for _, h := range r.Hops(g.Node(3, 0), g.Node(1, 1)) {
		fmt.Println(g.ChannelName(h.Channel), "class", h.Class)
	}
	_, err = topology.Parse("torus:0x4")
	fmt.Println(err)
	// Output:
	// (3,0)->(0,0) class 1
	// (0,0)->(1,0) class 1
	// (1,0)->(1,1) class 0
	// topology "torus:0x4": dimension 1 has size 0; sizes must be 2..4096
}
