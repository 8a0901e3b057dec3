package proofs

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/check"
)

// The deadlock claims of unicast wormhole routing, checked in the flit semantics on
// families of worm placements (algos/unicast Family: every connected placement up to
// the topology's symmetries, or a seeded sample). Reference: Dally & Seitz,
// "Deadlock-free message routing in multiprocessor interconnection networks" (000 [4]),
// as cited by 000 §5.1 ("two virtual channels per physical channel are required to
// avoid deadlock" on tori) and 004.
// The (L, B) pairs of the WH families, and the state bound of one instance.
var (
	whLB   = [][2]int{{2, 1}, {2, 2}, {3, 1}, {3, 2}}
	whL2B1 = [][2]int{{2, 1}}
	whMore = [][2]int{{3, 1}, {2, 2}}
)

const whBound = 2_000_000

// whFamily is a family of unicast placements on topo under DOR with dateline (on tori).
type whFamily struct {
	topo     string
	dateline unicast.Dateline
	fam      unicast.Family
}

// whMesh is every connected placement of 1..k worms on topo under DOR with the given
// (L, B) pairs.
func whMesh(topo string, k int, params [][2]int) whFamily {
	return whFamily{topo: topo, fam: unicast.Family{MaxWorms: k, MinWorms: 1, Params: params, Connected: true}}
}

// whTorus is whMesh with dateline VC classes.
func whTorus(topo string, k int, params [][2]int) whFamily {
	f := whMesh(topo, k, params)
	f.dateline = unicast.DatelineOn
	return f
}

// whSample is n seeded placements of f's largest worm count.
func whSample(f whFamily, n int, seed uint64) whFamily {
	f.fam.MinWorms, f.fam.Sample, f.fam.Seed = f.fam.MaxWorms, n, seed
	return f
}

// wh1Families: XY routing on meshes, (L, B) in {2, 3} x {1, 2} unless said.
func wh1Families() []Family {
	return []Family{
		placements("mesh:3x3 up to 2 worms", [3]string{"every placement", "", ""}, whMesh("mesh:3x3", 2, whLB), false),
		placements("mesh:2x2 up to 3 worms", [3]string{"every placement", "", ""}, whMesh("mesh:2x2", 3, whLB), false),
		placements("mesh:3x3 up to 3 worms", [3]string{"", "every placement", "every placement"}, whMesh("mesh:3x3", 3, whLB), false),
		placements("mesh:2x3 up to 3 worms", [3]string{"", "every placement", "every placement"}, whMesh("mesh:2x3", 3, whLB), false),
		placements("mesh:4x4 300 random connected placements of 4 worms", [3]string{"", "", "300 seeded placements, L=2 B=1"},
			whSample(whMesh("mesh:4x4", 4, whL2B1), 300, 1), false),
	}
}

// wh2Families: the ring torus:4 without dateline classes (one VC, L=2, B=1), stopping
// at the first deadlock, whose shortest trace is the witness. No placement of fewer
// than 4 worms deadlocks (each worm spans at most 2 hops, so a cycle needs all four +
// channels): the quick form checks only the 4-worm placements.
func wh2Families() []Family {
	ring := whFamily{topo: "torus:4", dateline: unicast.DatelineOff, fam: unicast.Family{MaxWorms: 4, MinWorms: 1, Params: whL2B1, Connected: true}}
	ring4 := ring
	ring4.fam.MinWorms = 4
	return []Family{
		placements("torus:4 without dateline, 4 worms", [3]string{"4-worm placements until a deadlock", "", ""}, ring4, true),
		placements("torus:4 without dateline, up to 4 worms", [3]string{"", "placements until a deadlock", "placements until a deadlock"}, ring, true),
	}
}

// wh3Families: DOR with two dateline classes (two VCs). On torus:3 every DOR route is
// one hop, so no two worms interact; the rings start at torus:4. L=2, B=1 unless said.
func wh3Families() []Family {
	return []Family{
		placements("torus:4 up to 4 worms", [3]string{"every placement", "every placement", "every placement"}, whTorus("torus:4", 4, whL2B1), false),
		placements("torus:5 up to 3 worms", [3]string{"every placement", "", ""}, whTorus("torus:5", 3, whL2B1), false),
		placements("torus:5 up to 4 worms", [3]string{"", "every placement", "every placement"}, whTorus("torus:5", 4, whL2B1), false),
		placements("torus:4 up to 3 worms, (L,B) (3,1),(2,2)", [3]string{"", "every placement", "every placement"}, whTorus("torus:4", 3, whMore), false),
		placements("torus:5 up to 3 worms, (L,B) (3,1),(2,2)", [3]string{"", "every placement", "every placement"}, whTorus("torus:5", 3, whMore), false),
		placements("torus:6 up to 3 worms", [3]string{"", "", "every placement, (L,B) (2,1),(3,1),(2,2)"}, whTorus("torus:6", 3, [][2]int{{2, 1}, {3, 1}, {2, 2}}), false),
		placements("torus:4x4 200 random connected placements of 4 worms", [3]string{"", "", "200 seeded placements"}, whSample(whTorus("torus:4x4", 4, whL2B1), 200, 3), false),
	}
}

// placements is a family of worm placements checked through the entry (check.Unicast
// with a Family): violated when an instance deadlocks (its shortest trace is the
// witness, with its evidence), else inconclusive when an instance reached its state
// bound, else holds. With stop the family ends at the first deadlock.
func placements(name string, sizes [3]string, wf whFamily, stop bool) Family {
	return Family{Name: name, Sizes: sizes, Judge: func(ctx context.Context, env Env) Outcome {
		g, err := topology.Parse(wf.topo)
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		fam := wf.fam
		req := check.Unicast{Grid: g, Spec: unicast.Spec{Dateline: wf.dateline}, Family: &fam, CountAll: !stop}
		rep, err := env.flitCheck(ctx, req, checker.PropDeadlock, check.Options{MaxStates: whBound, Workers: env.Workers})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		r := rep.Family
		tally := r.Certificates
		out := Outcome{Instances: r.Instances, States: r.States, Tally: &tally}
		if ctx.Err() != nil {
			return cancelled(ctx, out)
		}
		out.Note = fmt.Sprintf("%s: %d instances, %d states, %d held, %d deadlocked, %d inconclusive", name, r.Instances, r.States,
			r.Instances-r.Violated-len(r.Inconclusive), r.Violated, len(r.Inconclusive))
		switch {
		case r.Violated > 0:
			out.Verdict, out.Witness, out.Evidence = Violated, rep.Trace, rep.Evidence
			out.Files = map[string][]byte{"json": unicast.TraceJSON(rep.Trace)}
			p := rep.Instance.Params
			out.Note += fmt.Sprintf("; first deadlock: %s %s L=%v B=%v after %d steps", rep.Instance.Topology, p["msgs"], p["length"], p["buffers"], len(rep.Trace.Actions))
		case len(r.Inconclusive) > 0:
			out.Verdict = Inconclusive
		default:
			out.Verdict = Holds
		}
		return out
	}}
}
