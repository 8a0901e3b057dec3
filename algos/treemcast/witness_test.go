package treemcast

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestWitnessFiles draws and captures the Fig. 3 deadlock: the SVG is pinned by a golden
// file, the pcap is read back with pcapgo and must hold one record per flit move.
func TestWitnessFiles(t *testing.T) {
	g := grid(t, "mesh:3x2")
	msgs, _ := ParseMsgs(g, fig3)
	p := DefaultParams()
	p.Buffer, p.Prune = 1, flit.PruneNone
	in := Instance{Grid: g, Msgs: msgs, Params: p}
	res, m, err := Check(in, CheckOptions{Prop: PropDeadlock})
	if err != nil || res.Violation == nil {
		t.Fatalf("no deadlock: %v", err)
	}
	tr := res.Violation.Trace
	svg, err := SVG(in, m, tr, "TM1: "+in.String())
	if err != nil {
		t.Fatal(err)
	}
	pic := Picture(in, m, tr.Steps[len(tr.Steps)-1].State, "")
	if len(pic.Blocked) != 2 || pic.Blocked[0].Label != "a2" || pic.Blocked[1].Label != "b2" {
		t.Errorf("blocked headers %+v; want a2 and b2 (000 Fig. 3)", pic.Blocked)
	}
	golden := filepath.Join("testdata", "fig3-deadlock.svg")
	if *update {
		if err := os.WriteFile(golden, svg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil || !bytes.Equal(svg, want) {
		t.Errorf("SVG differs from %s (%v); run go test -update and review", golden, err)
	}
	pc, err := PCAP(in, m, tr)
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
	if first.Kind != flitwire.KindAddress || first.Flags&flitwire.FlagFirst == 0 || first.Word != uint32(g.Node(0, 1)) {
		t.Errorf("first record %+v; want d1 of A towards (0,1)", first)
	}
}

// TestPruneRecords checks that a prune shows up in the pcap as tail flits on the cut
// branches.
func TestPruneRecords(t *testing.T) {
	g := grid(t, "mesh:3x2")
	msgs, _ := ParseMsgs(g, fig3)
	p := DefaultParams()
	p.Buffer, p.Prune = 1, flit.PruneOnStop
	in := Instance{Grid: g, Msgs: msgs, Params: p}
	m, err := in.Model()
	if err != nil {
		t.Fatal(err)
	}
	// BFS to the first state where a prune is enabled, then replay the path and the prune.
	s := m.Init()[0]
	type edge struct {
		prev string
		a    checker.Action
	}
	root := string(m.Encode(s, nil))
	parent := map[string]edge{root: {}}
	queue := []flit.State{s}
	for len(queue) > 0 {
		s = queue[0]
		queue = queue[1:]
		key := string(m.Encode(s, nil))
		for _, tr := range m.Successors(s, nil) {
			if k, _, _ := flit.SplitAction(tr.Action); k == flit.KindPrune {
				as := []checker.Action{tr.Action}
				for k := key; k != root; k = parent[k].prev {
					as = append([]checker.Action{parent[k].a}, as...)
				}
				trace, err := checker.Replay[flit.State](m, 0, as)
				if err != nil {
					t.Fatal(err)
				}
				pt, err := PcapTrace(in, m, trace)
				if err != nil {
					t.Fatal(err)
				}
				last := pt.Records[len(pt.Records)-1]
				if last.Kind != flitwire.KindTail || last.Flags&flitwire.FlagLast == 0 || last.Step != len(as) {
					t.Fatalf("last record %+v; want a tail flit at step %d", last, len(as))
				}
				if !strings.Contains(trace.Steps[len(trace.Steps)-1].Label, "prunes") {
					t.Fatalf("prune label %q", trace.Steps[len(trace.Steps)-1].Label)
				}
				return
			}
			nk := string(m.Encode(tr.Next, nil))
			if _, ok := parent[nk]; !ok {
				parent[nk] = edge{key, tr.Action}
				queue = append(queue, tr.Next)
			}
		}
	}
	t.Fatal("no prune is reachable under prune-on-stop in the Fig. 3 instance")
}
