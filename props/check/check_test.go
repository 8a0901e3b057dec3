package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"

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
		prop string
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
		{check.Instance{Algorithm: "tree-mcast", Topology: "mesh:3x3", Params: map[string]string{"msgs": "(0,0)->(2,0)"}}, "", check.Options{}, "--prop is missing"},
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
	_, err := check.Replay(context.Background(), &props.TraceFile{Format: props.TraceFormat, Algorithm: "nope", Topology: "mesh:2x2"})
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
