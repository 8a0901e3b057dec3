package decide

import (
	"context"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// The ring scout: configurations built from the torus's structure rather than searched
// for, for relations whose deadlocks need many worms round a ring (a dimension-order VC
// without dateline classes beside adaptive ones: duato-nodateline on a 13x13 torus has
// a 6-worm configuration that the exact search, proving 3 worms impossible first, does
// not reach).
//
// A candidate lies on the ring of dimension d through the origin, all its worms heading
// one way s round it: h header positions x_0 = 0 < x_1 < ... < x_{h-1} (x_j = floor(jk/h),
// the gaps as even as they go), and at each position x_j, for each of l lanes, one worm whose header is at
// x_j, holding every channel of the t gaps before it (from x_{j-t}, its source), its
// destination r hops past x_j. A worm's hops in its i-th gap take VC vcs[a*t+i] (lane
// a): the t worms of a lane crossing one channel cross it in different gaps, so on
// different VCs, and every channel out of a header position is held on all t*l VCs.
// With t = 1 and two lanes that is two worms per position (duato-nodateline on
// torus:4x4, 8 worms); with t = 2 and one lane (VC 0 then VC 1) one worm per position
// (torus:7 has 7, not 8). Nothing about the relation is assumed: ringCandidate asks the
// relation for every hop and every header's outputs and keeps a candidate only when
// each hop is permitted, no (channel, VC) is held twice and every output of every
// header is held: a deadlock configuration by definition. The candidates are offered to
// the decision's Accept (the flit model realises them from the empty network) fewest
// worms first, then fewest channels.

// ringAsks bounds the candidates the ring scout offers to Accept (each is a flit
// search).
const ringAsks = 4

// ringScout returns the smallest candidate round a ring of rel's torus that is a
// deadlock configuration and that ref accepts; nil when none is (no ring, no candidate,
// every one refused, or ctx ended). Cost O(dimensions x ring size^3 x VCs) Route calls
// before the asks.
func ringScout(ctx context.Context, rel routing.Relation, ref *refusals) *Configuration {
	g := rel.Grid()
	if g == nil || g.IsGraph() {
		return nil
	}
	var cands []*Configuration
	seen := map[string]bool{}
	for d := range g.Dims() {
		k := g.Size(d)
		if !g.Wraps(d) {
			continue
		}
		for _, s := range []int{1, -1} {
			for h := 2; h <= k; h++ {
				for r := 1; r <= k/2; r++ {
					for _, vcs := range laneSets(rel.VCs()) {
						for t := 1; t <= len(vcs); t++ {
							if len(vcs)%t != 0 {
								continue
							}
							if stopped(ctx) != nil {
								return nil
							}
							c := ringCandidate(rel, ringShape{dim: d, dir: s, positions: h, past: r, gaps: t, vcs: vcs})
							if c == nil || seen[c.key()] {
								continue
							}
							seen[c.key()] = true
							cands = append(cands, c)
						}
					}
				}
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b *Configuration) int {
		if len(a.Worms) != len(b.Worms) {
			return len(a.Worms) - len(b.Worms)
		}
		return a.Channels - b.Channels
	})
	for i, c := range cands {
		if i == ringAsks || stopped(ctx) != nil || ref.full() != nil {
			break
		}
		if ref.ask(c) {
			return c
		}
	}
	return nil
}

// laneSets returns the VC lists tried: every VC in order and in reverse, then each
// VC alone.
func laneSets(vcs int) [][]int {
	all := make([]int, vcs)
	for v := range all {
		all[v] = v
	}
	out := [][]int{all}
	if vcs > 1 {
		out = append(out, slices.Clone(all))
		slices.Reverse(out[1])
		for v := range vcs {
			out = append(out, []int{v})
		}
	}
	return out
}

// ringShape is one candidate's shape: the ring's dimension, the way round it (+1 or
// -1), the header positions, how many hops past its header each worm's destination
// lies, the gaps each worm holds, and the VCs of its hops gap by gap, lane after lane
// (len(vcs)/gaps lanes).
type ringShape struct {
	dim, dir, positions, past, gaps int
	vcs                             []int
}

// ringCandidate builds the candidate of shape sh and returns it when it is a deadlock
// configuration of rel (the ring scout's comment says what is checked), else nil.
func ringCandidate(rel routing.Relation, sh ringShape) *Configuration {
	g := rel.Grid()
	k, h, t := g.Size(sh.dim), sh.positions, sh.gaps
	if h < 2 || h > k || t < 1 || t > h || len(sh.vcs)%t != 0 {
		return nil
	}
	origin := make([]int, g.Dims())
	node := func(p int) topology.NodeID {
		x := slices.Clone(origin)
		x[sh.dim] = ((sh.dir*p)%k + k) % k
		return g.Node(x...)
	}
	// pos[j] for j in -t..h: the positions, pos[j+h] = pos[j] + k (once round).
	pos := make([]int, h+t+1)
	at := func(j int) *int { return &pos[j+t] }
	for j := range h {
		*at(j + 1) = (j + 1) * k / h // the longer gaps spread round the ring
	}
	for j := -1; j >= -t; j-- {
		*at(j) = *at(j + h) - k
	}
	_, budgeted := rel.(routing.Budgeted)
	held := map[cdg.Vertex]bool{}
	c := &Configuration{}
	var heads []routing.Header
	for j := 1; j <= h; j++ { // header positions 1..h, the last one position 0 again
		for a := range len(sh.vcs) / t {
			src, dst := node(*at(j - t)), node(*at(j)+sh.past)
			hd := routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
			w := ConfWorm{Src: src, Dst: dst}
			for i := range t {
				vc := sh.vcs[a*t+i]
				for p := *at(j - t + i); p < *at(j - t + i + 1); p++ {
					ch := g.ChannelBetween(node(p), node(p+1))
					if ch == topology.None {
						return nil
					}
					o, ok := permitted(rel, hd, ch, vc)
					x := cdg.Vertex{Channel: ch, VC: vc}
					if !ok || held[x] {
						return nil
					}
					held[x] = true
					w.Route = append(w.Route, x)
					hd.At, hd.In = node(p+1), routing.Input{Channel: ch, VC: vc}
					if budgeted && o.Misroute {
						hd.Misroutes++
					}
				}
			}
			if hd.At == hd.Dst {
				return nil
			}
			w.Held, w.Misroutes = len(w.Route), hd.Misroutes
			c.Worms = append(c.Worms, w)
			c.Channels += w.Held
			heads = append(heads, hd)
		}
	}
	for i, hd := range heads {
		outs := rel.Route(hd, nil)
		if len(outs) == 0 {
			return nil
		}
		for _, o := range outs {
			x := cdg.Vertex{Channel: o.Channel, VC: o.VC}
			if !held[x] {
				return nil
			}
			if !slices.Contains(c.Worms[i].Waits, x) {
				c.Worms[i].Waits = append(c.Worms[i].Waits, x)
			}
		}
	}
	return c
}

// permitted returns the output of rel for header h on channel ch and VC vc, if rel
// permits it.
func permitted(rel routing.Relation, h routing.Header, ch topology.ChannelID, vc int) (routing.Output, bool) {
	for _, o := range rel.Route(h, nil) {
		if o.Channel == ch && o.VC == vc {
			return o, true
		}
	}
	return routing.Output{}, false
}
