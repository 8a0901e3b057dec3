package simulate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// FuzzBookSimExperiment feeds BookSim configurations, BookSim's examples and mutations
// of them, through the BookSim experiment (bookSimConfig and the pipeline, on networks of
// at most 128 nodes): every configuration runs or is refused with a one-line error;
// nothing panics. Each input's work is bounded by its cycles, not by a clock: periods
// of at most 20 cycles, one warm-up period and two samples, one run (sim_count), so the
// fuzzer tries hundreds of inputs a second; a context of a second is only a backstop.
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
		var rel routing.Relation
		if m.Routing != "" {
			if rel, err = routing.Resolve(g, m.Routing, os.ReadFile); err != nil {
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err = Run(ctx, Request{Grid: g, Options: Options{Relation: rel}, BookSim: &BookSimRun{Name: "fuzz", Config: c, Seed: 1}})
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}
