package render_test

import (
	"bytes"
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/render"
)

// Example draws one message holding the first channel of its XY route on a 2x2 mesh.
func ExampleDrawFlit() {
	g, _ := topology.NewMesh(2, 2)
	c, _ := g.Neighbor(g.Node(0, 0), 0, topology.Plus)
	svg, err := render.DrawFlit(render.FlitPicture{
		Title:    "one worm",
		Grid:     g,
		Messages: []render.FlitMessage{{Name: "A", Source: g.Node(0, 0), Destinations: []topology.NodeID{g.Node(1, 0)}, Path: []topology.ChannelID{c}}},
		Holds:    []render.Hold{{Channel: c, Message: 0, Flits: 1}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bytes.HasPrefix(svg, []byte("<svg")), bytes.Count(svg, []byte("<circle")))
	// Output: true 4
}
