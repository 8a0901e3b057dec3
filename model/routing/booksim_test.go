package routing

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// node reads a node of g by name or coordinates.
func testNode(t *testing.T, g *topology.Network, s string) topology.NodeID {
	t.Helper()
	if v, ok := g.NodeByName(s); ok {
		return v
	}
	v, err := g.ParseNode(s)
	if err != nil {
		t.Fatalf("%s: %v", g.Spec(), err)
	}
	return v
}

// formatOutputs writes outputs as "from->to[vcs]", consecutive outputs on one channel
// merged and their VCs written as ranges.
func formatOutputs(g *topology.Network, outs []Output) string {
	var parts []string
	for i := 0; i < len(outs); {
		j := i
		for j+1 < len(outs) && outs[j+1].Channel == outs[i].Channel && outs[j+1].VC == outs[j].VC+1 {
			j++
		}
		vcs := fmt.Sprint(outs[i].VC)
		if j > i {
			vcs += fmt.Sprintf("-%d", outs[j].VC)
		}
		parts = append(parts, fmt.Sprintf("%s[%s]", g.ChannelName(outs[i].Channel), vcs))
		i = j + 1
	}
	return strings.Join(parts, " ")
}

// TestBookSimChoices compares each BookSim routing function's outputs, for headers on
// small networks, with a table derived by hand from BookSim2's source (routefunc.cpp,
// cmesh.cpp, flatfly_onchip.cpp, dragonfly.cpp, anynet.cpp): the port it returns and
// the VC range, over every draw. A header is at AT, came from FROM ("" at its source;
// "FROM src=S" names its source when that is not FROM) on VC VC, and goes to DST.
func TestBookSimChoices(t *testing.T) {
	ring := filepath.Join(t.TempDir(), "ring.anynet")
	if err := os.WriteFile(ring, []byte("router 0 node 0 router 1 router 3\nrouter 1 node 1 router 2\nrouter 2 node 2 router 3\nrouter 3 node 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tc := range []struct {
		topo, rel      string
		at, from       string
		vc             int
		dst, want, why string
	}{
		// dim_order_mesh: lowest dimension first, every VC
		{"mesh:4x4", "booksim:dim_order,vcs=2", "(1,1)", "", 0, "(3,0)", "(1,1)->(2,1)[0-1]", "x first"},
		{"mesh:4x4", "booksim:dor,vcs=2", "(3,1)", "(2,1)", 1, "(3,0)", "(3,1)->(3,0)[0-1]", "then y"},
		// dim_order_ni_mesh: VC dest*nv/nodes; dim_order_pni_mesh: by the coordinate of the output's dimension
		{"mesh:4x4", "booksim:dim_order_ni,vcs=16", "(0,0)", "", 0, "(1,1)", "(0,0)->(1,0)[5]", "node 5 owns VC 5"},
		{"mesh:4x4", "booksim:dim_order_pni,vcs=8", "(0,0)", "", 0, "(2,3)", "(0,0)->(1,0)[4-5]", "x coordinate 2: VCs 4,5"},
		{"mesh:4x4", "booksim:dim_order_pni,vcs=8", "(2,0)", "(1,0)", 4, "(2,3)", "(2,0)->(2,1)[6-7]", "y coordinate 3: VCs 6,7"},
		// xy_yx_mesh: drawn at the source, then the VC: below nv/2 is XY
		{"mesh:4x4", "booksim:xy_yx,vcs=4", "(1,1)", "", 0, "(3,0)", "(1,1)->(2,1)[0-1] (1,1)->(1,0)[2-3]", "XY low, YX high"},
		{"mesh:4x4", "booksim:xy_yx,vcs=4", "(1,1)", "(0,1)", 2, "(3,0)", "(1,1)->(1,0)[2-3]", "VC 2: YX"},
		{"mesh:4x4", "booksim:xy_yx,vcs=3", "(1,1)", "(0,1)", 1, "(3,0)", "(1,1)->(1,0)[1-2]", "odd: VC 1 reads as YX, as BookSim reads it"},
		{"mesh:4x4", "booksim:adaptive_xy_yx,vcs=2", "(1,1)", "", 0, "(3,0)", "(1,1)->(2,1)[0] (1,1)->(1,0)[1]", "credits choose; the same choices"},
		// romm_mesh: phase 0 to an intermediate in the box, low half; phase 1 high half
		{"mesh:4x4", "booksim:romm,vcs=4", "(0,0)", "", 0, "(2,1)", "(0,0)->(1,0)[0-1] (0,0)->(0,1)[0-1] (0,0)->(1,0)[2-3]", "x or y toward dst, or intermediate = source"},
		{"mesh:4x4", "booksim:romm,vcs=4", "(1,0)", "(0,0)", 0, "(2,1)", "(1,0)->(2,0)[0-1] (1,0)->(1,1)[0-1] (1,0)->(2,0)[2-3]", "go on, turn, or phase 1"},
		{"mesh:4x4", "booksim:romm,vcs=4", "(1,1)", "(1,0)", 1, "(2,1)", "(1,1)->(2,1)[2-3]", "y done: only phase 1"},
		{"mesh:4x4", "booksim:romm,vcs=4", "(1,0)", "(0,0)", 3, "(2,1)", "(1,0)->(2,0)[2-3]", "phase 1: dimension order"},
		// valiant_mesh: any intermediate
		{"mesh:4x4", "booksim:valiant,vcs=2", "(1,1)", "", 0, "(2,1)", "(1,1)->(2,1)[0] (1,1)->(0,1)[0] (1,1)->(1,2)[0] (1,1)->(1,0)[0] (1,1)->(2,1)[1]", "every way"},
		{"mesh:4x4", "booksim:valiant,vcs=2", "(1,1)", "(1,0)", 0, "(2,1)", "(1,1)->(1,2)[0] (1,1)->(2,1)[1]", "y goes on; x is done"},
		{"mesh:4x4", "booksim:valiant,vcs=2", "(3,1)", "(2,1)", 0, "(2,1)", "(3,1)->(3,2)[0] (3,1)->(3,0)[0] (3,1)->(2,1)[1]", "at the edge"},
		// min_adapt_mesh: minimal on VCs 1.., escape DOR on VC 0
		{"mesh:4x4", "booksim:min_adapt,vcs=3", "(1,1)", "", 0, "(2,3)", "(1,1)->(2,1)[1-2] (1,1)->(1,2)[1-2] (1,1)->(2,1)[0]", "adaptive, then escape"},
		{"mesh:4x4", "booksim:min_adapt,vcs=3", "(2,1)", "(1,1)", 0, "(2,3)", "(2,1)->(2,2)[0]", "in the escape VC: DOR only"},
		// planar_adapt_mesh (no faults): plane n on the top third, the next dimension on the first or second
		{"mesh:4x4", "booksim:planar_adapt,vcs=3", "(1,1)", "", 0, "(2,3)", "(1,1)->(2,1)[2] (1,1)->(1,2)[0]", "plane 0, increasing"},
		{"mesh:4x4", "booksim:planar_adapt,vcs=3", "(2,1)", "(1,1)", 0, "(3,3)", "(2,1)->(2,2)[2] (2,1)->(3,1)[0]", "came in on x, low VC: dimension 0 skipped"},
		{"mesh:4x4", "booksim:planar_adapt,vcs=3", "(1,2)", "(1,1)", 0, "(2,3)", "(1,2)->(2,2)[2] (1,2)->(1,3)[0]", "plane 0"},
		{"mesh:4x4", "booksim:planar_adapt,vcs=3", "(2,2)", "", 0, "(1,0)", "(2,2)->(1,2)[2] (2,2)->(2,1)[1]", "decreasing: second third"},
		// chaos_mesh: every minimal direction, VC 0
		{"mesh:4x4", "booksim:chaos", "(1,1)", "", 0, "(2,0)", "(1,1)->(2,1)[0] (1,1)->(1,0)[0]", ""},
		// dim_order_torus: partition chosen on entering a dimension; a tie drawn
		{"torus:4x4", "booksim:dim_order,vcs=2", "(0,0)", "", 0, "(2,0)", "(0,0)->(1,0)[0] (0,0)->(3,0)[0]", "tie: both ways, no wrap ahead"},
		{"torus:4x4", "booksim:dim_order,vcs=2", "(3,0)", "", 0, "(1,0)", "(3,0)->(0,0)[1] (3,0)->(2,0)[1]", "+ wraps: 1; - tests dst < cur: 1"},
		{"torus:4x4", "booksim:dim_order,vcs=2", "(1,0)", "", 0, "(0,0)", "(1,0)->(0,0)[1]", "- without a wrap is class 1 as written"},
		{"torus:4x4", "booksim:dim_order,vcs=2", "(0,0)", "", 0, "(3,0)", "(0,0)->(3,0)[0]", "- over the wrap is class 0"},
		{"torus:4x4", "booksim:dim_order,vcs=2", "(1,0)", "(0,0)", 1, "(2,1)", "(1,0)->(2,0)[1]", "going on keeps the partition"},
		{"torus:4x4", "booksim:dim_order,vcs=2", "(2,0)", "(1,0)", 1, "(2,1)", "(2,0)->(2,1)[0]", "turning chooses again"},
		{"torus:4x4", "booksim:dim_order_bal,vcs=2", "(0,0)", "", 0, "(2,0)", "(0,0)->(1,0)[0] (0,0)->(3,0)[1]", "+ crosses the middle: 0; - wraps: 1"},
		{"torus:4x4", "booksim:dim_order_bal,vcs=2", "(0,0)", "", 0, "(1,0)", "(0,0)->(1,0)[0-1]", "neither: either"},
		{"torus:4x4", "booksim:dim_order_ni,vcs=16", "(0,0)", "", 0, "(2,0)", "(0,0)->(1,0)[2] (0,0)->(3,0)[2]", "destination 2's VC"},
		// min_adapt_torus: adaptive on VC 3 (a tie goes -), escape DOR on 0/1 as if injected
		{"torus:4x4", "booksim:min_adapt,vcs=4", "(0,0)", "", 0, "(2,1)", "(0,0)->(3,0)[3] (0,0)->(0,1)[3] (0,0)->(1,0)[0] (0,0)->(3,0)[0]", ""},
		{"torus:4x4", "booksim:min_adapt,vcs=4", "(1,0)", "(0,0)", 1, "(3,0)", "(1,0)->(2,0)[1]", "escape going on"},
		{"torus:4x4", "booksim:chaos", "(0,0)", "", 0, "(2,1)", "(0,0)->(1,0)[0] (0,0)->(3,0)[0] (0,0)->(0,1)[0]", "tie: both"},
		// cmesh (router r = 4y + x, terminals 2x2, BookSim's numbering)
		{"cmesh:k=4", "booksim:dor_no_express,vcs=2", "n0", "", 0, "n63", "n0->r0[0-1]", "injection"},
		{"cmesh:k=4", "booksim:dor_no_express,vcs=2", "r0", "n0", 0, "n63", "r0->r1[0-1]", "x first"},
		{"cmesh:k=4", "booksim:dor_no_express,vcs=2", "r15", "r11", 0, "n63", "r15->n63[0-1]", "ejection"},
		{"cmesh:k=4", "booksim:dor,vcs=2", "r0", "n0", 0, "n6", "r0->r2[0-1]", "3 columns on the bottom row: -y express to r2"},
		{"cmesh:k=4", "booksim:dor,vcs=2", "r2", "r0", 0, "n6", "r2->r3[0-1]", ""},
		{"cmesh:k=4", "booksim:dor,vcs=2", "r0", "n0", 0, "n48", "r0->r8[0-1]", "3 rows on the left column: -x express to r8"},
		{"cmesh:k=4", "booksim:dor,vcs=2", "r1", "n2", 0, "n50", "r1->r5[0-1]", "not on an edge: the mesh"},
		{"cmesh:k=4", "booksim:xy_yx_no_express,vcs=4", "r0", "n0", 0, "n63", "r0->r1[0-1] r0->r4[2-3]", ""},
		{"cmesh:k=4", "booksim:xy_yx,vcs=4", "r0", "n0", 0, "n63", "r0->r2[0-1] r0->r8[2-3]", "XY: -y express along the bottom; YX: -x express up the left"},
		{"cmesh:k=4", "booksim:xy_yx_no_express,vcs=4", "r1", "r0", 3, "n63", "r1->r5[2-3]", "YX by its VC"},
		// flatfly k=4 n=2 c=4 (router r = 4y + x)
		{"flatfly:k=4,n=2,c=4", "booksim:ran_min,vcs=2", "r0", "n0", 0, "n63", "r0->r3[0-1]", "dimension order, despite the name"},
		{"flatfly:k=4,n=2,c=4", "booksim:ran_min,vcs=2", "r3", "r0", 0, "n63", "r3->r15[0-1]", ""},
		{"flatfly:k=4,n=2,c=4", "booksim:ran_min,vcs=2", "r15", "r3", 1, "n63", "r15->n63[0-1]", ""},
		{"flatfly:k=4,n=2,c=4", "booksim:xyyx,vcs=2", "r0", "n0", 0, "n63", "r0->r3[0] r0->r12[1]", ""},
		{"flatfly:k=4,n=2,c=4", "booksim:xyyx,vcs=2", "r3", "r0", 1, "n63", "r3->r15[1]", ""},
		{"flatfly:k=4,n=2,c=4", "booksim:adaptive_xyyx,vcs=2", "r0", "n0", 0, "n63", "r0->r3[0] r0->r12[1]", "credits choose; the same choices"},
		{"flatfly:k=4,n=2,c=4", "booksim:valiant,vcs=2", "r0", "n0", 0, "n63", "r0->r1[0] r0->r2[0] r0->r3[0] r0->r4[0] r0->r8[0] r0->r12[0] r0->r3[1]", ""},
		{"flatfly:k=4,n=2,c=4", "booksim:valiant,vcs=2", "r1", "r0", 0, "n63", "r1->r5[0] r1->r9[0] r1->r13[0] r1->r3[1]", ""},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal,vcs=2", "r0", "n0", 0, "n63", "r0->r3[1] r0->r1[0] r0->r2[0] r0->r3[0] r0->r4[0] r0->r8[0] r0->r12[0]", "minimal or toward the box"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal,vcs=2", "r0", "n0", 0, "n3", "r0->r1[1] r0->r1[0] r0->r2[0] r0->r3[0]", "y agrees: the box is one row"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal,vcs=2", "r0", "n0", 0, "n9", "r0->n9[0-1]", "same router"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal,vcs=2", "r2", "r0", 0, "n63", "r2->r6[0] r2->r10[0] r2->r14[0] r2->r3[1]", "phase 1"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal,vcs=2", "r3", "r0", 0, "n6", "r3->n6[0-1]", "at the intermediate = destination's router"},
		// ugal_pni_flatfly: ugal's choices, each hop's phase range cut into k blocks of one VC,
		// the block the destination's coordinate in the next dimension (after the last: its
		// port; n63 is port 3 of r15, n18 port 0 of r5); the injection's [0, 7] in blocks of
		// two by the destination router's first digit
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_pni,vcs=8", "n0", "", 0, "n63", "n0->r0[6-7]", "injection: digit 0 of r15 is 3"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_pni,vcs=8", "r0", "n0", 0, "n63", "r0->r3[7] r0->r1[3] r0->r2[3] r0->r3[3] r0->r4[3] r0->r8[3] r0->r12[3]", "minimal 4+3, box 0+3"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_pni,vcs=8", "r0", "n0", 0, "n18", "r0->r1[5] r0->r1[1] r0->r2[1] r0->r3[1] r0->r4[0] r0->r8[0] r0->r12[0]", "x hops by r5's y digit 1, y hops by n18's port 0"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_pni,vcs=8", "r2", "r0", 3, "n63", "r2->r6[3] r2->r10[3] r2->r14[3] r2->r3[7]", "phase 1 going on, or phase 2 from here"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_pni,vcs=8", "r3", "r0", 7, "n6", "r3->n6[0-7]", "ejection: every VC"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_xyyx,vcs=4", "r0", "n0", 0, "n63", "r0->r3[1] r0->r1[0] r0->r2[0] r0->r3[0] r0->r4[0] r0->r8[0] r0->r12[0] r0->r12[3] r0->r4[2] r0->r8[2] r0->r12[2] r0->r1[2] r0->r2[2] r0->r3[2]", "each order, each phase"},
		// fly k=2 n=3: stage s takes digit n-1-s of the destination
		{"fly:k=2,n=3", "booksim:dest_tag,vcs=2", "n0", "", 0, "n5", "n0->r0.0[0-1]", ""},
		{"fly:k=2,n=3", "booksim:dest_tag,vcs=2", "r0.0", "n0", 0, "n5", "r0.0->r1.2[0-1]", "digit 2 of 5 is 1"},
		{"fly:k=2,n=3", "booksim:dest_tag,vcs=2", "r1.2", "r0.0", 0, "n5", "r1.2->r2.2[0-1]", "digit 1 is 0"},
		{"fly:k=2,n=3", "booksim:dest_tag,vcs=2", "r2.2", "r1.2", 0, "n5", "r2.2->n5[0-1]", "port 1 of the last stage"},
		// fattree nca/anca: any up port, every VC
		{"fattree:2,2", "booksim:nca,vcs=2", "s1.1", "p10", 0, "p01", "s1.1->s0.0[0-1] s1.1->s0.1[0-1]", ""},
		{"fattree:2,2", "booksim:anca,vcs=1", "s0.1", "s1.1", 0, "p01", "s0.1->s1.0[0]", "down"},
		// dragonfly a=2 p=1 h=1 (BookSim's k = 1): min, VC 0 until the global channel
		{"dragonfly:a=2,p=1,h=1", "booksim:min,vcs=2", "g0r0t0", "", 0, "g1r0t0", "g0r0t0->g0r0[0-1]", "any injection VC"},
		{"dragonfly:a=2,p=1,h=1", "booksim:min,vcs=2", "g0r0", "g0r0t0", 1, "g1r0t0", "g0r0->g1r0[1]", "the global channel: VC 1"},
		{"dragonfly:a=2,p=1,h=1", "booksim:min,vcs=2", "g1r0", "g0r0", 1, "g1r0t0", "g1r0->g1r0t0[1]", "ejection on VC ph"},
		{"dragonfly:a=2,p=1,h=1", "booksim:min,vcs=2", "g0r0", "g0r0t0", 1, "g2r1t0", "g0r0->g0r1[0]", "local to the gateway"},
		{"dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=3", "g0r0", "g0r0t0", 0, "g1r0t0", "g0r0->g1r0[2] g0r0->g1r0[0] g0r0->g0r1[0]", "minimal (VC 2 on the global channel) or toward group 1 or 2"},
		{"dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=3", "g2r0", "g0r1 src=g0r0t0", 0, "g1r0t0", "g2r0->g2r1[0-1]", "in the intermediate group: one local hop on (VC 0), or phase 1 here (VC 1)"},
		{"dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=3", "g2r1", "g2r0 src=g0r0t0", 0, "g1r0t0", "g2r1->g1r1[2]", "at the intermediate: phase 1, global on VC 2"},
		{"dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=3", "g0r1", "g0r0", 0, "g1r0t0", "g0r1->g2r0[0]", "at the source group's gateway: global"},
		// qtree (root r0.0; r1.p; leaves r2.p with n4p..n4p+3): up to the ancestor, then down
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "n0", "", 0, "n63", "n0->r2.0[0-1]", "injection"},
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "r2.0", "n0", 0, "n63", "r2.0->r1.0[0-1]", "63/4 = 15 is not leaf 0: up"},
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "r1.0", "r2.0", 0, "n63", "r1.0->r0.0[0-1]", "leaf 15 is not below r1.0: up"},
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "r0.0", "r1.0", 0, "n63", "r0.0->r1.3[0-1]", "63/16 = 3"},
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "r1.3", "r0.0", 0, "n63", "r1.3->r2.15[0-1]", ""},
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "r2.15", "r1.3", 0, "n63", "r2.15->n63[0-1]", "ejection"},
		{"qtree:k=4,n=3", "booksim:nca,vcs=2", "r1.0", "r2.0", 1, "n5", "r1.0->r2.1[0-1]", "leaf 1 is below r1.0: down"},
		// tree4 (roots r0.0-3, middle r1.0-7, leaves r2.0-15): a leaf goes up to one of its
		// two middle routers, a middle router to any root, a root down to either middle
		// router above the destination's quarter
		{"tree4:k=4,n=3", "booksim:nca,vcs=2", "r2.0", "n0", 0, "n63", "r2.0->r1.0[0-1] r2.0->r1.1[0-1]", "ports 4 + RandomInt(1)"},
		{"tree4:k=4,n=3", "booksim:nca,vcs=2", "r1.0", "r2.0", 0, "n63", "r1.0->r0.0[0-1] r1.0->r0.1[0-1] r1.0->r0.2[0-1] r1.0->r0.3[0-1]", "quarter 3 is not 0/2: any root"},
		{"tree4:k=4,n=3", "booksim:nca,vcs=2", "r0.2", "r1.1", 0, "n63", "r0.2->r1.6[0-1] r0.2->r1.7[0-1]", "2 * 3 + RandomInt(1)"},
		{"tree4:k=4,n=3", "booksim:nca,vcs=2", "r1.7", "r0.2", 0, "n63", "r1.7->r2.15[0-1]", "quarter 3 = 7/2: down to leaf 15"},
		{"tree4:k=4,n=3", "booksim:nca,vcs=2", "r2.15", "r1.7", 0, "n63", "r2.15->n63[0-1]", "ejection"},
		{"tree4:k=4,n=3", "booksim:anca,vcs=2", "r1.1", "r2.3", 0, "n5", "r1.1->r2.1[0-1]", "quarter 0 = 1/2: down to leaf 1"},
		{"tree4:k=4,n=3", "booksim:anca,vcs=2", "r1.0", "r2.0", 0, "n63", "r1.0->r0.0[0-1] r1.0->r0.1[0-1] r1.0->r0.2[0-1] r1.0->r0.3[0-1]", "up on the four ports, by credits"},
		// anynet min: one Dijkstra next hop per router (ring 0-1-2-3-0)
		{"file:" + ring, "booksim:min,vcs=1", "r0", "n0", 0, "n2", "r0->r1[0]", "ties go to the lower router"},
		{"file:" + ring, "booksim:min,vcs=1", "r1", "n1", 0, "n3", "r1->r0[0]", ""},
		{"file:" + ring, "booksim:min,vcs=1", "r2", "n2", 0, "n0", "r2->r1[0]", ""},
		{"file:" + ring, "booksim:min,vcs=1", "r3", "n3", 0, "n1", "r3->r0[0]", ""},
	} {
		g, err := topology.Parse(tc.topo)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := ByName(g, tc.rel)
		if err != nil {
			t.Errorf("%s on %s: %v", tc.rel, tc.topo, err)
			continue
		}
		seen[rel.(interface{ Function() string }).Function()] = true
		h := Header{At: testNode(t, g, tc.at), In: Input{Channel: Injection, VC: tc.vc}, Dst: testNode(t, g, tc.dst)}
		h.Src = h.At
		from, src, hasSrc := strings.Cut(tc.from, " src=")
		if from != "" {
			if h.In.Channel = g.ChannelBetween(testNode(t, g, from), h.At); h.In.Channel == topology.None {
				t.Fatalf("%s has no channel %s->%s", tc.topo, from, tc.at)
			}
			if g.Terminal(testNode(t, g, from)) {
				h.Src = testNode(t, g, from)
			}
		}
		if hasSrc {
			h.Src = testNode(t, g, src)
		}
		if got := formatOutputs(g, rel.Route(h, nil)); got != tc.want {
			t.Errorf("%s on %s at %s from %q VC %d to %s (%s):\n got %s\nwant %s", tc.rel, tc.topo, tc.at, tc.from, tc.vc, tc.dst, tc.why, got, tc.want)
		}
	}
	for _, f := range bookSimFunctions() {
		if f[1] == "" && !seen[f[0]] {
			t.Errorf("BookSim's %s has no row in this table", f[0])
		}
	}
}

