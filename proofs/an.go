package proofs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// The AN claims: routing on any network (irregular graphs, grids with failed links,
// dragonflies, fat-trees), judged like RT1-RT6: statically (the channel dependency
// graph) on whole networks and by the explorer on every placement of a few worms on
// small ones.

// randomFaultSpecs returns n specs of base with k failed links each (both channels of a
// link), drawn from seed; draws that disconnect the grid are redrawn.
func randomFaultSpecs(base string, k, n int, seed uint64) ([]string, error) {
	g, err := topology.Parse(base)
	if err != nil {
		return nil, err
	}
	var links [][2]topology.NodeID
	for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
		if ch := g.Channel(c); ch.From < ch.To {
			links = append(links, [2]topology.NodeID{ch.From, ch.To})
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xfa17))
	var out []string
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		var items []string
		for _, i := range rng.Perm(len(links))[:k] {
			items = append(items, g.NodeName(links[i][0])+"-"+g.NodeName(links[i][1]))
		}
		f, err := topology.WithFaults(g, strings.Join(items, ","))
		if err != nil {
			continue // disconnected: draw again
		}
		out = append(out, f.Spec())
	}
	return out, nil
}

// runAN1 proves up*/down* on random connected irregular networks and on meshes with
// random failed links (the 8x8 mesh with three), statically, with roots other than node
// 0 too, and explores it on small ones. Reference: Schroeder et al., IEEE JSAC 9(8)
// 1991, §6.6 (up*/down* routing is deadlock-free on any topology).
func runAN1(ctx context.Context, env Env) Outcome {
	seeds := map[Size]int{Quick: 6, Default: 20, Full: 50}[env.Size]
	var st []rtStatic
	for s := 1; s <= seeds; s++ {
		st = append(st, rtStatic{name: "updown", topo: fmt.Sprintf("random:12,18,%d", s), wantCDG: true},
			rtStatic{name: fmt.Sprintf("updown:r%d", s%12), topo: fmt.Sprintf("random:12,18,%d", s), wantCDG: true})
	}
	faulty, err := randomFaultSpecs("mesh:8x8", 3, seeds, 1)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	for _, t := range faulty {
		st = append(st, rtStatic{name: "updown", topo: t, wantCDG: true})
	}
	fams := []rtFlit{{routing: "updown", topo: "random:5,7,3", max: 2, lb: rtLB},
		{routing: "updown", topo: "mesh:3x3/faults=(1,1)-(2,1)", max: 2, lb: rtLB}}
	if env.Size == Full {
		fams = append(fams, rtFlit{routing: "updown", topo: "random:6,8,1", max: 3, sample: 100, seed: 1, lb: rtLB})
	}
	out := staticAndFlit(ctx, env, st, fams)
	out.Note = fmt.Sprintf("%d random networks of 12 routers and 18 links, roots r0 and r(seed mod 12); %d meshes 8x8 with 3 random failed links; ", seeds, len(faulty)) + out.Note
	return out
}

// runAN2 searches irregular networks with a cycle (random networks of N routers and N
// links: a tree and one more link, N = 4..6) in order of size and, on each, placements
// of 1, 2, ... worms (L=2, B=1) under shortest-path routing on one VC, stopping at the
// first deadlock: the smallest network and the fewest worms that deadlock. The static
// part shows the cyclic channel dependency graph the deadlock closes.
func runAN2(ctx context.Context, env Env) Outcome {
	var out Outcome
	var notes []string
	for n := 4; n <= 6; n++ {
		for seed := 1; seed <= 3; seed++ {
			topo := fmt.Sprintf("random:%d,%d,%d", n, n, seed)
			cyclic, snotes, _, err := runStatic(ctx, []rtStatic{{name: "shortest-path", topo: topo, wantCDG: false}})
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err, Note: strings.Join(notes, "; ")}
			}
			out.Instances++
			if !cyclic {
				continue // its cycle is a triangle: every route has one hop there
			}
			for k := 1; k <= 4; k++ {
				res, fnotes, err := runFlitExactly(ctx, env, rtFlit{routing: "shortest-path", topo: topo, max: k, lb: rtLB})
				out.Instances += res.instances
				out.States += res.states
				if err != nil {
					return Outcome{Verdict: Inconclusive, Err: err, Note: strings.Join(append(notes, fnotes...), "; ")}
				}
				if res.first != nil {
					out.Verdict = Violated
					notes = append(notes, snotes...)
					notes = append(notes, fnotes...)
					notes = append(notes, flitWitness(&out, res)...)
					notes = append(notes, fmt.Sprintf("smallest network that deadlocks: %s with %d worms (no placement of fewer worms deadlocks there, and no network before it in the search does)", topo, k))
					out.Note = strings.Join(notes, "; ")
					return out
				}
			}
		}
	}
	out.Verdict = Holds
	out.Note = strings.Join(append(notes, "no network of the search deadlocks"), "; ")
	return out
}

