package banyan

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// reachableFrom returns every state reachable from the states from, each once, by a
// naive BFS over Successors and Encode (the twin of the explorer).
func reachableFrom(sys *System, from []State) []State {
	seen := map[string]bool{}
	var out []State
	queue := append([]State(nil), from...)
	for _, s := range queue {
		seen[string(sys.Encode(s, nil))] = true
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		out = append(out, s)
		for _, tr := range sys.Successors(s, nil) {
			k := string(sys.Encode(tr.Next, nil))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	return out
}

// movers returns the packets that some transition of s changes (a grant adds links, a
// packet received in full is done, a phase-2 copy becomes ready, a tail drains): in the
// lockstep timing a transition is a combination of grants, so the packets that move
// are read from the states, not from the action.
func movers(sys *System, s State) map[int]bool {
	out := map[int]bool{}
	for _, tr := range sys.Successors(s, nil) {
		for p := range s.Status {
			if tr.Next.Status[p] != s.Status[p] || tr.Next.Held[p] != s.Held[p] || (s.Drain != nil && tr.Next.Drain[p] != s.Drain[p]) {
				out[p] = true
			}
		}
	}
	return out
}

// localDeadlockSystems are small two-phase instances with local deadlocks, some beside a
// message that can still move, under both timings, both arbitration policies, both
// acquisition modes and a draining tail, and one without any deadlock.
func localDeadlockSystems(t testing.TB) map[string]*System {
	b4, b8, b16 := mustBanyan(t, 4), mustBanyan(t, 8), mustBanyan(t, 16)
	build := func(b *topology.Banyan, msgs string, opt Options) *System {
		ms, err := ParseMulticasts(msgs, b.Nodes())
		if err != nil {
			t.Fatal(err)
		}
		sys, err := NewSystem(b, ms, opt)
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	return map[string]*System{
		"fig4+1/lockstep/free":        build(b16, fig4Plus, Options{Starts: []int{5, 7, 0}}),
		"fig4+1/lockstep/free/split":  build(b16, fig4Plus, Options{Acquire: Split, Starts: []int{5, 7, 0}}),
		"fig4+1/lockstep/free/flits":  build(b16, fig4Plus, Options{Starts: []int{5, 7, 0}, Flits: 7}),
		"fig4+1/lockstep/upper-first": build(b16, fig4Plus, Options{Arbitration: UpperFirst, Starts: []int{5, 7, 0}}),
		"n8/async/upper-first":        build(b8, "0->1,2;3->2,3", Options{Arbitration: UpperFirst, Timing: Async, Starts: []int{1, 2}}),
		"n8/lockstep/free":            build(b8, "0->1,2;3->2,3", Options{}),
		"n8+1/async/free":             build(b8, "0->1,2;3->2,3;5->6", Options{Timing: Async, Starts: []int{1, 2, 0}}),
		"n4/async/free":               build(b4, "0->1,2;3->2,3", Options{Timing: Async}),
		"n4/async/free/split":         build(b4, "0->1,2;3->2,3", Options{Timing: Async, Acquire: Split}),
	}
}

// fig4Plus is the instance of 002 Fig. 4 with a third message, 2->3, that the deadlock
// of the first two does not stop.
const fig4Plus = "1->5,6,7,8;15->7-12;2->3"

// TestLocalDeadlockIsPermanent is the brute-force twin of LocalDeadlock: on every
// reachable state of the small instances it explores everything reachable from each
// state where LocalDeadlock reports a set S and checks that no member of S ever moves
// again; it checks that every global deadlock has S = every undelivered packet, and that
// a local deadlock is reachable exactly when a global one is (the reachable graph is
// acyclic: Progress).
func TestLocalDeadlockIsPermanent(t *testing.T) {
	found, early := 0, 0
	for name, sys := range localDeadlockSystems(t) {
		all := reachableFrom(sys, sys.Init())
		local, global := false, false
		stuckStates, globalStates := 0, 0
		for _, s := range all {
			stuck := sys.LocalDeadlock(s, nil)
			if len(sys.Successors(s, nil)) == 0 && !sys.Terminal(s) {
				global = true
				globalStates++
				var want []int
				for p, st := range s.Status {
					if st != done {
						want = append(want, p)
					}
				}
				if !slices.Equal(stuck, want) {
					t.Fatalf("%s: global deadlock with LocalDeadlock %v; want every undelivered packet %v\n%s", name, stuck, want, sys.Violation(s))
				}
			}
			if len(stuck) == 0 {
				continue
			}
			local = true
			stuckStates++
			for _, r := range reachableFrom(sys, []State{s}) {
				mv := movers(sys, r)
				for _, p := range stuck {
					if mv[p] {
						t.Fatalf("%s: LocalDeadlock %v, but %s moves again", name, stuck, sys.PacketName(r, p))
					}
				}
			}
		}
		if local != global {
			t.Errorf("%s: local deadlock reachable %v, global %v; on an acyclic graph they agree", name, local, global)
		}
		t.Logf("%s: %d states, %d with a local deadlock, %d of them global", name, len(all), stuckStates, globalStates)
		found += stuckStates
		early += stuckStates - globalStates
	}
	if found == 0 || early == 0 {
		t.Fatalf("%d states with a local deadlock, %d where something still moves: the twin checked too little", found, early)
	}
}

// TestLocalDeadlockFoundEarly: on Fig. 4 with a third message 2->3 beside it, the
// explorer with CheckLocalDeadlock reports the two deadlocked multicasts (their phase-1
// packets and phase-2 copies) in the cycle where the deadlock closes, while the global
// check must first let 2->3 be delivered; the local witness is shorter, the wait-for
// cycle runs between the two phase-1 packets, and the saved trace replays as a local
// deadlock but not as a global one.
//
// Reference: 002 Fig. 4.
func TestLocalDeadlockFoundEarly(t *testing.T) {
	sys := localDeadlockSystems(t)["fig4+1/lockstep/free"]
	loc, err := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	glob, err := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if loc.Verdict != checker.Violated || loc.Violation.Kind != checker.KindLocalDeadlock {
		t.Fatalf("local: %v %+v", loc.Verdict, loc.Violation)
	}
	m3 := sys.offset[2]
	var want []int
	for p := 0; p < m3; p++ {
		want = append(want, p)
	}
	if !slices.Equal(loc.Violation.Stuck, want) {
		t.Errorf("local deadlock of %v; want the packets of the first two messages %v", loc.Violation.Stuck, want)
	}
	if glob.Verdict != checker.Violated || glob.Violation.Kind != checker.KindDeadlock {
		t.Fatalf("global: %v %+v", glob.Verdict, glob.Violation)
	}
	if lt, gt := loc.Violation.Trace.Len(), glob.Violation.Trace.Len(); lt != 5 || gt <= lt || loc.Stats.States >= glob.Stats.States {
		t.Errorf("local witness %d cycles (%d states), global %d (%d states); want 5 and a longer global one", lt, loc.Stats.States, gt, glob.Stats.States)
	}
	last := loc.Violation.Trace.Steps[loc.Violation.Trace.Len()].State
	g := sys.WaitFor(last)
	cyc := g.Cycle(loc.Violation.Stuck)
	if len(cyc) != 2 || cyc[0].Waiter != 0 || cyc[0].Holder != sys.offset[1] || cyc[1].Holder != 0 {
		t.Fatalf("wait-for cycle %+v; want phase 1 of m1 and of m2 waiting on each other", cyc)
	}
	for _, e := range cyc {
		if w := g.Waits[e.Wait]; w.Kind != system.WaitLink || w.Needs[e.Need].Holder != e.Holder {
			t.Errorf("cycle edge %+v: wait %+v", e, w)
		}
	}
	tf, err := DeadlockTrace(sys, "two-phase", checker.PropDeadlock, loc.Violation.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why, err := ReplayDeadlock(tf); err != nil || !ok {
		t.Fatalf("the local witness does not replay as a local deadlock: %v %s", err, why)
	}
	tf.Property = checker.PropGlobalDeadlock
	if ok, why, err := ReplayDeadlock(tf); err != nil || ok {
		t.Fatalf("the local witness replays as a global deadlock: %v %s", err, why)
	}
}

// TestAtomicWaitNeedsOneHeldLink: an atomic request of two links is closed for ever as
// soon as one of them is held by a member of the set, even when the other is free or
// held by a packet that moves (system.Wait.All); a wait of one link of each, without
// All, would need both held.
func TestAtomicWaitNeedsOneHeldLink(t *testing.T) {
	g := system.WaitGraph{
		Undelivered: []bool{true, true, true},
		Blocked:     []bool{true, true, false},
		Waits: []system.Wait{
			{Waiter: 0, Kind: system.WaitLink, All: true, Needs: []system.Resource{{ID: 1, Holder: 1}, {ID: 2, Holder: 2}}},
			{Waiter: 1, Kind: system.WaitLink, Needs: []system.Resource{{ID: 3, Holder: 0}}},
		},
	}
	if got := g.LocalDeadlock(); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("atomic: LocalDeadlock %v; want [0 1]", got)
	}
	g.Waits[0].All = false
	if got := g.LocalDeadlock(); got != nil {
		t.Fatalf("any-of: LocalDeadlock %v; want none (packet 2 moves and frees link 2)", got)
	}
}
