package flitwire_test

import (
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// fig3Model is the 000 Fig. 3 instance on a 3x2 mesh: two tree multicasts, one data flit,
// one-flit buffers, pruning whenever a branch is stopped.
func fig3Model(t *testing.T, prune flit.Prune) *flit.Model {
	t.Helper()
	g, err := topology.Parse("mesh:3x2")
	if err != nil {
		t.Fatal(err)
	}
	msgs := []flit.Message{
		flit.Multicast(g.Node(0, 0), 1, g.Node(0, 1), g.Node(2, 1)),
		flit.Multicast(g.Node(1, 0), 1, g.Node(2, 0), g.Node(0, 1)),
	}
	cfg := flit.NewGridConfig(g, false, 1, 1, model.OnePort, msgs)
	cfg.Prune = prune
	m, err := flit.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFromFlitPrune checks that a prune shows up in the capture as tail flits on the cut
// branches: breadth-first to the first state where a prune is enabled, then the run to it.
func TestFromFlitPrune(t *testing.T) {
	m := fig3Model(t, flit.PruneOnStop)
	type node struct {
		states  []flit.State
		actions []system.Action
	}
	seen := map[string]bool{}
	queue := []node{{states: m.Init()[:1]}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		s := n.states[len(n.states)-1]
		for _, tr := range m.Successors(s, nil) {
			states := append(append([]flit.State(nil), n.states...), tr.Next)
			actions := append(append([]system.Action(nil), n.actions...), tr.Action)
			if k, _, _ := flit.SplitAction(tr.Action); k == flit.KindPrune {
				pt, err := flitwire.FromFlit(m, states, actions)
				if err != nil {
					t.Fatal(err)
				}
				last := pt.Records[len(pt.Records)-1]
				if last.Kind != flitwire.KindTail || last.Flags&flitwire.FlagLast == 0 || last.Step != len(actions) {
					t.Fatalf("last record %+v; want a tail flit at step %d", last, len(actions))
				}
				return
			}
			key := string(m.Encode(tr.Next, nil))
			if !seen[key] {
				seen[key] = true
				queue = append(queue, node{states, actions})
			}
		}
	}
	t.Fatal("no prune is reachable under prune-on-stop in the Fig. 3 instance")
}

// TestFromFlitUnicastLast checks that the last flit of a unicast worm carries FlagLast
// (the tail), on its delivery as on every channel it crosses, and that its announcement
// counts its flits right.
func TestFromFlitUnicastLast(t *testing.T) {
	g, err := topology.Parse("mesh:2x2")
	if err != nil {
		t.Fatal(err)
	}
	cfg := flit.NewGridConfig(g, false, 1, 2, model.OnePort, []flit.Message{flit.Unicast(g.Node(0, 0), g.Node(1, 0), 3)})
	m, err := flit.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	states := m.Init()[:1]
	var actions []system.Action
	for !m.Terminal(states[len(states)-1]) {
		succ := m.Successors(states[len(states)-1], nil)
		if len(succ) == 0 {
			t.Fatal("a lone worm deadlocked")
		}
		states, actions = append(states, succ[0].Next), append(actions, succ[0].Action)
	}
	pt, err := flitwire.FromFlit(m, states, actions)
	if err != nil {
		t.Fatal(err)
	}
	tails := 0
	for _, r := range pt.Records {
		if r.Flags&flitwire.FlagLast != 0 {
			tails++
			if r.Word != 1 || r.Kind != flitwire.KindData {
				t.Errorf("tail record %+v; want data flit 1 (the third flit)", r)
			}
		}
	}
	if tails != 2 {
		t.Errorf("%d tail records; want 2 (crossing and delivery): %+v", tails, pt.Records)
	}
	// The announcement counts the worm's flits as its records do: an address flit and
	// two data flits.
	if len(pt.Messages) != 1 || pt.Messages[0].DataFlits != 2 || pt.Messages[0].Flits() != 3 {
		t.Errorf("announcement %+v; want 2 data flits, 3 flits in all", pt.Messages)
	}
	if _, err := flitwire.FromFlit(m, states, actions[1:]); err == nil {
		t.Error("FromFlit accepted a run with one action missing")
	}
}
