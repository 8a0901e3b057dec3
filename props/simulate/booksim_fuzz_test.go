package simulate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// FuzzBookSimExperiment feeds BookSim configurations, BookSim's examples and mutations
// of them, through the BookSim experiment (bookSimConfig and the pipeline, on networks of
// at most 128 nodes): every configuration runs or is refused with a one-line error;
// nothing panics. Each input's work is bounded by cycles, not by a clock: periods of at
// most 20 cycles, one warm-up period and two samples, one run (sim_count), packets of at
// most 64 flits, at most 16 VCs of at most 64 flits, and a budget of VC-cycles
// (cycleBudget) that ends the run as a stop would. A drain of a deadlocked or crawling
// network (the pipeline gives up after 10,000 cycles without a move) would otherwise
// take a worker a second per input. A context of a quarter second is only a backstop.
func FuzzBookSimExperiment(f *testing.F) {
	dir := filepath.Join("..", "..", "model", "booksim", "testdata", "examples")
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !strings.Contains(e.Name(), "anynet_file") {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("topology = mesh; k = 4; n = 2; routing_function = dor; packet_size = {2,5}; packet_size_rate = {1};\n"))
	f.Add([]byte("topology = mesh; k = 4; n = 2; routing_function = dor; injection_process = on_off(0.1,-1,0.5); traffic = hotspot({3,5},{1,2});\n"))
	f.Add([]byte("topology = torus; k = 4; n = 2; routing_function = dim_order; traffic = {}; injection_rate = {};\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := booksim.Parse(data)
		if err != nil {
			return
		}
		m, err := c.Map(dir)
		if err != nil {
			return
		}
		g, err := topology.Parse(m.Topology)
		if err != nil || g.Nodes() > 128 {
			return
		}
		// Bounded from above only: zero and negative values still reach the refusals.
		s := &c.Sim
		s.SamplePeriod, s.WarmupPeriods = min(s.SamplePeriod, 20), min(s.WarmupPeriods, 1)
		s.MaxSamples, s.SimCount = min(s.MaxSamples, 2), min(s.SimCount, 1)
		r := &c.Router
		r.NumVCs, r.VCBufSize = min(r.NumVCs, 16), min(r.VCBufSize, 64)
		for _, sizes := range c.Traffic.PacketSize {
			for i := range sizes {
				sizes[i] = min(sizes[i], 64)
			}
		}
		var rel routing.Relation
		if m.Routing != "" {
			if rel, err = routing.Resolve(g, m.Routing, os.ReadFile); err != nil {
				return
			}
		}
		backstop, cancel := context.WithTimeout(context.Background(), time.Second/4)
		defer cancel()
		ctx := newCycleBudget(backstop, min(fuzzVCCycles/int64(g.Nodes()*max(r.NumVCs, 1)), fuzzCycles))
		defer ctx.cancel(nil)
		_, err = Run(ctx, Request{Grid: g, Options: Options{Relation: rel}, BookSim: &BookSimRun{Name: "fuzz", Config: c, Seed: 1}})
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}

// fuzzVCCycles bounds nodes x VCs x cycles of one fuzz input's run and fuzzCycles its
// cycles (a cycle costs something per terminal and per router however few the VCs):
// a few milliseconds under the fuzzer's coverage instrumentation, which the minimiser
// pays again for every candidate. Small networks run past their samples into the
// drain; BookSim's larger examples at these periods (cmeshconfig: 80 nodes x 16 VCs)
// stop in their warm-up, as a stopped run does.
const (
	fuzzVCCycles = 1 << 15
	fuzzCycles   = 256
)

// cycleBudget is a context that ends once the pipeline has asked it whether it ended
// more than cycles/4 times: the pipeline asks every 4 cycles (pipeline.Config.Context),
// so the run stops after about that many cycles, whatever the machine's load.
type cycleBudget struct {
	context.Context
	cancel context.CancelCauseFunc
	asks   atomic.Int64
}

// errCyclesSpent is a cycleBudget's cause once its cycles are spent.
var errCyclesSpent = errors.New("the fuzz input's cycles are spent")

func newCycleBudget(parent context.Context, cycles int64) *cycleBudget {
	ctx, cancel := context.WithCancelCause(parent)
	b := &cycleBudget{Context: ctx, cancel: cancel}
	b.asks.Store(max(cycles/4, 1))
	return b
}

// Err counts the question and ends the context once the cycles are spent.
func (b *cycleBudget) Err() error {
	if b.asks.Add(-1) < 0 {
		b.cancel(errCyclesSpent)
	}
	return b.Context.Err()
}

// A cycleBudget stops a run that would take thousands of cycles (BookSim's default
// periods) after the cycles it allows, as a stopped run.
func TestCycleBudgetStops(t *testing.T) {
	c, err := booksim.Parse([]byte("topology = mesh; k = 4; n = 2; routing_function = dor;\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := topology.Parse("mesh:4x4")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := routing.Resolve(g, "dor", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx := newCycleBudget(context.Background(), 64)
	defer ctx.cancel(nil)
	out, err := Run(ctx, Request{Grid: g, Options: Options{Relation: rel}, BookSim: &BookSimRun{Name: "budget", Config: c, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.StopReason(); !strings.Contains(r, "at cycle 64:") || !strings.Contains(r, errCyclesSpent.Error()) {
		t.Errorf("stop reason %q, want a stop at cycle 64 caused by the spent cycles", r)
	}
}
