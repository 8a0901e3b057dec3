package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// wh2 is the classic torus deadlock: four worms around a ring without dateline VCs.
var wh2 = check.Instance{Algorithm: "unicast", Topology: "torus:4",
	Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}

func TestRunFindsTorusDeadlockAndReplaysIt(t *testing.T) {
	rep, err := check.Run(context.Background(), wh2, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Semantics != "flit" || rep.Trace == nil {
		t.Fatalf("verdict %v semantics %q trace %v; want a violated flit verdict with a trace", rep.Verdict, rep.Semantics, rep.Trace != nil)
	}
	again, err := check.Replay(context.Background(), rep.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if again.Verdict != props.Violated || again.Reason != rep.Reason {
		t.Errorf("replay: %v %q; want violated %q", again.Verdict, again.Reason, rep.Reason)
	}
}

func TestRunHoldsWithDatelines(t *testing.T) {
	in := wh2
	in.Params = map[string]string{"msgs": "0->2,1->3,2->0,3->1"}
	rep, err := check.Run(context.Background(), in, "", check.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Holds || rep.Stats.States == 0 {
		t.Fatalf("verdict %v after %d states; want holds after a search", rep.Verdict, rep.Stats.States)
	}
}

func TestRunBoundIsInconclusive(t *testing.T) {
	rep, err := check.Run(context.Background(), wh2, "deadlock", check.Options{MaxStates: 5})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive {
		t.Fatalf("verdict %v; want inconclusive at a 5-state budget", rep.Verdict)
	}
}

func TestTreeMcastPruningNoneDeadlocks(t *testing.T) {
	// TM1's witness: two multicasts on a 2x2 mesh with one-flit buffers.
	in := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
		"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}
	rep, err := check.Run(context.Background(), in, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Trace == nil {
		t.Fatalf("verdict %v; want violated with a trace (000 §3: no pruning deadlocks)", rep.Verdict)
	}
	again, err := check.Replay(context.Background(), rep.Trace)
	if err != nil || again.Verdict != props.Violated {
		t.Fatalf("replay: %v, %v; want violated", again, err)
	}
}

func TestBadInputIsOneLineNamingTheField(t *testing.T) {
	cases := []struct {
		in   check.Instance
		prop checker.Property
		opt  check.Options
		want string
	}{
		{check.Instance{Algorithm: "nope"}, "", check.Options{}, `algorithm "nope" is unknown`},
		{check.Instance{Algorithm: "unicast"}, "", check.Options{}, "--topo is missing"},
		{check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{"msgs": "0->2", "lenght": "3"}}, "", check.Options{}, `parameter "lenght" is unknown`},
		{check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{"msgs": "0->2", "length": "x"}}, "", check.Options{}, `--length "x" is not an integer`},
		{wh2, "nonblocking", check.Options{}, `--prop "nonblocking" is not supported`},
		{wh2, "deadlock", check.Options{Semantics: "timed"}, `semantics "timed" is not supported`},
		{wh2, "deadlock", check.Options{Workers: -1}, "workers -1 is out of range"},
		{wh2, "deadlock", check.Options{Symmetry: true}, "--symmetry is not supported"},
		{check.Instance{Algorithm: "dcf", Topology: "torus:4x4"}, "", check.Options{}, "--prop is missing"},
		{check.Instance{Algorithm: "tree-mcast", Topology: "mesh:3x3", Params: map[string]string{"msgs": "(0,0)->(2,0)", "shard": "1/2"}}, "deadlock", check.Options{}, "--shard needs --family"},
	}
	for _, c := range cases {
		_, err := check.Run(context.Background(), c.in, c.prop, c.opt)
		if err == nil || !errors.Is(err, check.ErrBadInput) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v %q: error %v; want one bad-input line containing %q", c.in, c.prop, err, c.want)
		}
	}
}

func TestReplayRefusesUnknownAlgorithm(t *testing.T) {
	_, err := check.Replay(context.Background(), &tracefile.File{Format: tracefile.Format, Algorithm: "nope", Topology: "mesh:2x2"})
	if !errors.Is(err, check.ErrBadInput) {
		t.Fatalf("error %v; want bad input", err)
	}
}

func TestRegistryIsDocumented(t *testing.T) {
	for _, a := range check.Algorithms() {
		if a.Name == "" || a.Summary == "" || a.Doc == "" || len(a.Properties) == 0 {
			t.Errorf("%q: name, summary, doc and properties must be set", a.Name)
		}
		for _, s := range a.Properties {
			if s.Property == "" || s.Semantics == "" {
				t.Errorf("%s: support %+v lacks a property or semantics", a.Name, s)
			}
		}
		seen := map[string]bool{}
		for _, p := range a.Params {
			if p.Usage == "" || seen[p.Name] {
				t.Errorf("%s: parameter %q undocumented or repeated", a.Name, p.Name)
			}
			seen[p.Name] = true
		}
		if b, ok := check.Lookup(a.Name); !ok || b.Name != a.Name {
			t.Errorf("Lookup(%q) fails", a.Name)
		}
	}
}

func TestWitnessesAreStructured(t *testing.T) {
	rep, err := check.Run(context.Background(), wh2, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := rep.Witness
	if w == nil || w.Kind != props.WitnessTrace || len(w.Steps) != 4 || rep.Schema != props.ReportSchema {
		t.Fatalf("witness %+v; want a 4-step trace", w)
	}
	if len(w.Cycle) != 4 {
		t.Errorf("wait-for cycle %+v; want the four worms around the ring", w.Cycle)
	}
	for i, s := range w.Steps {
		if s.What != "inject" || s.Message != i || s.Channel == "" || s.Label == "" {
			t.Errorf("step %d: %+v; want message %d injected into a named channel", i, s, i)
		}
	}
	// 002 Fig. 4 under free arbitration: the deadlock starts from a start combination
	// other than the first, and its wait-for cycle closes.
	tp := check.Instance{Algorithm: "two-phase", Topology: "banyan:16", Params: map[string]string{"msgs": "1->5,6,7,8;15->7-12"}}
	rep, err = check.Run(context.Background(), tp, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w = rep.Witness
	if rep.Verdict != props.Violated || w == nil || w.Init != rep.Trace.Init || len(w.Cycle) < 2 {
		t.Fatalf("verdict %v witness %+v; want a deadlock with its init and a wait-for cycle", rep.Verdict, w)
	}
	// Fig. 4 has fanouts 4 and 6 on N = 16: 13 x 11 phase-1 start combinations.
	if got := rep.Figures[banyan.FigStartCombinations]; got != 13*11 || w.Init >= 13*11 {
		t.Errorf("start combinations %v, witness init %d; want 143 and an init among them", got, w.Init)
	}
	for i, e := range w.Cycle {
		if next := w.Cycle[(i+1)%len(w.Cycle)]; e.Holder != next.Message {
			t.Errorf("cycle edge %d: %+v is not followed by its holder's edge %+v", i, e, next)
		}
	}
	// A static check says what it counted.
	br := check.Instance{Algorithm: "banyan-route", Topology: "banyan:8", Params: map[string]string{"concentration": "scattered"}}
	rep, err = check.Run(context.Background(), br, "", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Stats.Checked == 0 || rep.Stats.Unit == "" || rep.Witness.Kind != props.WitnessPair {
		t.Fatalf("verdict %v stats %+v witness %+v; want a counted violation with a pair", rep.Verdict, rep.Stats, rep.Witness)
	}
}

// A schedule's any-delay violation carries a trace that names its instance, so Replay
// rebuilds the schedule and re-executes the worm events.
func TestScheduleAnyDelayTraceReplays(t *testing.T) {
	in := check.Instance{Algorithm: "separate", Topology: "mesh:4x4", Params: map[string]string{"dests": "3,2,1"}}
	rep, err := check.Run(context.Background(), in, "any-delay", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Trace == nil || rep.Trace.Algorithm != "separate" {
		t.Fatalf("verdict %v trace %+v; want an any-delay violation with a named trace", rep.Verdict, rep.Trace)
	}
	again, err := check.Replay(context.Background(), rep.Trace)
	if err != nil || again.Verdict != props.Violated {
		t.Fatalf("replay: %v %v", again, err)
	}
	// The same trace against another instance does not replay.
	rep.Trace.Params = []byte(`{"dests": "1"}`)
	if _, err := check.Replay(context.Background(), rep.Trace); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("a trace replayed against the wrong schedule: %v", err)
	}
}

// A user's own transition system through the entry: Dijkstra's philosophers deadlock at
// depth N with everyone holding the left fork; a counter invariant breaks.
func TestRunModel(t *testing.T) {
	rep, err := check.RunModel[checkertest.PhilState](context.Background(), checkertest.Philosophers{N: 3},
		check.ModelCheck[checkertest.PhilState]{Name: "philosophers", Deadlock: true}, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Property != "deadlock" || rep.Witness == nil || len(rep.Witness.Steps) != 3 {
		t.Fatalf("%s", rep)
	}
	// The witness replays on the model from its initial state.
	var acts []checker.Action
	for _, s := range rep.Witness.Steps {
		acts = append(acts, checker.Action(s.Action))
	}
	if _, err := checker.Replay[checkertest.PhilState](checkertest.Philosophers{N: 3}, rep.Witness.Init, acts); err != nil {
		t.Fatal(err)
	}
	c := checkertest.Counters{N: 2, K: 4}
	rep, err = check.RunModel[checkertest.CountersState](context.Background(), c,
		check.ModelCheck[checkertest.CountersState]{Invariants: []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(3)}},
		check.Options{Semantics: "step", Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Semantics != "step" || !strings.Contains(rep.Reason, "invariant") {
		t.Fatalf("%s", rep)
	}
	// Symmetry on a model without a canonical form, and nothing to check, are bad input.
	if _, err := check.RunModel[checkertest.CountersState](context.Background(), c,
		check.ModelCheck[checkertest.CountersState]{Deadlock: true}, check.Options{Symmetry: true}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("symmetry without a Canonicalizer: %v", err)
	}
	if _, err := check.RunModel[checkertest.CountersState](context.Background(), c, check.ModelCheck[checkertest.CountersState]{}, check.Options{}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("nothing to check: %v", err)
	}
}

// TestBanyanDeadlockEvidenceNamesEveryPacket: in the lockstep upper-first deadlock of
// three multicasts on banyan:8 (claim MN6B), the third multicast's packet still waits at
// its source holding no link; the evidence names it all the same, with the wait-for
// edges and a capture. Reference: 002 Theorem 2.
func TestBanyanDeadlockEvidenceNamesEveryPacket(t *testing.T) {
	tp := check.Instance{Algorithm: "two-phase", Topology: "banyan:8",
		Params: map[string]string{"msgs": "2->4,5;5->2,7;0->4", "arbitration": "upper-first", "timing": "lockstep"}}
	rep, err := check.Run(context.Background(), tp, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated {
		t.Fatalf("verdict %v; want the MN6B deadlock", rep.Verdict)
	}
	ev, ok := rep.Evidence.(*props.BanyanEvidence)
	if !ok || len(ev.Contested) == 0 || len(ev.Capture) == 0 {
		t.Fatalf("evidence %T %+v: not a banyan deadlock with its contested links and capture", rep.Evidence, rep.Evidence)
	}
	var text strings.Builder
	for _, p := range ev.Packets {
		text.WriteString(p.Name + "\n")
	}
	text.WriteString(strings.Join(ev.Notes, "\n"))
	for _, want := range []string{"m1.", "m2.", "m3.", "waits at its source", "held by"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the evidence lacks %q:\n%s", want, text.String())
		}
	}
}

// TestTwoPhaseLocalDeadlock: on 002 Fig. 4 with a third message beside it, --prop
// deadlock reports the local deadlock in the cycle it closes (its set in the witness,
// a two-packet wait-for cycle), global-deadlock only once the third message is
// delivered, and each trace replays under its own property.
func TestTwoPhaseLocalDeadlock(t *testing.T) {
	in := check.Instance{Algorithm: "two-phase", Topology: "banyan:16", Params: map[string]string{"msgs": "1->5,6,7,8;15->7-12;2->3", "starts": "5,7,0"}}
	loc, err := check.Run(context.Background(), in, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	glob, err := check.Run(context.Background(), in, "global-deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if loc.Verdict != props.Violated || glob.Verdict != props.Violated {
		t.Fatalf("verdicts %v, %v; want both violated", loc.Verdict, glob.Verdict)
	}
	if ls, gs := len(loc.Witness.Steps), len(glob.Witness.Steps); ls != 5 || gs <= ls {
		t.Errorf("local witness %d cycles, global %d; want 5 and a longer global one", ls, gs)
	}
	if d, _ := loc.Witness.Detail.(map[string]any); d == nil || len(d["stuck"].([]int)) != 12 || len(loc.Witness.Cycle) != 2 {
		t.Errorf("local witness detail %v cycle %+v; want the 12 packets of the first two messages and a 2-packet cycle", loc.Witness.Detail, loc.Witness.Cycle)
	}
	if !strings.HasPrefix(loc.Trace.Violation, "local deadlock of m1.phase1") || !strings.HasPrefix(glob.Trace.Violation, "deadlock") {
		t.Errorf("violations %q, %q", loc.Trace.Violation, glob.Trace.Violation)
	}
	for _, rep := range []*props.Report{loc, glob} {
		again, err := check.Replay(context.Background(), rep.Trace)
		if err != nil || again.Verdict != props.Violated || again.Property != rep.Property {
			t.Fatalf("%s: replay %v %v", rep.Property, again, err)
		}
	}
	loc.Trace.Property = "global-deadlock"
	if _, err := check.Replay(context.Background(), loc.Trace); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("the local witness replays as a global deadlock: %v", err)
	}
}

// TestTreeMcastSwarm: --search swarm on tree multicast finds TM1's deadlock among free
// multicasts, reports it minimised to the two involved, with a trace that replays; a
// family is refused (a swarm hunts in one instance), and so is an algorithm without a
// swarm, rather than silently searched exhaustively.
func TestTreeMcastSwarm(t *testing.T) {
	in := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:4x4", Params: map[string]string{
		"msgs": "(3,3)->(2,3),(3,2);(0,0)->(1,0),(0,1);(2,2)->(1,2),(2,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := check.Run(ctx, in, "deadlock", check.Options{Swarm: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Stats.Search != "swarm" || rep.Figures["involved"] != 2 || rep.Figures["messages"] != 4 || !strings.Contains(rep.Text, "2 of 4 multicasts are involved") {
		t.Fatalf("swarm: %v, figures %v\n%s", rep.Verdict, rep.Figures, rep.Text)
	}
	again, err := check.Replay(context.Background(), rep.Trace)
	if err != nil || again.Verdict != props.Violated {
		t.Fatalf("replay: %v %v", again, err)
	}
	fam := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{"family": "pairs:1"}}
	if _, err := check.Run(ctx, fam, "deadlock", check.Options{Swarm: true}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("a swarm over a family: %v; want bad input", err)
	}
	tp := check.Instance{Algorithm: "two-phase", Topology: "banyan:16", Params: map[string]string{"msgs": "1->5,6,7,8;15->7-12"}}
	if _, err := check.Run(ctx, tp, "deadlock", check.Options{Swarm: true}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("a swarm on two-phase: %v; want bad input (it has no swarm)", err)
	}
}

// TestCommandsOfTheRegistry checks the registry's commands: each has a name, a usage
// and common flags, names are distinct, and an entry that runs only as its command is
// not offered to check --algo but is found by Lookup.
func TestCommandsOfTheRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range check.Commands() {
		c := a.Command
		if c.Name == "" || c.Usage == "" || c.Flags == 0 || seen[c.Name] {
			t.Errorf("entry %s: command %+v", a.Name, c)
		}
		seen[c.Name] = true
		if _, ok := check.Lookup(a.Name); !ok {
			t.Errorf("Lookup(%q) fails", a.Name)
		}
		listed := false
		for _, b := range check.Algorithms() {
			listed = listed || b.Name == a.Name
		}
		if listed == c.Only {
			t.Errorf("entry %s: Only %v but listed by Algorithms %v", a.Name, c.Only, listed)
		}
	}
	if !seen["routing"] || !seen["partition"] {
		t.Errorf("routing and partition are not commands of the registry: %v", seen)
	}
}
