package simulate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

func simDefaults() Options {
	return Options{Traffic: "uniform", Ports: "all", Process: "poisson", Dests: "4..25", Prune: "on-stop",
		B: -1, Multicast: -1, HotSpot: 0.1, HotNode: -1, Length: 32, Buffers: 2, Cycles: 20000, Warmup: 5000, Seed: 1}
}

// TestSimConfigRefuses checks that each bad option is refused with an error naming its
// field as a Go caller writes it (a props.FieldError, bad input), never a flag of the
// command line, which props/check puts in its place.
func TestSimConfigRefuses(t *testing.T) {
	g, err := topology.Parse("mesh:4x4")
	if err != nil {
		t.Fatal(err)
	}
	for field, edit := range map[string]func(*Options){
		"Options.Ports":    func(o *Options) { o.Ports = "two" },
		"Options.Process":  func(o *Options) { o.Process = "x" },
		"Options.Length":   func(o *Options) { o.Length = 0 },
		"Options.Rate":     func(o *Options) { o.Rate, o.Load = 0.01, 0.1 },
		"Options.Load":     func(o *Options) { o.Load = 100 },
		"Options.Cycles":   func(o *Options) { o.Cycles = 1e12 },
		"Options.Dests":    func(o *Options) { o.Dests = "5..2" },
		"Options.HotNode":  func(o *Options) { o.Traffic, o.HotNode = "hotspot", 16 },
		"Options.Traffic":  func(o *Options) { o.Traffic = "bursty" },
		"Options.Prune":    func(o *Options) { o.Algo, o.Prune = "tree", "sometimes" },
		"Options.Algo":     func(o *Options) { o.Algo = "nosuch" },
		"Options.Relation": func(o *Options) { o.Selection = "hash" },
	} {
		o := simDefaults()
		edit(&o)
		_, err := simConfig(g, o)
		var fe *props.FieldError
		if !errors.As(err, &fe) || fe.Fields[0] != field && !(field == "Options.Relation" && fe.Fields[1] == field) ||
			!strings.HasPrefix(err.Error(), fe.Fields[0]) || strings.Contains(err.Error(), "--") || !errors.Is(err, props.ErrBadInput) {
			t.Errorf("%s: got error %v", field, err)
		}
	}
}

// TestRunErrorsInGoTerms: a Go caller of Run reads its own fields in the refusals of a
// request, as in "Request.Points 1: want 2..100", not sim's flags.
func TestRunErrorsInGoTerms(t *testing.T) {
	g, _ := topology.Parse("mesh:4x4")
	o := simDefaults()
	o.Load = 0.1
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Grid: g, Options: o, Plot: "p.svg", Points: 1}, "Request.Points 1: want 2..100"},
		{Request{Grid: g, Options: func() Options { o := o; o.Warmup = -1; return o }()}, "Options.Warmup must not be negative"},
		{Request{Grid: g, Options: o, Compare: "tree", CompareDests: "4", CompareLoads: "x"}, `Request.CompareLoads "x": want positive loads separated by commas`},
	} {
		if _, err := Run(t.Context(), c.req); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestSimConfigBuilds checks the configuration of valid options: the load divided by the
// length, the hot spot at the centre, tree multicast with its pruning.
func TestSimConfigBuilds(t *testing.T) {
	g, _ := topology.Parse("mesh:4x4")
	o := simDefaults()
	o.Load, o.Traffic, o.Algo, o.Prune = 0.32, "hotspot", "tree", "none"
	cfg, err := simConfig(g, o)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Traffic.Rate != 0.01 || cfg.Traffic.HotNode != g.Node(2, 2) || !cfg.Tree || cfg.Prune != flit.PruneNone {
		t.Fatalf("config %+v", cfg.Traffic)
	}
}

// TestScheduleNames: each schedule name builds a broadcast or a multicast, never both.
func TestScheduleNames(t *testing.T) {
	for _, n := range scheduleNames() {
		_, b := broadcastBuilder(n)
		_, m := multicastBuilder(n)
		if b == m {
			t.Errorf("%s: broadcast %v, multicast %v", n, b, m)
		}
	}
}

// TestSimCollective runs EDN on a square torus: the run completes, the formula and the
// timed model are beside it, and a source off the network is refused.
func TestSimCollective(t *testing.T) {
	g, _ := topology.Parse("torus:8x8")
	o := simDefaults()
	o.Algo, o.Length, o.Ts = "edn", 16, 1
	c, ok, err := newCollective(g, o)
	if !ok || err != nil {
		t.Fatalf("edn: %v, %v", ok, err)
	}
	if err := c.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if c.Result.Completion <= 0 || c.TimedErr != nil || c.FormulaErr != nil || c.VCLabel() != "V=1" {
		t.Fatalf("completion %d, timed %v, formula %v, %s", c.Result.Completion, c.TimedErr, c.FormulaErr, c.VCLabel())
	}
	if j := c.report("test", 1); j.Formula == nil || *j.Formula != c.Formula || j.Completion != c.Result.Completion {
		t.Fatalf("report %+v", j)
	}
	o.Source = 64
	if _, _, err := newCollective(g, o); err == nil || !strings.HasPrefix(err.Error(), "Options.Source 64") {
		t.Fatalf("source off the network: %v", err)
	}
	o.Algo = "tree"
	if _, ok, _ := newCollective(g, o); ok {
		t.Fatal("tree taken for a collective")
	}
}

// TestSimSweep runs a short sweep on a hypercube with hybrid traffic: the loads rise
// evenly, each point carries the 003 model, and the plot has the broadcast panel.
func TestSimSweep(t *testing.T) {
	g, _ := topology.Parse("hypercube:4")
	o := simDefaults()
	o.Rate, o.B, o.VCs, o.Cycles, o.Warmup = 0.01, 0.1, 3, 500, 50
	cfg, err := simConfig(g, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newSweep(g, cfg, 1); err == nil {
		t.Fatal("a sweep of one load")
	}
	sw, err := newSweep(g, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		c := sw.Config(i)
		res, err := sim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if p, name := sw.Add(c, res); name == "" || !(p.Model > 0) || p.Load != c.Traffic.Rate*float64(c.Length) {
			t.Fatalf("point %d: %+v, model %q", i, p, name)
		}
	}
	if sw.Rates[1] != 2*sw.Rates[0] || sw.Rates[1] != cfg.Traffic.Rate {
		t.Fatalf("rates %v", sw.Rates)
	}
	if ev := sw.Evidence(); len(ev.Panels) != 2 || ev.Panels[1].Title != "broadcast" {
		t.Fatal("hybrid traffic without its broadcast panel")
	}
	if rows := sw.report("test", "", "p.svg", "").Sweep; len(rows) != 2 {
		t.Fatalf("rows %v", rows)
	}
}
