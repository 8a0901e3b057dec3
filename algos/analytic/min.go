package analytic

import "fmt"

// MINThroughput evaluates the throughput model of 002 §4 for the unbuffered N = 2^n
// broadcast banyan with multicast: every slot each node offers a packet with probability
// p; a fraction m of packets are multicast with fanout f; a multicast packet at stage i
// is copied to both outputs of its 2x2 SE with probability copy[i] (copy has n entries,
// index = stage, stage n-1 first); a packet that loses a conflict is dropped.
//
// Re-derivation (the printed equations are garbled): at an SE input of stage i a packet
// is present with probability p_i; it asks for the upper output with probability
// a_i = p_i (1 + m_i c_i) / 2 (a unicast or uncopied multicast picks either output with
// probability 1/2; a copied multicast asks for both). The upper output carries a packet
// unless neither input asks for it:
//
//	p_{i-1} = 1 - (1 - a_i)^2 = p_i (1 + m_i c_i) - p_i^2 (1 + m_i c_i)^2 / 4    (1)
//
// A unicast reaches the output when it asks (probability u_i = p_i (1 - m_i)/2 per input)
// and either the other input does not ask or it wins the tie (1/2):
//
//	u_{i-1} = 2 u_i (1 - a_i) + 2 u_i a_i / 2
//	        = p_i (1 - m_i) - p_i^2 (1 - m_i)(1 + m_i c_i) / 4                     (2)
//
// which is the legible part of the printed eq. 2. Then m_{i-1} = 1 - u_{i-1}/p_{i-1},
// starting from p_{n-1} = p, m_{n-1} = m; with p', u' the rates out of stage 0 the
// throughput per output link is η = (p' - u')/f + u' (multicast copies count 1/f each).
//
// Reference: 002 §4.1.
func MINThroughput(n int, p, m float64, f int, copy []float64) (float64, error) {
	if n < 1 || len(copy) != n {
		return 0, fmt.Errorf("analytic: %d copy rates for %d stages", len(copy), n)
	}
	if p < 0 || p > 1 || m < 0 || m > 1 || f < 1 {
		return 0, fmt.Errorf("analytic: p %v, m %v must be in [0,1] and fanout %d >= 1", p, m, f)
	}
	pi, mi := p, m
	var ui float64
	for i := n - 1; i >= 0; i-- {
		c := copy[i]
		g := 1 + mi*c
		next := pi*g - pi*pi*g*g/4
		ui = pi*(1-mi) - pi*pi*(1-mi)*g/4
		pi = next
		if pi > 0 {
			mi = 1 - ui/pi
		} else {
			mi = 0
		}
	}
	return (pi-ui)/float64(f) + ui, nil
}

// RangeCopyRates returns c_i for multicast packets whose destinations are the f
// consecutive nodes s..s+f-1 with s uniform in 0..N-f, routed by region splitting in
// the broadcast banyan (stage i routes on address bit i, most significant first; a
// region [lo, hi] whose bit-i values differ is copied into [lo, ..01..1] and
// [..10..0, hi]): c_i = E[copies made at stage i] / E[copies present at stage i]. This
// is our reconstruction of 002 Fig. 5, which is missing (the paper draws s over all N
// nodes with wrap-around, recycled through the network; we keep ranges unwrapped so one
// pass suffices and say so in MN7).
func RangeCopyRates(n, f int) ([]float64, error) {
	N := 1 << n
	if f < 1 || f > N {
		return nil, fmt.Errorf("analytic: fanout %d outside 1..%d", f, N)
	}
	present := make([]float64, n)
	split := make([]float64, n)
	type rg struct{ lo, hi int }
	for s := 0; s+f <= N; s++ {
		cur := []rg{{s, s + f - 1}}
		for i := n - 1; i >= 0; i-- {
			var next []rg
			for _, r := range cur {
				present[i]++
				if (r.lo>>i)&1 != (r.hi>>i)&1 {
					split[i]++
					mid := (r.hi >> i) << i
					next = append(next, rg{r.lo, mid - 1}, rg{mid, r.hi})
				} else {
					next = append(next, r)
				}
			}
			cur = next
		}
	}
	c := make([]float64, n)
	for i := range c {
		if present[i] > 0 {
			c[i] = split[i] / present[i]
		}
	}
	return c, nil
}
