package sim

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestContextStops cancels a run from its progress callback and checks that it stops
// within 256 cycles of the cancel, marked Stopped and not Saturated, with the figures
// of the cycles it simulated.
func TestContextStops(t *testing.T) {
	g, err := topology.Parse("torus:8x8")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Grid: g, Length: 8, Traffic: Traffic{Rate: 0.01}, Seed: 3, Warmup: 500, Cycles: 100000, Context: ctx,
		Progress: func(cycle, _ int64) {
			if cycle >= 2048 {
				cancel()
			}
		}}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Saturated || res.Cycles < 2048 || res.Cycles > 2048+257 || res.Completed == 0 || res.Unicast.N == 0 {
		t.Fatalf("stopped %v saturated %v after %d cycles, %d completed, %d measured", res.Stopped, res.Saturated, res.Cycles, res.Completed, res.Unicast.N)
	}
	cfg.Context, cfg.Progress, cfg.Cycles = nil, nil, 3000
	whole, err := Run(cfg)
	if err != nil || whole.Stopped {
		t.Fatalf("a run without a context: stopped %v, %v", whole.Stopped, err)
	}
}
