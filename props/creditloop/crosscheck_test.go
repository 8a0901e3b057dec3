package creditloop

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
)

// naiveLoops is the cross-check's independent twin: it follows the tables hop by hop
// from every source port to every destination LID (VL 0: the fabric has no SL tables),
// collects the (port, VL) dependencies in a set, and finds the credit loops by plain
// depth-first search: the channels that reach themselves, grouped by mutual reach. Each
// loop is its sorted channel names.
func naiveLoops(t *testing.T, f *fabric.Fabric, all bool) []string {
	type ch struct {
		node int32
		port uint8
	}
	var srcs []fabric.PortRef
	owner := map[uint16]fabric.PortRef{}
	for i, n := range f.Nodes {
		for p, port := range n.Ports {
			isSwitchPort0 := n.Kind == fabric.Switch && p == 0
			isEnd := n.Kind != fabric.Switch && p > 0 && port.Remote.Valid()
			if port.LID == 0 || !(isEnd || (all && isSwitchPort0)) {
				continue
			}
			r := fabric.PortRef{Node: int32(i), Port: uint8(p)}
			srcs = append(srcs, r)
			owner[port.LID] = r
		}
	}
	out := map[ch]map[ch]bool{}
	arc := func(a, b ch) {
		if out[a] == nil {
			out[a] = map[ch]bool{}
		}
		out[a][b] = true
	}
	lft := func(n int32, lid uint16) int {
		if int(lid) < len(f.LFT[n]) {
			return int(f.LFT[n][lid])
		}
		return fabric.NoPort
	}
	usable := func(n int32, p int) bool {
		return p >= 1 && p < len(f.Nodes[n].Ports) && f.Nodes[n].Ports[p].Remote.Valid() && !f.Nodes[n].Ports[p].Down
	}
	for dlid, dst := range owner {
		for _, src := range srcs {
			if src == dst {
				continue
			}
			var cur ch
			if src.Port == 0 {
				p := lft(src.Node, dlid)
				if !usable(src.Node, p) {
					continue
				}
				cur = ch{src.Node, uint8(p)}
			} else {
				cur = ch{src.Node, src.Port}
			}
			for hops := 0; hops < 64; hops++ {
				far := f.Nodes[cur.node].Ports[cur.port].Remote
				if f.Nodes[far.Node].Kind != fabric.Switch {
					break
				}
				p := lft(far.Node, dlid)
				if !usable(far.Node, p) {
					break
				}
				next := ch{far.Node, uint8(p)}
				arc(cur, next)
				cur = next
			}
		}
	}
	// reach[v]: every channel reachable from v by one or more arcs (plain DFS).
	reach := map[ch]map[ch]bool{}
	for v := range out {
		seen := map[ch]bool{}
		var dfs func(u ch)
		dfs = func(u ch) {
			for w := range out[u] {
				if !seen[w] {
					seen[w] = true
					dfs(w)
				}
			}
		}
		dfs(v)
		reach[v] = seen
	}
	name := func(c ch) string { return f.HopName(fabric.Hop{Node: c.node, Port: c.port}) }
	done := map[ch]bool{}
	var loops []string
	for v := range out {
		if done[v] || !reach[v][v] {
			continue
		}
		var members []string
		for u := range reach[v] {
			if reach[u][v] {
				done[u] = true
				members = append(members, name(u))
			}
		}
		slices.Sort(members)
		loops = append(loops, strings.Join(members, "\n"))
	}
	slices.Sort(loops)
	return loops
}

func ourLoops(a *Analysis) []string {
	var loops []string
	for _, l := range a.Loops {
		var members []string
		for _, id := range l.Channels {
			members = append(members, a.ChannelName(id))
		}
		slices.Sort(members)
		loops = append(loops, strings.Join(members, "\n"))
	}
	slices.Sort(loops)
	return loops
}

// perturb changes k random entries of the switches' tables to a random port (any port
// of the switch, linked or not, or port 0), so that routes cross, drop and loop.
func perturb(f *fabric.Fabric, rnd *rand.Rand, k int) {
	sws := f.Switches()
	for range k {
		s := sws[rnd.IntN(len(sws))]
		lid := uint16(1 + rnd.IntN(f.MaxLIDInUse()))
		f.SetLFT(int(s), lid, uint8(rnd.IntN(f.Nodes[s].NumPorts()+1)))
	}
}

// Cross-check: on random perturbations of the real 62-switch cluster's tables, the
// credit loops found equal those of the naive depth-first search, and every reported
// deadlock replays in the model.
func TestCrossCheckPerturbed62(t *testing.T) {
	base, _, err := fabric.Load(fabric.Files{Topology: shared(t, "subnet.lst"), LFTs: shared(t, "osm.fdbs")})
	if err != nil {
		t.Fatal(err)
	}
	n := 60
	if os.Getenv("WORMCHECK_LONG") != "" {
		n = 600
	}
	rnd := rand.New(rand.NewPCG(34, 62))
	var loops, violated, replayed, holds, open, lost int
	for i := range n {
		f := base.Clone()
		perturb(f, rnd, 1+rnd.IntN(40))
		all := i%3 != 0
		a, err := Analyze(context.Background(), f, Options{All: all, MaxStates: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		want := naiveLoops(t, f, all)
		if got := ourLoops(a); !slices.Equal(got, want) {
			t.Fatalf("perturbation %d (all %v): %d loops, the naive search finds %d\nours:  %q\nnaive: %q", i, all, len(got), len(want), got, want)
		}
		lost += int(a.Pairs.Pairs - a.Pairs.Delivered)
		for li, l := range a.Loops {
			loops++
			switch l.Decision.Verdict {
			case props.Holds:
				holds++
				continue
			case props.Inconclusive:
				open++
				continue
			}
			violated++
			d := l.Decision
			m, _, err := d.Instance.Build()
			if err != nil {
				t.Fatalf("perturbation %d loop %d: %v", i, li, err)
			}
			tr, err := checker.Replay[vct.State](m, 0, d.Actions)
			if err != nil {
				t.Fatalf("perturbation %d loop %d: the deadlock does not replay: %v", i, li, err)
			}
			if stuck := m.LocalDeadlock(tr.Steps[len(tr.Steps)-1].State, nil); len(stuck) == 0 {
				t.Fatalf("perturbation %d loop %d: the replayed trace ends in no deadlock", i, li)
			}
			replayed++
		}
	}
	if loops == 0 || violated == 0 {
		t.Fatalf("%d perturbations gave %d loops, %d violated: the cross-check checked nothing", n, loops, violated)
	}
	t.Logf("%d perturbations: %d credit loops equal to the naive search's; %d reachable deadlocks, all %d replayed; %d unreachable, %d undecided; %d lost routes", n, loops, violated, replayed, holds, open, lost)
}
