// Package analytic holds the closed-form and iterative performance models of the seed
// papers, as plain functions of their parameters, so that the simulator (checker/sim)
// and the claims catalogue (proofs HB3, MN7, DC7, DC8, NP8) can put them beside measured
// figures:
//
//   - HypercubeLatency: 003 eqs. 1-33, mean unicast and broadcast latency of a
//     wormhole hypercube with V virtual channels under Poisson traffic with a fraction b
//     of SBT broadcasts (iterative solution);
//   - DCF, DCFDouble, EDN, EDNDouble: the contention-free broadcast times of 004 §6.1;
//   - UTorus: the U-torus multicast time of 001 §4.2;
//   - MINThroughput and RangeCopyRates: the throughput recursion of 002 §4 for the
//     unbuffered wrap-around MIN with multicast (re-derived; the text is garbled).
//
// Everything here is pure and deterministic.
package analytic

import (
	"fmt"
	"math"
)

// HypercubeParams are the inputs of the 003 model.
type HypercubeParams struct {
	N int     // dimension n of the hypercube (2^n nodes)
	V int     // virtual channels per physical channel
	M int     // message length in flits
	B float64 // broadcast fraction b
	// Rate is I_g, the messages each node generates per cycle.
	Rate float64
	// Delta is the start-up latency Δ (003 §4 uses 1 cycle).
	Delta float64
	// Literal selects the paper's replicated-traffic rate (eqs. 3, 11, 25 as printed);
	// false selects the corrected rate (see HypercubeLatency).
	Literal bool
}

// HypercubeResult is the model's answer.
type HypercubeResult struct {
	Unicast   float64 // mean unicast latency L_u (eq. 33) + Δ
	Broadcast float64 // mean broadcast latency n(L_b + Δ) (eq. 1)
	// Channel is the traffic rate I_c on a channel (messages/cycle, eq. 4) and Rho the
	// largest channel utilisation I_c * S_i reached.
	Channel, Rho float64
	Vbar         float64 // average degree of VC multiplexing (eq. 32)
	Iterations   int
}

// ErrSaturated is returned when the model has no steady state: a channel or injection
// queue is loaded to 1 or more.
var ErrSaturated = fmt.Errorf("analytic: the network is saturated at this rate (utilisation >= 1)")

