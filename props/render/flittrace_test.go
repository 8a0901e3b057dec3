package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// fig3Msgs is a 000 Fig. 3 deadlock the tree-multicast family search finds on a 3x2 mesh.
const fig3Msgs = "(0,0)->(0,1),(2,1);(1,0)->(2,0),(0,1)"

// tm1 checks the Fig. 3 instance without pruning and returns its deadlock trace.
// Reference: 000 Fig. 3 (catalogue claim TM1).
func tm1(t testing.TB) (treemcast.Instance, *flit.Model, checker.Trace[flit.State], *tracefile.File) {
	t.Helper()
	g, err := topology.Parse("mesh:3x2")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := treemcast.ParseMsgs(g, fig3Msgs)
	if err != nil {
		t.Fatal(err)
	}
	p := treemcast.DefaultParams()
	p.Buffer, p.Prune = 1, flit.PruneNone
	in := treemcast.Instance{Grid: g, Msgs: msgs, Params: p}
	res, m, err := treemcast.Check(in, treemcast.CheckOptions{Prop: checker.PropDeadlock})
	if err != nil || res.Violation == nil {
		t.Fatalf("no deadlock: %v", err)
	}
	return in, m, res.Violation.Trace, treemcast.TraceFile(in, m, checker.PropDeadlock, res.Violation)
}

// TestTM1Deadlock draws the Fig. 3 deadlock: both blocked headers, the wait-for cycle
// m0 -> m1 -> m0 numbered on the picture with the same names model/flit's Waits text
// uses and drawn as edges from holder to waiter; the picture is pinned by a golden file.
func TestTM1Deadlock(t *testing.T) {
	_, m, tr, tf := tm1(t)
	last := tr.Steps[len(tr.Steps)-1].State
	pic, err := render.FlitState(m, last)
	if err != nil {
		t.Fatal(err)
	}
	if len(pic.Blocked) != 2 || pic.Blocked[0].Label != "m0.d2" || pic.Blocked[1].Label != "m1.d2" {
		t.Errorf("blocked headers %+v; want m0.d2 and m1.d2 (000 Fig. 3's a2 and b2)", pic.Blocked)
	}
	if len(pic.Cycle) != 2 || pic.Cycle[0].Holder != 1 || pic.Cycle[1].Holder != 0 {
		t.Errorf("wait-for cycle %+v; want m0 waits for m1, m1 for m0", pic.Cycle)
	}
	waits := m.Waits(last)
	if !strings.HasPrefix(waits, "wait-for cycle m0 -> m1 -> m0") {
		t.Errorf("model's text %q does not name the cycle the picture draws", waits)
	}
	cyc := props.FlitCycle(m, last)
	if len(cyc) != 2 || cyc[0].Message != 0 || cyc[0].Holder != 1 {
		t.Errorf("witness cycle %+v", cyc)
	}
	svg, err := render.Picture(props.TraceEvidence(tf, m, tr, "deadlock: "+waits))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wait-for cycle:", "m0.d2 at (1,0) waits for", "held by m1", "white"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("picture lacks %q", want)
		}
	}
	// Who holds what: one wait-for edge per link of the cycle, from the holder's blocked
	// header to the header it blocks, so the cycle is drawn, not only listed.
	if n := bytes.Count(svg, []byte(`class="wait-edge"`)); n != 2 {
		t.Errorf("%d wait-for edges drawn; want 2", n)
	}
	for _, want := range []string{"m1 blocks m0.d2", "m0 blocks m1.d2"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("picture lacks the wait-for edge %q", want)
		}
	}
	golden(t, "tm1-fig3-deadlock.svg", svg)
}

// TestTM1Pcap captures the Fig. 3 deadlock: read back with pcapgo, it must hold one
// record per flit move, stamped with its step.
func TestTM1Pcap(t *testing.T) {
	in, m, tr, _ := tm1(t)
	pc, err := render.Capture(&props.FlitEvidence{Model: m, Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	back, err := flitwire.ReadTrace(bytes.NewReader(pc))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Messages) != 2 || len(back.Records) != tr.Len() {
		t.Fatalf("pcap has %d messages and %d records; want 2 and %d", len(back.Messages), len(back.Records), tr.Len())
	}
	for i, r := range back.Records {
		if r.Step != i+1 {
			t.Fatalf("record %d is stamped step %d", i, r.Step)
		}
	}
	first := back.Records[0]
	if first.Kind != flitwire.KindAddress || first.Flags&flitwire.FlagFirst == 0 || first.Word != uint32(in.Grid.Node(0, 1)) {
		t.Errorf("first record %+v; want d1 of m0 towards (0,1)", first)
	}
}
