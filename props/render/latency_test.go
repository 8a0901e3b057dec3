package render_test

import (
	"math"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// TestLatencyPanels simulates hybrid traffic on a 5-cube (10% of the messages broadcast
// by 003's spanning binomial tree) at four loads and draws unicast beside broadcast with
// their confidence intervals; the picture is pinned by a golden file (the simulator is
// seeded, so the figures are reproducible).
func TestLatencyPanels(t *testing.T) {
	g, err := topology.Parse("hypercube:5")
	if err != nil {
		t.Fatal(err)
	}
	var xs []float64
	uni := props.Curve{Name: "unicast, simulated", Colour: "#0072b2"}
	bc := props.Curve{Name: "broadcast, simulated", Colour: "#e69f00"}
	for _, rate := range []float64{0.001, 0.002, 0.003, 0.004} {
		res, err := sim.Run(sim.Config{Grid: g, Length: 8, Ts: 1, Seed: 7, Warmup: 500, Cycles: 20000, VCs: 1,
			Traffic: sim.Traffic{Rate: rate, Broadcast: 0.1}})
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, rate*8)
		uni.Y, uni.CI = append(uni.Y, res.Unicast.Mean), append(uni.CI, res.Unicast.CI95)
		bc.Y, bc.CI = append(bc.Y, res.Broadcast.Mean), append(bc.CI, res.Broadcast.CI95)
	}
	pic := render.LatencyPanels("hypercube:5, L=8, 10% broadcasts (003), all-port", xs, []props.Panel{
		{Title: "unicast", Curves: []props.Curve{uni}},
		{Title: "broadcast", Curves: []props.Curve{bc}},
	})
	if n := strings.Count(string(pic), "class=\"ci\""); n < 6 {
		t.Errorf("%d confidence bars; want one per finite interval (at least 6)", n)
	}
	for _, want := range []string{"id=\"panel0\"", "id=\"panel1\"", ">unicast<", ">broadcast<", "95% confidence interval"} {
		if !strings.Contains(string(pic), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	golden(t, "latency-hypercube5.svg", pic)
}

// TestLatencyGap: a saturated load (NaN mean) breaks the line and draws no point or bar.
func TestLatencyGap(t *testing.T) {
	c := props.Curve{Name: "u", Colour: "#000", Y: []float64{10, 12, math.NaN(), 20}, CI: []float64{1, 1, 1, math.NaN()}}
	pic := string(render.LatencyPanels("t", []float64{0.1, 0.2, 0.3, 0.4}, []props.Panel{{Title: "p", Curves: []props.Curve{c}}}))
	if n := strings.Count(pic, "<polyline"); n != 1 {
		t.Errorf("%d line pieces; want 1 (the single point after the gap draws no line)", n)
	}
	if n := strings.Count(pic, "class=\"point\""); n != 3 {
		t.Errorf("%d points; want 3", n)
	}
	if n := strings.Count(pic, "class=\"ci\""); n != 2 {
		t.Errorf("%d bars; want 2", n)
	}
}
