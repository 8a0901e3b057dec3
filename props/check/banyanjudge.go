package check

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// maxEnumerate bounds the networks whose monotone patterns are enumerated one by one
// (2^N destination sets times the start positions).
const maxEnumerate = 16

// enumerateMonotone checks Property 1's family by enumerating every pattern (the naive
// twin of the pair reduction, banyan.Property1ByPairs): each pattern's unicast paths are
// tested for a shared link, and the first blocking pattern is the witness, its
// conflict found by topology.Banyan.FirstConflict. It returns the conflict, the patterns
// checked, and fills rep's witness. Cost O(patterns * N log N).
func enumerateMonotone(b *topology.Banyan, o banyan.Order, cc banyan.Concentration, rep *props.Report) (*topology.LinkConflict, int64, error) {
	return enumeratePatterns(b, banyan.MonotonePatterns(b.Nodes(), o, cc), rep)
}

// enumeratePatterns checks every unicast pattern of seq (see enumerateMonotone).
func enumeratePatterns(b *topology.Banyan, seq iter.Seq[[]topology.BanyanPacket], rep *props.Report) (*topology.LinkConflict, int64, error) {
	t, err := banyan.NewPathTable(b, 0)
	if err != nil {
		return nil, 0, internalf("%v", err) // enumeration is bounded to maxEnumerate nodes
	}
	acc := t.NewScratch()
	var srcs, dsts []int
	var count int64
	for pat := range seq {
		srcs, dsts = srcs[:0], dsts[:0]
		for _, p := range pat {
			srcs, dsts = append(srcs, p.Source), append(dsts, p.Dest.Min)
		}
		count++
		if _, _, blocked := t.Blocks(srcs, dsts, acc); !blocked {
			continue
		}
		c, err := b.FirstConflict(pat)
		if err != nil {
			return nil, count, internalf("%v", err)
		}
		if c == nil {
			return nil, count, internalf("pattern %v blocks by the path table but not by the naive check", pat)
		}
		rep.Witness = conflictWitness(c, &BanyanConflict{Pattern: slices.Clone(pat)})
		rep.Text = fmt.Sprintf("%d patterns enumerated", count)
		return c, count, nil
	}
	rep.Text = fmt.Sprintf("%d patterns enumerated", count)
	return nil, count, nil
}

func regionRouteAlgorithm() Algorithm {
	return Algorithm{
		Name:    "region-route",
		Summary: "region-encoded self-routing in the broadcast banyan reaches exactly its region (002 §2.2)",
		Doc: `Region-encoded self-routing in the broadcast banyan (002 §2.2): a header [min, max]
replicates at a switch element when the region spans both of its outputs. regions checks
every source and every interval of banyan:N, and every phase-1 copy of the two-phase
multicast (§3.1), reach exactly their region along a tree.`,
		Properties: []Support{{checker.PropRegions, props.SemStatic}},
		prepare:    prepareRegions,
	}
}

// prepareRegions is region-route's regions check.
func prepareRegions(r *request) (job, error) {
	b, err := banyanTopo(r.topology)
	if err != nil {
		return nil, err
	}
	return func(context.Context) (*props.Report, error) {
		start := time.Now()
		rep := r.report(b.Spec(), map[string]any{})
		rep.Command = "check"
		err := judgeRegions(b, rep)
		rep.Stats.Seconds = time.Since(start).Seconds()
		return rep, err
	}, nil
}

// judgeRegions checks region-encoded routing in the broadcast banyan b (002 §2.2): for every
// source and every interval [min, max] the region tree uses no channel twice and its
// output links are exactly min..max; and for every phase-1 copy of the two-phase
// multicast (§3.1: every source, fanout f and start s with s+f-1 <= N-1) the region
// reaches exactly s..s+f-1. It fills rep: the verdict, stats counting both, figures
// region_trees and phase1_copies, and an instance witness for the first failure.
// Cost O(N^3 log N) trees.
func judgeRegions(b *topology.Banyan, rep *props.Report) error {
	return regions(b, b.RegionTree, b.RegionDestinations, rep)
}

// regions is judgeRegions with the routing functions as parameters, so that a test can
// check that a broken router is caught.
func regions(b *topology.Banyan, regionTree func(int, topology.Region) ([]topology.TreeLink, error), regionDests func(int, topology.Region) ([]int, error), rep *props.Report) error {
	n := b.Nodes()
	rep.Verdict, rep.Stats.Unit = props.Holds, "region trees and phase-1 copies"
	fail := func(detail map[string]any, what string) {
		rep.Verdict, rep.Reason, rep.Text = props.Violated, what, what
		rep.Witness = &props.Witness{Kind: props.WitnessInstance, Violation: what, Detail: detail}
	}
	seen := make([]int, b.Channels())
	stamp := 0
	var trees, copies int64
	defer func() {
		rep.Stats.Checked = trees + copies
		rep.Figures = map[string]float64{"region_trees": float64(trees), "phase1_copies": float64(copies)}
	}()
	for src := 0; src < n; src++ {
		for lo := 0; lo < n; lo++ {
			for hi := lo; hi < n; hi++ {
				stamp++
				trees++
				region := topology.Region{Min: lo, Max: hi}
				tree, err := regionTree(src, region)
				if err != nil {
					return internalf("%v", err)
				}
				bad := ""
				for _, l := range tree {
					if seen[l.Channel] == stamp {
						bad = "channel " + b.ChannelName(l.Channel) + " used twice"
						break
					}
					seen[l.Channel] = stamp
				}
				var ys []int
				for _, l := range tree {
					if s, y := b.Link(l.Channel); s < 0 {
						ys = append(ys, y)
					}
				}
				slices.Sort(ys)
				next := lo
				for _, y := range ys {
					if y != next {
						bad = fmt.Sprintf("reaches %v", ys)
						break
					}
					next++
				}
				if bad == "" && next != hi+1 {
					bad = fmt.Sprintf("reaches %v", ys)
				}
				if bad != "" {
					fail(map[string]any{"N": n, "source": src, "region": region, "problem": bad},
						fmt.Sprintf("source %d, region %v: %s", src, region, bad))
					return nil
				}
			}
		}
	}
	for src := 0; src < n; src++ {
		for f := 1; f <= n; f++ {
			for _, s := range banyan.ValidStarts(n, f, false) {
				p := banyan.Phase1(banyan.Multicast{Source: src, Dests: make([]int, f)}, s)
				ys, err := regionDests(p.Source, p.Dest)
				if err != nil {
					return internalf("%v", err)
				}
				copies++
				if len(ys) != f || ys[0] != s || ys[f-1] != s+f-1 {
					fail(map[string]any{"phase1": p, "reaches": ys}, fmt.Sprintf("phase-1 copy %v reaches %v", p, ys))
					return nil
				}
			}
		}
	}
	rep.Reason = fmt.Sprintf("every region tree of N = %d reaches exactly its interval along a tree, and every phase-1 copy its region", n)
	return nil
}
