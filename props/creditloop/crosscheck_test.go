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

// lanes are a perturbation's path SLs and SL-to-VL tables as the test keeps them, in
// maps of its own: the naive search reads the maps, the analysis the fabric, which gets
// the same values through its API (randomLanes). nil lanes: every path on SL 0, VL = SL.
type lanes struct {
	sl map[slKey]uint8 // the SL of a (source port, destination LID); absent: 0
	vl map[vlKey]uint8 // a node's VL for (in, out, SL); absent: VL = SL
}

type slKey struct {
	src  fabric.PortRef
	dlid uint16
}

type vlKey struct {
	node    int32
	in, out int
	sl      uint8
}

func (l *lanes) slOf(src fabric.PortRef, dlid uint16) uint8 {
	if l == nil {
		return 0
	}
	return l.sl[slKey{src, dlid}]
}

func (l *lanes) vlOf(node int32, in, out int, sl uint8) uint8 {
	if l == nil {
		return sl
	}
	if v, ok := l.vl[vlKey{node, in, out, sl}]; ok {
		return v
	}
	return sl
}

// randomLanes gives the paths from every port with a LID random SLs 0 or 1 (half of
// them left at the default 0) and every node a random SL-to-VL table onto VLs 0 and 1
// (a quarter of the entries left out: VL = SL), in f and in the returned maps.
func randomLanes(f *fabric.Fabric, rnd *rand.Rand) *lanes {
	l := &lanes{sl: map[slKey]uint8{}, vl: map[vlKey]uint8{}}
	f.PathSL = &fabric.PathSLs{}
	f.SL2VL = make([]*fabric.SL2VL, len(f.Nodes))
	var srcs []fabric.PortRef
	var lids []uint16
	for i, n := range f.Nodes {
		ports := n.NumPorts()
		t := fabric.NewSL2VL(ports)
		f.SL2VL[i] = t
		ins := 0
		if n.Kind == fabric.Switch {
			ins = ports
		}
		for in := 0; in <= ins; in++ {
			for out := 1; out <= ports; out++ {
				for sl := range uint8(2) {
					if rnd.IntN(4) != 0 {
						v := uint8(rnd.IntN(2))
						t.Set(in, out, sl, v)
						l.vl[vlKey{int32(i), in, out, sl}] = v
					}
				}
			}
		}
		for p, port := range n.Ports {
			if port.LID != 0 {
				srcs = append(srcs, fabric.PortRef{Node: int32(i), Port: uint8(p)})
				lids = append(lids, port.LID)
			}
		}
	}
	for _, src := range srcs {
		for _, dlid := range lids {
			if rnd.IntN(2) == 0 {
				sl := uint8(rnd.IntN(2))
				f.PathSL.Set(src, dlid, sl)
				l.sl[slKey{src, dlid}] = sl
			}
		}
	}
	return l
}

// naiveLoops is the cross-check's independent twin: it follows the tables hop by hop
// from every source port to every destination LID, on the path's SL and each hop's VL
// as the lanes give them, collects the (port, VL) dependencies in a set, and finds the
// credit loops by plain depth-first search: the channels that reach themselves, grouped
// by mutual reach. Each loop is its sorted channel names.
func naiveLoops(t *testing.T, f *fabric.Fabric, all bool, ln *lanes) []string {
	type ch struct {
		node int32
		port uint8
		vl   uint8
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
			sl := ln.slOf(src, dlid)
			var cur ch
			if src.Port == 0 {
				p := lft(src.Node, dlid)
				if !usable(src.Node, p) {
					continue
				}
				cur = ch{src.Node, uint8(p), ln.vlOf(src.Node, 0, p, sl)}
			} else {
				cur = ch{src.Node, src.Port, ln.vlOf(src.Node, 0, int(src.Port), sl)}
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
				next := ch{far.Node, uint8(p), ln.vlOf(far.Node, int(far.Port), p, sl)}
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
	name := func(c ch) string { return f.HopName(fabric.Hop{Node: c.node, Port: c.port, VL: c.vl}) }
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
// deadlock replays in the model. Every other perturbation also gives the paths random
// SLs and the nodes random SL-to-VL tables onto two VLs, so that loops are of (port,
// VL) channels, some closing across VLs.
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
	var loops, violated, replayed, holds, open, lost, laned, acrossVLs int
	for i := range n {
		f := base.Clone()
		perturb(f, rnd, 1+rnd.IntN(40))
		all := i%3 != 0
		var ln *lanes
		if i%2 == 1 {
			ln = randomLanes(f, rnd)
		}
		a, err := Analyze(context.Background(), f, Options{All: all, MaxStates: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		want := naiveLoops(t, f, all, ln)
		if got := ourLoops(a); !slices.Equal(got, want) {
			t.Fatalf("perturbation %d (all %v, lanes %v): %d loops, the naive search finds %d\nours:  %q\nnaive: %q", i, all, ln != nil, len(got), len(want), got, want)
		}
		lost += int(a.Pairs.Pairs - a.Pairs.Delivered)
		for li, l := range a.Loops {
			loops++
			if ln != nil {
				laned++
				vls := map[uint8]bool{}
				for _, id := range l.Channels {
					vls[a.Channels.Hop(id).VL] = true
				}
				if len(vls) > 1 {
					acrossVLs++
				}
			}
			switch l.Decision.Verdict {
			case props.Holds:
				holds++
				continue
			case props.Inconclusive:
				open++
				t.Logf("perturbation %d (all %v, lanes %v) loop %d of %d channels undecided: %s", i, all, ln != nil, li, len(l.Channels), l.Decision.Reason)
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
	if loops == 0 || violated == 0 || acrossVLs == 0 {
		t.Fatalf("%d perturbations gave %d loops, %d violated, %d across VLs: the cross-check checked too little", n, loops, violated, acrossVLs)
	}
	t.Logf("%d perturbations: %d credit loops equal to the naive search's (%d with random SLs and SL2VL tables, %d of them across two VLs); %d reachable deadlocks, all %d replayed; %d unreachable, %d undecided; %d lost routes",
		n, loops, laned, acrossVLs, violated, replayed, holds, open, lost)
}
