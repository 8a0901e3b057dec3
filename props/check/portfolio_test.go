package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// strategyOf returns the report's entry for strategy name, or fails.
func strategyOf(t *testing.T, rep *props.Report, name string) props.Strategy {
	t.Helper()
	for _, s := range rep.Strategies {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no %s strategy in %+v", name, rep.Strategies)
	return props.Strategy{}
}

// TestPortfolioStaticDecides: west-first's eight crossing worms on mesh:8x8 with
// 16-flit worms and 8-flit buffers (an exhaustive search of hours) hold at once by the
// static decision; no flit search starts, and the report says why the verdict covers
// every packet length, buffer depth and placement.
func TestPortfolioStaticDecides(t *testing.T) {
	rep, err := check.Run(t.Context(), check.Instance{Algorithm: "unicast", Topology: "mesh:8x8", Params: map[string]string{
		"routing": "west-first", "length": "16", "buffers": "8",
		"msgs": "(0,0)->(7,7),(7,0)->(0,7),(0,7)->(7,0),(7,7)->(0,0),(3,3)->(4,4),(4,3)->(3,4),(4,4)->(3,3),(3,4)->(4,3)"}},
		checker.PropDeadlock, check.Options{Static: true, Portfolio: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Holds || rep.Stats.Search != "static" || rep.Static == nil || rep.Static.By != "cdg" || len(rep.Strategies) != 1 || !rep.Strategies[0].Decided {
		t.Fatalf("verdict %s by %q, static %+v, strategies %+v", rep.Verdict, rep.Stats.Search, rep.Static, rep.Strategies)
	}
	if rep.Certificate == nil || rep.Certificate.Kind != props.CertStatic {
		t.Errorf("certificate %+v; west-first is minimal, so delivery follows", rep.Certificate)
	}
}

// TestPortfolioExhaustiveProvesHolds: fully adaptive routing can deadlock with four
// worms (the static decision finds the square), but four worms that run along rows
// cannot: the exhaustive search of these worms decides holds, with the count a search
// alone reports, and the report keeps the static verdict beside it.
func TestPortfolioExhaustiveProvesHolds(t *testing.T) {
	rep, err := check.Run(t.Context(), check.Instance{Algorithm: "unicast", Topology: "mesh:3x3", Params: map[string]string{
		"routing": "adaptive", "msgs": "0->2,2->0,3->5,5->3"}}, checker.PropDeadlock, check.Options{Static: true, Portfolio: true})
	if err != nil {
		t.Fatal(err)
	}
	bfs := strategyOf(t, rep, "bfs")
	if rep.Verdict != props.Holds || rep.Stats.Search != "" || !bfs.Decided || bfs.States != rep.Stats.States || rep.Static == nil || rep.Static.Verdict != props.Violated {
		t.Fatalf("verdict %s by %q (bfs %+v), static %+v", rep.Verdict, rep.Stats.Search, bfs, rep.Static)
	}
	alone, err := check.Run(t.Context(), check.Instance{Algorithm: "unicast", Topology: "mesh:3x3", Params: map[string]string{
		"routing": "adaptive", "msgs": "0->2,2->0,3->5,5->3"}}, checker.PropDeadlock, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if alone.Stats.States != rep.Stats.States || alone.Verdict != rep.Verdict {
		t.Errorf("the portfolio's exhaustive search counted %d states, the search alone %d", rep.Stats.States, alone.Stats.States)
	}
}

// TestPortfolioSwarmDecides: the adaptive square beside four free worms on mesh:8x8,
// with a state budget the exhaustive search cannot decide within (on the lean model it
// needs about 6,000 states to reach the square's deadlock at depth 4), is found by the swarm walkers that
// run beside it and go on after it within the time limit; the witness is minimised to
// the square's four worms, whose shortest trace has four steps.
func TestPortfolioSwarmDecides(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	rep, err := check.Run(ctx, check.Instance{Algorithm: "unicast", Topology: "mesh:8x8", Params: map[string]string{"routing": "adaptive",
		"msgs": "(3,3)->(4,4),(4,3)->(3,4),(4,4)->(3,3),(3,4)->(4,3),(0,0)->(7,7),(7,0)->(0,7),(0,7)->(7,0),(7,7)->(0,0)"}},
		checker.PropDeadlock, check.Options{Static: true, Portfolio: true, MaxStates: 1000})
	if err != nil {
		t.Fatal(err)
	}
	sw, bfs := strategyOf(t, rep, "swarm"), strategyOf(t, rep, "bfs")
	if rep.Verdict != props.Violated || rep.Stats.Search != "swarm" || !sw.Decided || bfs.Verdict != props.Inconclusive {
		t.Fatalf("verdict %s by %q; swarm %+v, bfs %+v: %s", rep.Verdict, rep.Stats.Search, sw, bfs, rep.Reason)
	}
	if rep.Witness == nil || len(rep.Witness.Steps) != 4 || rep.Trace == nil {
		t.Fatalf("witness %+v; want the square's shortest trace of 4 steps", rep.Witness)
	}
	again, err := check.Replay(t.Context(), rep.Trace)
	if err != nil || again.Verdict != props.Violated {
		t.Fatalf("the swarm's witness does not replay: %v %+v", err, again)
	}
}

// TestDeepBuffersAreTheWormsLength: buffers deeper than the worms never fill (a VC holds
// one worm's flits at a time), so a check with --buffers 256 and 3-flit worms, which a
// BookSim dragonfly gives, is the check with 3-flit buffers: the same states,
// transitions and verdict, and so is one with buffers of 4.
func TestDeepBuffersAreTheWormsLength(t *testing.T) {
	run := func(buffers string) *props.Report {
		t.Helper()
		rep, err := check.Run(t.Context(), check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{
			"msgs": "0->2,1->3,2->0,3->1", "dateline": "off", "length": "3", "buffers": buffers}}, checker.PropDeadlock, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	deep, four, three := run("256"), run("4"), run("3")
	for _, r := range []*props.Report{deep, four} {
		if r.Verdict != three.Verdict || r.Stats.States != three.Stats.States || r.Stats.Transitions != three.Stats.Transitions {
			t.Errorf("buffers %v: %s, %d states, %d transitions; buffers 3: %s, %d, %d", r.Instance.Params["buffers"], r.Verdict, r.Stats.States, r.Stats.Transitions, three.Verdict, three.Stats.States, three.Stats.Transitions)
		}
	}
}

// TestPortfolioTreeMulticast: a tree multicast without pruning (000 Fig. 3) deadlocks;
// the portfolio's exhaustive search finds it at once with its shortest trace, and with a
// state budget it cannot decide within, the walkers beside it find the deadlock.
func TestPortfolioTreeMulticast(t *testing.T) {
	in := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
		"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}
	rep, err := check.Run(t.Context(), in, checker.PropDeadlock, check.Options{Portfolio: true})
	if err != nil {
		t.Fatal(err)
	}
	if bfs := strategyOf(t, rep, "bfs"); rep.Verdict != props.Violated || !bfs.Decided || rep.Witness == nil {
		t.Fatalf("verdict %s, bfs %+v", rep.Verdict, bfs)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rep, err = check.Run(ctx, in, checker.PropDeadlock, check.Options{Portfolio: true, MaxStates: 5})
	if err != nil {
		t.Fatal(err)
	}
	if sw := strategyOf(t, rep, "swarm"); rep.Verdict != props.Violated || !sw.Decided || rep.Trace == nil {
		t.Fatalf("verdict %s, swarm %+v: %s", rep.Verdict, sw, rep.Reason)
	}
}

// TestStaticDecidesLiveness: a relation the static decision proves deadlock-free whose
// routes are minimal delivers every message (every hop brings a header closer, so every
// run ends, and ends without a deadlock): the liveness check of three crossing worms
// under west-first on mesh:3x3 answers holds by the static decision, and the exhaustive
// liveness check of the same instance agrees. Under nonminimal routing, whose worms may
// circle without any deadlock, the static decision is not asked and the liveness check
// finds the livelock.
func TestStaticDecidesLiveness(t *testing.T) {
	in := check.Instance{Algorithm: "unicast", Topology: "mesh:3x3", Params: map[string]string{"routing": "west-first",
		"msgs": "(0,0)->(2,2),(2,2)->(0,0),(2,0)->(0,2)"}}
	rep, err := check.Run(t.Context(), in, checker.PropLiveness, check.Options{Static: true, Portfolio: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Holds || rep.Stats.Search != "static" || rep.Certificate == nil || rep.Certificate.Kind != props.CertStatic {
		t.Fatalf("liveness %s by %q, certificate %+v; want holds by the static decision", rep.Verdict, rep.Stats.Search, rep.Certificate)
	}
	flit, err := check.Run(t.Context(), in, checker.PropLiveness, check.Options{MaxStates: 1_000_000})
	if err != nil || flit.Verdict != props.Holds || flit.Stats.States == 0 {
		t.Fatalf("the exhaustive liveness check: %v %+v", err, flit)
	}
	loop := check.Instance{Algorithm: "unicast", Topology: "mesh:3x2", Params: map[string]string{"routing": "nonminimal", "msgs": "0->5,5->0"}}
	rep, err = check.Run(t.Context(), loop, checker.PropLiveness, check.Options{Static: true, Portfolio: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Stats.Search == "static" || rep.Witness == nil || rep.Witness.Kind != props.WitnessLasso {
		t.Fatalf("nonminimal liveness %s by %q, witness %+v; want the livelock's lasso", rep.Verdict, rep.Stats.Search, rep.Witness)
	}
}

// TestSwarmRefutesLiveness: --search swarm with --prop liveness is honoured, not
// dropped: the walkers find the livelock of two worms under nonminimal routing on
// mesh:3x2 (a weakly fair lasso that delivers nothing) and the report is a liveness
// violation by the swarm whose trace replays.
func TestSwarmRefutesLiveness(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rep, err := check.Run(ctx, check.Instance{Algorithm: "unicast", Topology: "mesh:3x2", Params: map[string]string{"routing": "nonminimal", "msgs": "0->5,5->0"}},
		checker.PropLiveness, check.Options{Swarm: true, Workers: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Property != checker.PropLiveness || rep.Stats.Search != "swarm" || rep.Trace == nil {
		t.Fatalf("%s %s by %q: %s", rep.Property, rep.Verdict, rep.Stats.Search, rep.Reason)
	}
	again, err := check.Replay(t.Context(), rep.Trace)
	if err != nil || again.Verdict != props.Violated {
		t.Fatalf("the swarm's lasso does not replay: %v %+v", err, again)
	}
}

// TestInconclusiveNamesTheNextStep: a portfolio check that decides nothing (the square
// beside free worms under adaptive routing, a relation that can deadlock somewhere, with
// a state bound the exhaustive search cannot finish within and no walkers) ends with one
// line naming what to try next.
func TestInconclusiveNamesTheNextStep(t *testing.T) {
	rep, err := check.Run(t.Context(), check.Instance{Algorithm: "unicast", Topology: "mesh:8x8", Params: map[string]string{"routing": "adaptive",
		"length": "4", "buffers": "2", "msgs": "(3,3)->(4,4),(4,3)->(3,4),(4,4)->(3,3),(3,4)->(4,3),(0,0)->(7,7),(7,0)->(0,7)"}},
		checker.PropDeadlock, check.Options{Static: true, MaxStates: 500})
	if err != nil {
		t.Fatal(err)
	}
	var next []string
	for _, n := range rep.Notes {
		if strings.HasPrefix(n, "next: ") {
			next = append(next, n)
		}
	}
	if rep.Verdict != props.Inconclusive || len(next) != 1 || !strings.Contains(next[0], "--search swarm") || strings.Contains(next[0], "\n") {
		t.Fatalf("verdict %s, notes %q; want inconclusive with one line naming --search swarm", rep.Verdict, rep.Notes)
	}
}

// TestSwarmRefusesAFamily: --search swarm hunts in one instance; with a family it is
// refused in one line, not dropped for the family's exhaustive searches.
func TestSwarmRefusesAFamily(t *testing.T) {
	_, err := check.Run(t.Context(), check.Instance{Algorithm: "unicast", Topology: "mesh:2x3", Params: map[string]string{"routing": "dor", "family": "all-placements:2"}},
		checker.PropDeadlock, check.Options{Swarm: true})
	if err == nil || !strings.Contains(err.Error(), "--search swarm") || !strings.Contains(err.Error(), "--family") {
		t.Fatalf("err %v; want a refusal naming --search swarm and --family", err)
	}
}