// HypercubeLatency solves the analytical model of Shahrabi & Ould-Khaoua (003 §3) by
// fixed-point iteration, starting from zero blocking, until the service times change by
// less than 1e-9 relative (at most 10000 rounds).
//
// Reconstruction and corrections (003 is partly garbled; each choice is the reading the
// surrounding text forces):
//
//   - Dimensions are numbered 1..n and visited highest first; the "i = 0" case of eqs.
//     18-19 is the lowest dimension, whose predecessor service time is M.
//   - Eq. 22 is evaluated in closed form: among the 2^(n-1) destinations that cross
//     dimension i, the lower dimensions j < i are crossed with probability 1/2 each, so
//     S_u,i = M + (1 + B_i) + (1/2) Σ_{j<i} (1 + B_j) with B_j = P_{V,j} W_{c,j} (eq. 21);
//     eq. 27 likewise is S_u = M + N/(2(N-1)) Σ_j (1 + B_j).
//   - Replicated traffic (eqs. 3, 10, 11, 25): as printed, I_c,r = (w̄/n)(2^(n-1)-1) b I_g
//     multiplies the rate of replicating nodes by w̄, the mean replication count over ALL
//     non-source nodes (leaves included), which counts the leaves' zero twice and
//     undercounts replicated messages by the factor (2^(n-1)-1)/(2^n-1) ≈ 1/2. Every
//     broadcast sends N-1 one-hop messages of which n leave the source, so the
//     replicated messages a node sends per cycle are (N-1-n) b I_g and
//     I_c,r = (N-1-n) b I_g / n; with it I_c = [(1-b) d̄ + b(N-1)] I_g / n, which is what
//     conservation of traffic demands. Literal = false (the default) uses the corrected
//     rate; Literal = true the printed one. Both are reported by claim HB3.
//   - Eq. 13 (S_b,i = M + B_b,i) omits the hop that eq. 21 charges unicasts; it is kept
//     as printed.
//   - The unicast latency eq. 33 has no start-up term while eq. 1 charges Δ per step;
//     since every message pays Δ (assumption g), Unicast adds Δ once.
//
// Reference: 003 §3, eqs. 1-33.
func HypercubeLatency(p HypercubeParams) (HypercubeResult, error) {
	var res HypercubeResult
	n := p.N
	if n < 1 || n > 20 {
		return res, fmt.Errorf("analytic: dimension %d out of range 1..20", n)
	}
	if p.V < 1 {
		return res, fmt.Errorf("analytic: vcs %d; at least one virtual channel is needed", p.V)
	}
	if p.M < 1 {
		return res, fmt.Errorf("analytic: message length %d; at least one flit is needed", p.M)
	}
	if p.B < 0 || p.B > 1 || p.Rate < 0 || math.IsNaN(p.Rate) {
		return res, fmt.Errorf("analytic: broadcast fraction %v and rate %v must be in [0,1] and >= 0", p.B, p.Rate)
	}
	N := math.Exp2(float64(n))
	M := float64(p.M)
	Ig := p.Rate
	Isu := (1 - p.B) * Ig                // eq. b
	Isb := p.B * Ig                      // eq. b
	dbar := float64(n) / 2 * N / (N - 1) // eq. 6
	Icu := Isu * dbar / float64(n)       // eq. 7
	Icb := Isb                           // eq. 8
	var wbar float64                     // eq. 10
	for i := 0; i < n; i++ {
		wbar += float64(i) * math.Exp2(float64(n-i-1)) / (N - 1)
	}
	var Isr, Icr float64
	if p.Literal {
		Isr = (N/2 - 1) * Isb         // eq. 3
		Icr = wbar / float64(n) * Isr // eq. 11
	} else {
		Isr = (N - 1 - float64(n)) * Isb // replicated messages sent per node per cycle
		Icr = Isr / float64(n)
	}
	Ic := Icu + Icb + Icr // eq. 4
	res.Channel = Ic
	// Injection queue of one output port (eqs. 25-26): unicasts spread over the n ports,
	// every broadcast source puts one copy in each port, replicated copies spread.
	var Is float64
	if p.Literal {
		Is = Isu/float64(n) + Isb + wbar/float64(n)*Isr // eq. 25
	} else {
		Is = Isu/float64(n) + Isb + Isr/float64(n)
	}

	Bl := make([]float64, n+1) // B_i = P_V,i W_c,i, i = 1..n
	S := make([]float64, n+1)
	Pv := make([][]float64, n+1)
	var Su, Sb float64
	for it := 1; it <= 10000; it++ {
		res.Iterations = it
		// Service times per dimension (eqs. 12, 13, 21, 22).
		var lower float64 // Σ_{j<i} (1 + B_j)
		maxChange := 0.0
		for i := 1; i <= n; i++ {
			Sui := M + 1 + Bl[i] + lower/2
			Sbi := M + Bl[i]
			Si := Sui
			if Ic > 0 {
				Si = ((Icb+Icr)*Sbi + Icu*Sui) / Ic
			}
			if d := math.Abs(Si-S[i]) / Si; d > maxChange {
				maxChange = d
			}
			S[i] = Si
			lower += 1 + Bl[i]
		}
		// Blocking per dimension (eqs. 14-19, 29-30).
		res.Rho = 0
		for i := 1; i <= n; i++ {
			rho := Ic * S[i]
			if rho > res.Rho {
				res.Rho = rho
			}
			if rho >= 1 {
				return res, ErrSaturated
			}
			prev := M
			if i > 1 {
				prev = S[i-1]
			}
			Wc := Ic * S[i] * S[i] * (1 + (S[i]-prev)*(S[i]-prev)/(S[i]*S[i])) / (2 * (1 - rho)) // eq. 19
			Pv[i] = vcOccupancy(p.V, rho)
			Bl[i] = Pv[i][p.V] * Wc
		}
		var sumB float64
		for i := 1; i <= n; i++ {
			sumB += 1 + Bl[i]
		}
		Su = M + N/(2*(N-1))*sumB // eq. 27
		Sb = M                    // eqs. 23-24
		for i := 1; i <= n; i++ {
			Sb += Bl[i] / float64(n)
		}
		if it > 1 && maxChange < 1e-9 {
			break
		}
	}
	// Source queue (eqs. 26-28).
	Ss := Su
	if tot := Isu + Isb + Isr; tot > 0 {
		Ss = ((Isb+Isr)*Sb + Isu*Su) / tot
	}
	if Is*Ss >= 1 {
		return res, ErrSaturated
	}
	Ws := Is * Ss * Ss * (1 + (Ss-M)*(Ss-M)/(Ss*Ss)) / (2 * (1 - Is*Ss))
	// VC multiplexing (eqs. 31-32).
	var vbar float64
	for i := 1; i <= n; i++ {
		var num, den float64
		for v := 1; v <= p.V; v++ {
			num += float64(v*v) * Pv[i][v]
			den += float64(v) * Pv[i][v]
		}
		if den > 0 {
			vbar += num / den
		} else {
			vbar++
		}
	}
	vbar /= float64(n)
	res.Vbar = vbar
	Lb := (Sb + Ws) * vbar                      // eq. 2
	res.Broadcast = float64(n) * (Lb + p.Delta) // eq. 1
	res.Unicast = (Su+Ws)*vbar + p.Delta        // eq. 33 (+Δ)
	return res, nil
}

// vcOccupancy returns P_0..P_V, the probabilities that v VCs of a channel with
// utilisation rho are busy (eqs. 29-30, Dally's Markov chain).
func vcOccupancy(V int, rho float64) []float64 {
	q := make([]float64, V+1)
	q[0] = 1
	for v := 1; v <= V; v++ {
		if v < V {
			q[v] = q[v-1] * rho
		} else {
			q[v] = q[v-1] * rho / (1 - rho)
		}
	}
	var s float64
	for _, x := range q {
		s += x
	}
	for v := range q {
		q[v] /= s
	}
	return q
}
