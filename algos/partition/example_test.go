package partition_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Example builds the Type III subnetworks of 001 Figure 3 (16x16 torus, h = 4, delta =
// 2), counts their contention levels and judges P1-P5.
func Example() {
	g, _ := topology.NewTorus(16, 16)
	ddns, _ := partition.DDNs(g, partition.Params{Type: partition.TypeIII, H: 4, Delta: 2})
	dcns, _ := partition.DCNs(g, 4)
	pr := partition.CheckProperties(g, ddns, dcns, partition.IsoOptions{})
	fmt.Printf("%d DDNs, %d DCNs, node level %d, link level %d\n", len(ddns), len(dcns), pr.Levels.Node, pr.Levels.Link)
	for _, c := range pr.Checks {
		fmt.Println(c.Property, c.Verdict)
	}
	// Output:
	// 8 DDNs, 16 DCNs, node level 1, link level 1
	// P1 holds
	// P2 holds
	// P3 holds
	// P4 holds
	// P5 holds
	// DDN strongly connected holds
	// DCN strongly connected holds
}
