package render

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestChannelCycle draws the four channels around the square of a 3x3 mesh and checks
// the picture is well-formed XML with one numbered arrow per channel; a 3-D grid and a
// bad channel are refused.
func TestChannelCycle(t *testing.T) {
	g, _ := topology.NewMesh(3, 3)
	cyc := []topology.ChannelID{
		g.ChannelOut(g.Node(0, 0), 0, topology.Plus), g.ChannelOut(g.Node(1, 0), 1, topology.Plus),
		g.ChannelOut(g.Node(1, 1), 0, topology.Minus), g.ChannelOut(g.Node(0, 1), 1, topology.Minus),
	}
	out, err := ChannelCycle(g, cyc, []string{"east->north at (1,0)"}, "mesh:3x3 <cycle>")
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(out))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("bad XML: %v\n%s", err, out)
			}
			break
		}
	}
	if n := bytes.Count(out, []byte(`class="cycle-num"`)); n != 4 {
		t.Errorf("%d arrows, want 4", n)
	}
	g3, _ := topology.NewMesh(2, 2, 2)
	if _, err := ChannelCycle(g3, nil, nil, ""); err == nil {
		t.Error("3-D mesh accepted")
	}
	if _, err := ChannelCycle(g, []topology.ChannelID{999}, nil, ""); err == nil {
		t.Error("bad channel accepted")
	}
}
