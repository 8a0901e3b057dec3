package simulate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestStopReason names each cause a simulation stops for.
func TestStopReason(t *testing.T) {
	if got := stopReason(context.Background(), 5); got != "stopped at cycle 5" {
		t.Errorf("no cause: %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := stopReason(ctx, -1); got != "interrupted" {
		t.Errorf("cancelled: %q", got)
	}
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(errors.New("the heap outgrew the budget"))
	if got := stopReason(ctx, 12); got != "stopped at cycle 12: the heap outgrew the budget" {
		t.Errorf("cause: %q", got)
	}
	tctx, release := progress.WithBudget(context.Background(), 0, 1)
	defer release()
	<-tctx.Done()
	if got := stopReason(tctx, 0); !strings.Contains(got, "the time limit of 1ns passed") {
		t.Errorf("time limit: %q", got)
	}
}

// TestRunSimTextAndJSON runs a short simulation and checks what its text and report
// object show, and that a run stopped by its context is inconclusive in both.
func TestRunSimTextAndJSON(t *testing.T) {
	g, err := topology.Parse("mesh:4x4")
	if err != nil {
		t.Fatal(err)
	}
	o := simDefaults()
	o.Rate, o.Length, o.Cycles, o.Warmup = 0.01, 4, 1000, 200
	cfg, err := simConfig(g, o)
	if err != nil {
		t.Fatal(err)
	}
	run, err := runTraffic(context.Background(), g, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	run.WriteText(&b)
	for _, want := range []string{"sim mesh:4x4: rate 0.01 msg/node/cycle (0.04 flits), L=4,", "  unicast   latency ", "accepted ", "zero-load"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	if run.Report("v").Head().Verdict != "" || run.Reason != "" {
		t.Errorf("a finished run has a verdict or reason: %q", run.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg.Context = ctx
	stopped, err := runTraffic(ctx, g, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if stopped.Reason == "" || stopped.Report("v").Head().Verdict != "inconclusive" {
		t.Fatalf("a cancelled run: reason %q", stopped.Reason)
	}
	b.Reset()
	stopped.WriteText(&b)
	if !strings.Contains(b.String(), "  INCONCLUSIVE: interrupted at cycle ") {
		t.Errorf("text of a stopped run:\n%s", b.String())
	}
}

// TestSweepRunHooksEachLoad runs a two-load sweep and checks that every load is hooked,
// reported and added, and that a done context stops the sweep before the first load.
func TestSweepRunHooksEachLoad(t *testing.T) {
	g, _ := topology.Parse("mesh:4x4")
	o := simDefaults()
	o.Load, o.Length, o.Cycles, o.Warmup = 0.1, 4, 500, 100
	cfg, err := simConfig(g, o)
	if err != nil {
		t.Fatal(err)
	}
	sw, err := newSweep(g, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	var started, stopped, points int
	var b strings.Builder
	reason, err := sw.Run(context.Background(), func(i int, c *sim.Config) func() {
		started++
		return func() { stopped++ }
	}, func(p sweepPoint, model string) { points++; writePoint(&b, p, model) })
	if err != nil || reason != "" || started != 2 || stopped != 2 || points != 2 || len(sw.Done) != 2 {
		t.Fatalf("reason %q, err %v, started %d stopped %d points %d done %d", reason, err, started, stopped, points, len(sw.Done))
	}
	if !strings.HasPrefix(b.String(), "load 0.0500: sim ") {
		t.Errorf("point lines:\n%s", b.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sw2, _ := newSweep(g, cfg, 2)
	if reason, _ := sw2.Run(ctx, func(int, *sim.Config) func() { return func() {} }, func(sweepPoint, string) {}); reason != "interrupted" || len(sw2.Done) != 0 {
		t.Errorf("a done context: reason %q, %d loads", reason, len(sw2.Done))
	}
	if sw2.report("v", "", "p.svg", "interrupted").Verdict != "inconclusive" {
		t.Error("an interrupted sweep's report is not inconclusive")
	}
}

// TestCollectiveText runs EDN on an 8x8 torus at zero load and checks the lines printed.
func TestCollectiveText(t *testing.T) {
	g, _ := topology.Parse("torus:8x8")
	o := simDefaults()
	o.Algo, o.Length = "edn", 16
	c, ok, err := newCollective(g, o)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := c.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	c.WriteText(&b)
	for _, want := range []string{"edn on torus:8x8 from (0,0) (ts=0 tr=0 L=16 V=1): completion ", "  contention-free timed model: ", "  paper's formula: "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestComparisonRunAllTableAndReport compares tree and separate addressing at one count
// and two loads: the table has the reduction column and the report its instance.
func TestComparisonRunAllTableAndReport(t *testing.T) {
	g, _ := topology.Parse("mesh:4x4")
	o := simDefaults()
	o.Length, o.Cycles, o.Warmup = 2, 500, 100
	c, err := newComparison(g, o, "tree,separate", "2", "0.01,0.05", 8)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rows, reason, err := c.RunAll(context.Background(), &b)
	if err != nil || reason != "" || len(rows) != 1 {
		t.Fatalf("rows %d, reason %q, err %v", len(rows), reason, err)
	}
	for _, want := range []string{"mesh:4x4 n=2", "tree", "separate", "reduction", "0.01", "0.05"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	rep := c.Report("v", rows, "", "")
	if inst := rep.Instance; inst.Ports != "all" || inst.Length != 2 || inst.Prune != "on-stop" {
		t.Errorf("instance %v", inst)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows, reason, _ = c.RunAll(ctx, nil)
	if len(rows) != 0 || reason != "interrupted at cycle 0 after 0 of 1 destination counts" {
		t.Errorf("a done context: %d rows, reason %q", len(rows), reason)
	}
}
