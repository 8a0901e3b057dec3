package analytic

import (
	"fmt"
	"math"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Timing are the timing parameters of 004 §6.1 and 001 §4.2: ts the sending
// (start-up) latency, tr the receiving latency, tc the time per flit per channel, and L
// the message length in flits.
type Timing struct {
	Ts, Tr, Tc float64
	L          float64
}

// DCF returns the contention-free completion time of the DCF broadcast on a 4^k x 4^k
// torus: 5k ts + 4(4^k - 1)/3 tc + 2k L tc + 2k tr, the sum over the k phases of
// 5 ts + 4 δ_i tc + 2 L tc + 2 tr with δ_i = 4^(k-i).
//
// Reference: 004 §6.1.
func DCF(k int, t Timing) float64 {
	kk := float64(k)
	return 5*kk*t.Ts + 4*(math.Pow(4, kk)-1)/3*t.Tc + 2*kk*t.L*t.Tc + 2*kk*t.Tr
}

// DCFDouble returns the DCF time on a (2 x 4^k) x (2 x 4^k) torus:
// (5k+3) ts + 2(4^(k+1) - 1)/3 tc + (2k+1) L tc + (2k+1) tr.
//
// Reference: 004 §6.1.
func DCFDouble(k int, t Timing) float64 {
	kk := float64(k)
	return (5*kk+3)*t.Ts + 2*(math.Pow(4, kk+1)-1)/3*t.Tc + (2*kk+1)*t.L*t.Tc + (2*kk+1)*t.Tr
}

// EDN returns the contention-free time of the EDN broadcast on a 4^k x 4^k torus:
// 6k ts + 4(4^k - 1)/3 tc + 2k L tc + 2k tr.
//
// Reference: 004 §6.1 (citing Tsai & McKinley).
func EDN(k int, t Timing) float64 {
	kk := float64(k)
	return 6*kk*t.Ts + 4*(math.Pow(4, kk)-1)/3*t.Tc + 2*kk*t.L*t.Tc + 2*kk*t.Tr
}

// EDNDouble returns the contention-free EDN time on a (2 x 4^k) x (2 x 4^k) torus:
// 3(2k+1) ts + 2(4^(k+1) - 1)/3 tc + (2k+1) L tc + (2k+1) tr. On the 32 x 32 torus of
// 004 §6.2 (k = 2) it is 15 ts + 42 tc + 5 L tc + 5 tr.
//
// Reference: 004 §6.1.
func EDNDouble(k int, t Timing) float64 {
	kk := float64(k)
	return 3*(2*kk+1)*t.Ts + 2*(math.Pow(4, kk+1)-1)/3*t.Tc + (2*kk+1)*t.L*t.Tc + (2*kk+1)*t.Tr
}

// TorusSide returns the side of the torus the 004 formulas apply to for k and whether it
// is the doubled form: side = 4^k or 2 * 4^k.
func TorusSide(k int, double bool) int {
	s := 1 << (2 * k)
	if double {
		s *= 2
	}
	return s
}

// BroadcastFormula picks the formula of 004 §6.1 for a side x side torus: side = 4^k
// uses the plain form, side = 2*4^k the doubled one; other sides are an error.
func BroadcastFormula(algo string, side int, t Timing) (float64, error) {
	for k := 1; k <= 10; k++ {
		for _, dbl := range []bool{false, true} {
			if TorusSide(k, dbl) != side {
				continue
			}
			switch {
			case algo == "dcf" && !dbl:
				return DCF(k, t), nil
			case algo == "dcf":
				return DCFDouble(k, t), nil
			case algo == "edn" && !dbl:
				return EDN(k, t), nil
			case algo == "edn":
				return EDNDouble(k, t), nil
			}
			return 0, fmt.Errorf("analytic: no 004 formula for algorithm %q", algo)
		}
	}
	return 0, fmt.Errorf("analytic: side %d is not 4^k or 2*4^k", side)
}

// UTorus returns the U-torus multicast time ceil(log2(1+|D|)) (Ts + L Tc) for a
// destination set of size d: recursive doubling over the dimension-ordered chain, one
// start-up and one message transmission per step, distance ignored (wormhole routing
// is taken as distance-insensitive, so the formula omits the h*tc terms that the
// timed model of DESIGN.md charges).
//
// Reference: 001 §4.2 (Robinson et al.).
func UTorus(d int, t Timing) float64 {
	if d <= 0 {
		return 0
	}
	return float64(bitsLen(d)) * (t.Ts + t.L*t.Tc)
}

// bitsLen returns ceil(log2(1+d)).
func bitsLen(d int) int {
	n := 0
	for (1 << n) < d+1 {
		n++
	}
	return n
}

// Unicast returns the contention-free latency of one unicast over h channels:
// ts + h tc + L tc + tr.
//
// Reference: 004 §6.1.
func Unicast(h int, t Timing) float64 {
	return t.Ts + float64(h)*t.Tc + t.L*t.Tc + t.Tr
}

// CollectiveFormula returns the paper's completion time of the collective algo run as
// schedule s with software latencies ts, tr and length-flit messages, where one exists:
// 004 §6.1 for DCF and EDN on square 2-D tori, 001 §4.2 for U-torus.
func CollectiveFormula(g *topology.Network, algo string, ts, tr, length int, s *model.Schedule) (float64, error) {
	t := Timing{Ts: float64(ts), Tr: float64(tr), Tc: 1, L: float64(length)}
	switch algo {
	case "dcf", "edn":
		if g.Kind() != topology.Torus || g.Dims() != 2 || g.Size(0) != g.Size(1) {
			return 0, fmt.Errorf("no formula off square 2-D tori")
		}
		return BroadcastFormula(algo, g.Size(0), t)
	case "utorus":
		return UTorus(len(s.Destinations), t), nil
	}
	return 0, fmt.Errorf("no formula for %s", algo)
}
