package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// staticCase is one relation under one VC count on one network, as the static-first
// check sees it.
type staticCase struct {
	topo, routing string
	vcs           int
}

// staticRelations lists the relations TestStaticHoldsMeetsNoFlitDeadlock decides on g:
// every built-in defined there (with nonminimal:1 for the budgeted form) and every
// routing file of model/routing/testdata written for g, each by the spec the command
// line takes.
func staticRelations(t *testing.T, g *topology.Network) []string {
	var out []string
	for _, name := range append(routing.Names(), "nonminimal:1") {
		if _, err := routing.ByName(g, name); err == nil {
			out = append(out, name)
		}
	}
	files, _ := filepath.Glob("../../model/routing/testdata/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := routing.ParseFile(data, g); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// TestStaticHoldsMeetsNoFlitDeadlock pins the first rule of docs/semantics.md, "Static
// verdicts and flit verdicts": where the static decision proves a relation deadlock-free
// under an instance's virtual channels, the check answers holds without a flit search,
// so no instance of that relation and VC count may deadlock in the flit model, whatever
// the worms, packet length, buffer depth and port model. For every built-in relation and
// routing file on small networks, with the relation's own VCs and twice as many (each
// split into two copies, as the flit model splits them), the static-first check of one
// instance gives the static verdict; where it holds, its naive twin, the unreduced
// exhaustive flit search, checks every multiset of 1 and 2 worms (3 on the smallest
// networks without -short; fewer than the fewest worms of a configuration, where that
// is what decides) at L/B = 1/1, 3/2, 2/1 and 1/2 in both port models, and must find no
// deadlock; and at the first L/B with up to 2 worms (liveness runs unreduced), where
// the static-first liveness check answers holds by the static decision (every route
// minimal), the exhaustive liveness check must find every message delivered
// (livenessTwin). -short checks mesh:2x2 and torus:3 with up to 2 worms at L/B = 1/1
// and 3/2 only (2/1 is the static decision's own cross-check's, in props/cdg), and doubles the
// VCs of the one-VC relations but nonminimal and nonminimal:1 (whose worms circle, so
// that each instance costs thousands of states) at L/B = 1/1 only; without -short it adds
// a ring of four routers from a file, mesh:3x2, torus:4 and hypercube:2 (minutes). The log gives the counts: relations held and violated statically,
// flit instances searched and their states.
func TestStaticHoldsMeetsNoFlitDeadlock(t *testing.T) {
	const ring4 = "file:../../model/topology/testdata/topo/ring4.dot"
	topos := []string{"mesh:2x2", "torus:3"}
	worms := map[string]int{"mesh:2x2": 2, "torus:3": 2}
	if !testing.Short() {
		topos = append(topos, ring4, "mesh:3x2", "torus:4", "hypercube:2")
		worms["mesh:2x2"], worms["torus:3"], worms[ring4], worms["mesh:3x2"], worms["torus:4"], worms["hypercube:2"] = 3, 3, 2, 2, 2, 3
	}
	lbs := [][2]int{{1, 1}, {3, 2}}
	if !testing.Short() {
		lbs = append(lbs, [2]int{2, 1}, [2]int{1, 2})
	}
	var held, fewest, violated, undecided, instances, live int
	var states int64
	start := time.Now()
	for _, topo := range topos {
		g, err := topology.Parse(topo)
		if err != nil {
			t.Fatal(err)
		}
		pairs := unicast.EndpointPairs(g)
		for _, spec := range staticRelations(t, g) {
			rel, err := routing.Resolve(g, spec, os.ReadFile)
			if err != nil {
				t.Fatal(err)
			}
			for _, vcs := range []int{0, 2 * rel.VCs()} {
				if testing.Short() && vcs > 0 && (rel.VCs() > 1 || strings.HasPrefix(spec, "nonminimal")) {
					continue // the long tier doubles these too
				}
				c := staticCase{topo, spec, vcs}
				st := staticVerdict(t, c, pairs[0], g)
				k := worms[topo]
				if vcs > 0 && rel.VCs() > 1 {
					k = min(k, 2) // 3 worms of duato with 4 VCs pass the twin's 2M-state budget
				}
				switch {
				case st.Verdict == props.Violated && st.FewestWorms > 0:
					// Every deadlock needs FewestWorms worms: fewer hold.
					fewest++
					k = min(k, st.FewestWorms-1)
				case st.Verdict == props.Violated:
					violated++
					continue
				case st.Verdict == props.Inconclusive:
					undecided++
					t.Errorf("%+v: the static decision is inconclusive on a small network: %s", c, st.Reason)
					continue
				default:
					held++
				}
				t0 := time.Now()
				at := lbs
				if testing.Short() && vcs > 0 {
					at = lbs[:1]
				}
				n, s, l := flitTwin(t, c, g, pairs, k, at)
				instances, live = instances+n, live+l
				states += s
				if testing.Verbose() {
					t.Logf("%+v: static %s (fewest worms %d): %d flit instances of up to %d worms, %d states, %.1f s", c, st.Verdict, st.FewestWorms, n, k, s, time.Since(t0).Seconds())
				}
			}
		}
	}
	t.Logf("static decision: %d relation/VC cases held, %d violated only with more worms than an instance has (the fewest proved), %d violated with one worm, %d undecided; the flit twin searched %d instances (%d states) of the held ones (of the others, those with fewer worms than the fewest) and found no deadlock; %d of them also by the liveness twin, every message delivered (%.0f s)",
		held, fewest, violated, undecided, instances, states, live, time.Since(start).Seconds())
	if held == 0 || fewest == 0 {
		t.Errorf("the cases must include relations the static decision proves and relations it refutes")
	}
}

// staticVerdict returns the static decision the default check asks first for case c,
// through the entry (check.Options.Static), on one instance of it with worm p: its
// FewestWorms is set where every configuration needs more than one worm.
func staticVerdict(t *testing.T, c staticCase, p unicast.Pair, g *topology.Network) *props.Static {
	t.Helper()
	rep, err := check.Run(t.Context(), unicastInstance(c, g, []unicast.Pair{p}, 2, 1, "all"), checker.PropDeadlock, check.Options{Static: true})
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	if rep.Static == nil {
		t.Fatalf("%+v: the static-first check did not ask the static decision", c)
	}
	if (rep.Static.Verdict == props.Holds || rep.Static.FewestWorms > 0) && (rep.Verdict != props.Holds || rep.Stats.Search != "static") {
		t.Fatalf("%+v: static holds but the check answered %s by %q", c, rep.Verdict, rep.Stats.Search)
	}
	return rep.Static
}

// flitTwin searches every multiset of 1..k worms of pairs in the flit model of case c,
// exhaustively and unreduced, at each L/B of lbs and in both port models, and fails the
// test at the first deadlock (or search that does not finish); it returns the instances
// searched, their states and how many the liveness twin checked too.
func flitTwin(t *testing.T, c staticCase, g *topology.Network, pairs []unicast.Pair, k int, lbs [][2]int) (n int, states int64, live int) {
	t.Helper()
	var place func(from int, ps []unicast.Pair)
	place = func(from int, ps []unicast.Pair) {
		if len(ps) > 0 {
			for _, ports := range []string{"one", "all"} {
				for _, lb := range lbs {
					in := unicastInstance(c, g, ps, lb[0], lb[1], ports)
					rep, err := check.Run(t.Context(), in, checker.PropDeadlock, check.Options{MaxStates: 2_000_000})
					if err != nil {
						t.Fatalf("%+v %v: %v", c, in.Params, err)
					}
					n++
					states += rep.Stats.States
					if rep.Verdict != props.Holds {
						t.Fatalf("static holds for %+v but the flit search of %v answers %s: %s", c, in.Params, rep.Verdict, rep.Reason)
					}
					if lb == lbs[0] && len(ps) <= 2 {
						if s := livenessTwin(t, c, in); s > 0 {
							states, live = states+s, live+1
						}
					}
				}
			}
		}
		if len(ps) == k {
			return
		}
		for i := from; i < len(pairs); i++ {
			place(i, append(ps, pairs[i]))
		}
	}
	place(0, nil)
	return n, states, live
}

// livenessTwin pins the liveness rule of docs/semantics.md for instance in of case c:
// where the static-first liveness check answers holds by the static decision (every
// route of the worms is minimal), the exhaustive liveness check (checker.CheckLiveness,
// unreduced) must find no deadlock, livelock or starvation; it returns the liveness
// check's states (0 where the static decision does not decide liveness).
func livenessTwin(t *testing.T, c staticCase, in check.Instance) int64 {
	t.Helper()
	st, err := check.Run(t.Context(), in, checker.PropLiveness, check.Options{Static: true})
	if err != nil {
		t.Fatalf("%+v %v: %v", c, in.Params, err)
	}
	if st.Stats.Search != "static" {
		return 0
	}
	rep, err := check.Run(t.Context(), in, checker.PropLiveness, check.Options{MaxStates: 2_000_000})
	if err != nil {
		t.Fatalf("%+v %v: %v", c, in.Params, err)
	}
	if st.Verdict != props.Holds || rep.Verdict != props.Holds {
		t.Fatalf("static liveness %s for %+v but the flit liveness check of %v answers %s: %s", st.Verdict, c, in.Params, rep.Verdict, rep.Reason)
	}
	return rep.Stats.States
}

// unicastInstance is the check of worms ps under case c at length l, buffers b and the
// port model ports.
func unicastInstance(c staticCase, g *topology.Network, ps []unicast.Pair, l, b int, ports string) check.Instance {
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, fmt.Sprintf("%s->%s", g.NodeName(p.Src), g.NodeName(p.Dst)))
	}
	return check.Instance{Algorithm: "unicast", Topology: c.topo, Params: map[string]string{
		"msgs": strings.Join(msgs, ","), "routing": c.routing, "vcs": strconv.Itoa(c.vcs),
		"length": strconv.Itoa(l), "buffers": strconv.Itoa(b), "ports": ports}}
}
