package simulate

import (
	"context"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// countingTrace is a Trace that counts what it is asked.
type countingTrace struct{ opened, closed, moves int }

func (c *countingTrace) Open() (func(sim.TraceEvent), error) {
	c.opened++
	return func(sim.TraceEvent) { c.moves++ }, nil
}

func (c *countingTrace) Close() error { c.closed++; return nil }

// TestSimulateDispatchesEachMode runs Run in its four modes and checks which
// outcome each gives, that only a traffic run and a collective record flit moves, that
// bad options open no trace, and what each prints.
func TestSimulateDispatchesEachMode(t *testing.T) {
	g, _ := topology.Parse("mesh:4x4")
	short := simDefaults()
	short.Length, short.Cycles, short.Warmup = 2, 400, 100
	for _, c := range []struct {
		name    string
		req     func(o Options) Request
		traced  bool
		plot    bool
		printed string
	}{
		{"traffic", func(o Options) Request { o.Rate = 0.01; return Request{Grid: g, Options: o} }, true, false, "sim mesh:4x4: rate 0.01"},
		{"collective", func(o Options) Request { o.Algo, o.Dests = "umesh", "3"; return Request{Grid: g, Options: o} }, true, false, "umesh on mesh:4x4 from"},
		{"sweep", func(o Options) Request {
			o.Load = 0.1
			return Request{Grid: g, Options: o, Points: 2, Plot: "p.svg"}
		}, false, true, "load 0.1000: sim "},
		{"compare", func(o Options) Request {
			o.Load = 0.05
			return Request{Grid: g, Options: o, Compare: "tree,separate", CompareDests: "2", Points: 1, Plot: "c.svg"}
		}, false, true, "mesh:4x4 n=2"},
	} {
		tr := &countingTrace{}
		var text strings.Builder
		req := c.req(short)
		req.Trace, req.Text = tr, &text
		out, err := Run(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out.WriteText(&text)
		if got := tr.opened == 1 && tr.closed == 1 && tr.moves > 0; got != c.traced {
			t.Errorf("%s: trace opened %d closed %d with %d moves; want traced %v", c.name, tr.opened, tr.closed, tr.moves, c.traced)
		}
		if (out.Plot() != nil) != c.plot || out.StopReason() != "" || out.Report("v").Head().Command != "sim" {
			t.Errorf("%s: plot %v, stop reason %q", c.name, out.Plot() != nil, out.StopReason())
		}
		if !strings.Contains(text.String(), c.printed) {
			t.Errorf("%s: printed\n%s\nwant %q", c.name, text.String(), c.printed)
		}
	}
	tr := &countingTrace{}
	bad := short
	bad.Rate, bad.Ports = 0.01, "two"
	if _, err := Run(context.Background(), Request{Grid: g, Options: bad, Trace: tr}); err == nil || !strings.HasPrefix(err.Error(), "Options.Ports") || tr.opened != 0 {
		t.Errorf("bad Options.Ports: %v, trace opened %d times", err, tr.opened)
	}
}