// TestBookSimRefuses checks the one-line refusals: functions BookSim does not have for
// a topology, functions no relation expresses (naming the nearest), and VC counts
// whose classes a relation cannot tell apart.
func TestBookSimRefuses(t *testing.T) {
	for _, tc := range []struct{ topo, rel, want string }{
		{"torus:4x4", "booksim:romm", "BookSim has no routing function romm_torus (romm is registered for mesh)"},
		{"torus:4x4", "booksim:valiant", "valiant_torus is not a relation: it passes an uninitialised ring partition"},
		{"mesh:4x4", "booksim:romm_ni", "romm_ni_mesh is not a relation"},
		{"mesh:4x4", "booksim:nca", "BookSim has no routing function nca_mesh (nca is registered for fattree, qtree, tree4)"},
		{"mesh:4x4", "booksim:bogus", "BookSim has no routing function bogus_mesh; its functions for mesh are"},
		{"torus:4x4", "booksim:dim_order,vcs=3", "with an odd num_vcs they share a VC"},
		{"torus:4x4", "booksim:dim_order,vcs=1", "give an even num_vcs of at least 2"},
		{"torus:4x4", "booksim:min_adapt,vcs=3", "it needs num_vcs >= 4"},
		{"mesh:4x4", "booksim:dim_order_ni,vcs=8", "it needs num_vcs >= 16"},
		{"torus:2x4", "booksim:dim_order,vcs=2", "BookSim's torus needs k >= 3"},
		{"dragonfly:a=2,p=1,h=1", "booksim:ugal,vcs=2", "BookSim asserts num_vcs = 3"},
		{"dragonfly:a=4,p=2,h=2,arrangement=relative", "booksim:min,vcs=2", "needs BookSim's dragonflynew"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_xyyx,vcs=6", "multiple of 4"},
		{"flatfly:k=4,n=2,c=4", "booksim:ugal_pni,vcs=4", "it needs num_vcs >= 8"},
		{"mesh:4x4", "booksim:dim_order,vcs=0", "N in 1..64"},
		{"mesh:4x4/faults=0-1", "booksim:dim_order", "not a network BookSim builds"},
	} {
		g, err := topology.Parse(tc.topo)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ByName(g, tc.rel)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s on %s: error %v; want one line with %q", tc.rel, tc.topo, err, tc.want)
		}
	}
}

// TestBookSimFunctionsDocumented checks that docs/booksim.md names every function of
// BookSim's registry wormcheck knows, mapped or refused.
func TestBookSimFunctionsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/booksim.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bookSimFunctions() {
		if !strings.Contains(string(doc), "`"+f[0]+"`") {
			t.Errorf("docs/booksim.md does not mention BookSim's %s", f[0])
		}
	}
	if n := len(bookSimFunctions()); n != 39 {
		t.Errorf("%d functions; BookSim2 registers 39 (routefunc.cpp 25, cmesh.cpp 4, flatfly_onchip.cpp 7, dragonfly.cpp 2, anynet.cpp 1)", n)
	}
}