// runAN3 shows both halves of the dragonfly claim: minimal routing on one VC has a
// cyclic channel dependency graph and the explorer finds its deadlock on the smallest
// dragonfly with a cycle of groups (3 groups of 2 routers); with its two VC classes the
// graph is acyclic on dragonflies of every arrangement up to 72 terminals, as is
// Valiant's with three, and the explorer finds no deadlock. The claim holds when both
// halves come out so. Reference: Kim, Dally, Scott & Abts, ISCA 2008, §4.1 (minimal
// routing needs 2 VCs, Valiant 3).
func runAN3(ctx context.Context, env Env) Outcome {
	var st []rtStatic
	for _, arr := range topology.Arrangements {
		for _, d := range []string{"a=2,p=1,h=1", "a=4,p=2,h=2"} {
			topo := "dragonfly:" + d + ",arrangement=" + arr
			st = append(st, rtStatic{name: "dragonfly-min", topo: topo, wantCDG: true},
				rtStatic{name: "dragonfly-valiant", topo: topo, wantCDG: true},
				rtStatic{name: "dragonfly-min-1vc", topo: topo, wantCDG: false})
		}
	}
	small := "dragonfly:a=2,p=0,h=1"
	fams := []rtFlit{{routing: "dragonfly-min", topo: small, max: 2, lb: rtLB},
		{routing: "dragonfly-valiant", topo: small, max: 2, lb: rtLB}}
	if env.Size == Full {
		fams = append(fams, rtFlit{routing: "dragonfly-min", topo: small, max: 3, lb: rtLB})
	}
	out := staticAndFlit(ctx, env, st, fams)
	if out.Verdict != Holds {
		return out
	}
	// without the classes: the smallest number of worms that deadlocks on the small one
	for k := 1; k <= 3; k++ {
		res, fnotes, err := runFlitExactly(ctx, env, rtFlit{routing: "dragonfly-min-1vc", topo: small, max: k, lb: rtLB})
		out.Instances += res.instances
		out.States += res.states
		out.Note += "; " + strings.Join(fnotes, "; ")
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Note: out.Note}
		}
		if res.first != nil {
			var w Outcome
			out.Note += "; without VC classes: " + strings.Join(flitWitness(&w, res), "; ") + fmt.Sprintf(" (%d worms; no fewer deadlock)", k)
			out.Witness, out.Files, out.Evidence = w.Witness, w.Files, w.Evidence
			return out
		}
	}
	out.Verdict = Violated
	out.Note += "; NOT AS EXPECTED: minimal routing on one VC did not deadlock with up to 3 worms"
	return out
}

// runAN4 proves fat-tree up/down routing (nearest common ancestor) statically on k-ary
// n-trees up to the 4-ary 3-tree and explores it on the 2-ary 2-tree. Reference: Petrini
// & Vanneschi, IPPS 1997, §3; every route goes up then down the tree's levels.
func runAN4(ctx context.Context, env Env) Outcome {
	var st []rtStatic
	for _, t := range []string{"fattree:2,2", "fattree:2,3", "fattree:3,2", "fattree:4,2", "fattree:4,3", "fattree:2,5"} {
		st = append(st, rtStatic{name: "fattree-nca", topo: t, wantCDG: true})
	}
	fams := []rtFlit{{routing: "fattree-nca", topo: "fattree:2,2", max: 2, lb: rtLB}}
	if env.Size == Full {
		fams = append(fams, rtFlit{routing: "fattree-nca", topo: "fattree:2,2", max: 3, lb: rtLB})
	}
	return staticAndFlit(ctx, env, st, fams)
}
