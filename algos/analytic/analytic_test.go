package analytic

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Reference: 004 §6.1.
func TestFormulas(t *testing.T) {
	tm := Timing{Ts: 3, Tr: 5, Tc: 1, L: 10}
	cases := []struct {
		name      string
		got, want float64
	}{
		{"DCF k=1", DCF(1, tm), 5*3 + 4 + 2*10 + 2*5},
		{"DCF k=2 (sum of phases with δ = 4, 1)", DCF(2, tm), (5*3 + 4*4 + 2*10 + 2*5) + (5*3 + 4*1 + 2*10 + 2*5)},
		{"EDN k=1", EDN(1, tm), 6*3 + 4 + 2*10 + 2*5},
		{"EDN 32x32", EDNDouble(2, tm), 15*3 + 42 + 5*10 + 5*5},
		{"DCF 32x32", DCFDouble(2, tm), 13*3 + 42 + 5*10 + 5*5},
		{"U-torus |D|=7", UTorus(7, tm), 3 * (3 + 10)},
		{"U-torus |D|=8", UTorus(8, tm), 4 * (3 + 10)},
		{"unicast", Unicast(4, tm), 3 + 4 + 10 + 5},
	}
	for _, c := range cases {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v; want %v", c.name, c.got, c.want)
		}
	}
	if v, err := BroadcastFormula("edn", 32, tm); err != nil || !near(v, EDNDouble(2, tm)) {
		t.Errorf("BroadcastFormula(edn, 32) = %v, %v", v, err)
	}
	if _, err := BroadcastFormula("dcf", 12, tm); err == nil {
		t.Error("side 12 accepted")
	}
}

// Reference: 003 eqs. 1, 6, 27, 33 at zero load.
func TestHypercubeZeroLoad(t *testing.T) {
	for n := 3; n <= 8; n++ {
		r, err := HypercubeLatency(HypercubeParams{N: n, V: 3, M: 32, B: 0.01, Rate: 0, Delta: 1})
		if err != nil {
			t.Fatal(err)
		}
		N := math.Exp2(float64(n))
		if want := 32 + N/(2*(N-1))*float64(n) + 1; !near(r.Unicast, want) {
			t.Errorf("n=%d unicast %v; want %v", n, r.Unicast, want)
		}
		if want := float64(n) * 33; !near(r.Broadcast, want) {
			t.Errorf("n=%d broadcast %v; want %v", n, r.Broadcast, want)
		}
	}
}

func TestHypercubeLoadAndSaturation(t *testing.T) {
	prev := 0.0
	for _, rate := range []float64{0.001, 0.005, 0.01, 0.015} {
		r, err := HypercubeLatency(HypercubeParams{N: 6, V: 3, M: 32, B: 0.01, Rate: rate, Delta: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r.Unicast <= prev {
			t.Errorf("latency not increasing with load at %v", rate)
		}
		prev = r.Unicast
		// Corrected channel rate = conservation of traffic.
		N := 64.0
		dbar := 3 * N / (N - 1)
		if want := (0.99*dbar + 0.01*(N-1)) * rate / 6; !near(r.Channel, want) {
			t.Errorf("channel rate %v; want %v", r.Channel, want)
		}
	}
	if _, err := HypercubeLatency(HypercubeParams{N: 6, V: 3, M: 32, B: 0.01, Rate: 0.1}); !errors.Is(err, ErrSaturated) {
		t.Errorf("rate 0.1 should saturate, got %v", err)
	}
	lit, _ := HypercubeLatency(HypercubeParams{N: 6, V: 3, M: 32, B: 0.03, Rate: 0.01, Literal: true})
	cor, _ := HypercubeLatency(HypercubeParams{N: 6, V: 3, M: 32, B: 0.03, Rate: 0.01})
	if lit.Channel >= cor.Channel {
		t.Errorf("the printed replicated rate should be the smaller: %v vs %v", lit.Channel, cor.Channel)
	}
}

// naivePatel is the classic unicast banyan recursion p' = 1 - (1 - p/2)^2.
func naivePatel(n int, p float64) float64 {
	for i := 0; i < n; i++ {
		p = 1 - (1-p/2)*(1-p/2)
	}
	return p
}

// Reference: 002 §4.1; with m = 0 the recursion must reduce to Patel's.
func TestMINThroughputReducesToPatel(t *testing.T) {
	for _, p := range []float64{0.1, 0.5, 1} {
		got, err := MINThroughput(7, p, 0, 1, make([]float64, 7))
		if err != nil {
			t.Fatal(err)
		}
		if want := naivePatel(7, p); !near(got, want) {
			t.Errorf("p=%v: %v; want %v", p, got, want)
		}
	}
	c, _ := RangeCopyRates(3, 8)
	for i, x := range c {
		if x != 1 {
			t.Errorf("full range must split at every stage; c[%d] = %v", i, x)
		}
	}
	c, _ = RangeCopyRates(4, 1)
	for i, x := range c {
		if x != 0 {
			t.Errorf("fanout 1 never splits; c[%d] = %v", i, x)
		}
	}
	if _, err := MINThroughput(3, 1, 0.5, 2, []float64{1}); err == nil {
		t.Error("wrong copy-rate count accepted")
	}
}

func ExampleHypercubeLatency() {
	r, _ := HypercubeLatency(HypercubeParams{N: 6, V: 3, M: 32, B: 0.01, Rate: 0.005, Delta: 1})
	fmt.Printf("unicast %.1f cycles, broadcast %.1f cycles\n", r.Unicast, r.Broadcast)
	// Output: unicast 44.9 cycles, broadcast 246.8 cycles
}

// TestMeanDistance compares the per-dimension sum with the direct mean over all pairs of
// distinct nodes.
func TestMeanDistance(t *testing.T) {
	for _, spec := range []string{"mesh:3x3", "torus:4", "torus:5x3", "mesh:2x3x4", "hypercube:4", "torus:8x8"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		n := g.Nodes()
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				sum += float64(g.Distance(topology.NodeID(a), topology.NodeID(b)))
			}
		}
		if got, want := MeanDistance(g), sum/float64(n*(n-1)); got != want {
			t.Errorf("%s: MeanDistance %v, direct %v", spec, got, want)
		}
	}
}

// TestCollectiveFormula checks that the formula exists only where the paper gives one.
func TestCollectiveFormula(t *testing.T) {
	sq, _ := topology.Parse("torus:8x8")
	mesh, _ := topology.Parse("mesh:8x8")
	if x, err := CollectiveFormula(sq, "dcf", 1, 1, 8, nil); err != nil || !(x > 0) {
		t.Fatalf("dcf on a square torus: %v, %v", x, err)
	}
	if _, err := CollectiveFormula(mesh, "dcf", 1, 1, 8, nil); err == nil {
		t.Fatal("a DCF formula on a mesh")
	}
	if _, err := CollectiveFormula(sq, "sbt", 1, 1, 8, nil); err == nil {
		t.Fatal("a formula for sbt")
	}
}
