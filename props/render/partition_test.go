package render_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// subnetworks converts algos/partition's subnetworks into the evidence's.
func subnetworks(subs []partition.Subnetwork) []props.Subnetwork {
	var out []props.Subnetwork
	for _, s := range subs {
		out = append(out, props.Subnetwork{Name: s.Name, Directed: s.Orientation != partition.Undirected, Nodes: s.Nodes, Channels: s.Channels})
	}
	return out
}

// TestDDNPicture draws the Type III partition of 001 Figure 3 (16x16 torus, h = 4,
// delta = 2): eight DDNs in eight colours, each in its own panel, beside a panel of the
// sixteen dashed DCN blocks.
func TestDDNPicture(t *testing.T) {
	g, err := topology.NewTorus(16, 16)
	if err != nil {
		t.Fatal(err)
	}
	ddns, err := partition.DDNs(g, partition.Params{Type: partition.TypeIII, H: 4, Delta: 2})
	if err != nil {
		t.Fatal(err)
	}
	dcns, err := partition.DCNs(g, 4)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := render.Partition(&props.PartitionEvidence{Grid: g, DDNs: subnetworks(ddns), DCNs: subnetworks(dcns), Title: "DDN partition Type III of torus:16x16, h=4, delta=2 (001 Fig. 3)"})
	if err != nil {
		t.Fatal(err)
	}
	colours := map[string]bool{}
	for i := range ddns {
		c, _ := render.SubnetworkStyle(i)
		colours[c] = true
		if !strings.Contains(string(pic), "id=\"sub"+itoa(i)+"\" stroke=\""+c) {
			t.Errorf("subnetwork %d is not drawn in %s", i, c)
		}
	}
	if len(colours) != len(ddns) {
		t.Errorf("%d colours for %d subnetworks", len(colours), len(ddns))
	}
	// Small multiples: a panel per DDN, headed by its name, with only its own channels
	// in colour (one <g id="subI"> each), so no link carries several colours.
	for _, s := range ddns {
		if !strings.Contains(string(pic), ">"+s.Name+": directed, 16 members</text>") {
			t.Errorf("no panel headed %s", s.Name)
		}
	}
	if n := strings.Count(string(pic), "<g id=\"sub"); n != len(ddns) {
		t.Errorf("%d subnetwork groups, want %d", n, len(ddns))
	}
	golden(t, "ddn-typeIII-16x16.svg", pic)
	if _, err := render.Partition(&props.PartitionEvidence{Grid: g, DDNs: []props.Subnetwork{{Name: "bad", Nodes: []topology.NodeID{999}}}}); err == nil {
		t.Error("a node outside the grid was drawn")
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestPartitionWitnessPair rings an unreachable pair in red and says so in the legend.
func TestPartitionWitnessPair(t *testing.T) {
	g, err := topology.NewMesh(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	ddns, _ := partition.DDNs(g, partition.Params{Type: partition.TypeIII, H: 2, Delta: 1})
	dcns, _ := partition.DCNs(g, 2)
	pic, err := render.Partition(&props.PartitionEvidence{Grid: g, DDNs: subnetworks(ddns[:1]), DCNs: subnetworks(dcns), Pair: []topology.NodeID{g.Node(2, 0), g.Node(0, 0)}, Caption: "G0+: (2,0) cannot reach (0,0) <unreachable>"})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pic), "fill=\"none\" stroke=\"#d00000\" stroke-width=\"2\"><title>"); n != 2 {
		t.Errorf("%d rings; want 2", n)
	}
	if !strings.Contains(string(pic), "cannot reach (0,0) &lt;unreachable&gt;") {
		t.Error("the caption is missing or not escaped")
	}
}
