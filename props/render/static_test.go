package render_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// squareCycle is the channel dependency cycle of minimal fully adaptive routing with one
// virtual channel on a 2-D mesh: four turns around one square (the turn model's
// counter-clockwise cycle, Glass & Ni Fig. 2).
func squareCycle() *props.Witness {
	return &props.Witness{Kind: props.WitnessCycle, Violation: "channel dependency cycle of 4 channels",
		Cycle: []props.CycleEdge{
			{Message: 0, Channel: "(1,1)->(2,1)", Holder: 1, Turn: "east->north at (2,1)"},
			{Message: 1, Channel: "(2,1)->(2,2)", Holder: 2, Turn: "north->west at (2,2)"},
			{Message: 2, Channel: "(2,2)->(1,2)", Holder: 3, Turn: "west->south at (1,2)"},
			{Message: 3, Channel: "(1,2)->(1,1)", Holder: 0, Turn: "south->east at (1,1)"},
		}}
}

func TestStaticCyclePicture(t *testing.T) {
	g, err := topology.Parse("mesh:8x8")
	if err != nil {
		t.Fatal(err)
	}
	pic, err := render.StaticCycle(g, squareCycle(), "minimal adaptive routing, 1 VC, on mesh:8x8: channel dependency cycle", "static check (Dally & Seitz): the graph is cyclic")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pic), "class=\"cycle-num\""); n != 4 {
		t.Errorf("%d numbered channels; want 4", n)
	}
	for _, want := range []string{"then east-&gt;north at (2,1)", "showing x 0..3, y 0..3 of mesh:8x8"} {
		if !strings.Contains(string(pic), want) {
			t.Errorf("picture lacks %q", want)
		}
	}
	golden(t, "static-cycle-mesh8x8.svg", pic)
	bad := squareCycle()
	bad.Cycle[2].Channel = "(9,9)->(9,8)"
	if _, err := render.StaticCycle(g, bad, "", ""); err == nil || !strings.Contains(err.Error(), "edge 2") {
		t.Errorf("an unknown channel gave %v", err)
	}
}
