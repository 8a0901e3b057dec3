package proofs

import (
	"context"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/props"
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

// whMesh is every connected placement of 1..k worms on topo under DOR with the given
// (L, B) pairs.
func whMesh(topo string, k int, params [][2]int) unicast.Family {
	return unicast.Family{Topology: topo, MaxWorms: k, MinWorms: 1, Params: params, MaxStates: whBound, Connected: true}
}

// whTorus is whMesh with dateline VC classes.
func whTorus(topo string, k int, params [][2]int) unicast.Family {
	f := whMesh(topo, k, params)
	f.Dateline = unicast.DatelineOn
	return f
}

// whSample is n seeded placements of f's largest worm count.
func whSample(f unicast.Family, n int, seed uint64) unicast.Family {
	f.MinWorms, f.Sample, f.Seed = f.MaxWorms, n, seed
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
	ring := unicast.Family{Topology: "torus:4", MaxWorms: 4, MinWorms: 1, Params: whL2B1, Dateline: unicast.DatelineOff, Connected: true}
	ring4 := ring
	ring4.MinWorms = 4
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

// placements is a family of worm placements judged by algos/unicast: violated when an
// instance deadlocks (its shortest trace is the witness, with its pictures), else
// inconclusive when an instance reached its state bound, else holds. With stop the
// sweep ends at the first deadlock.
func placements(name string, sizes [3]string, fam unicast.Family, stop bool) Family {
	return Family{Name: name, Sizes: sizes, Judge: func(ctx context.Context, env Env) Outcome {
		fam.StopAtViolation = stop
		fam.Workers = env.Workers
		fam.Member = unicastMember(fam.MaxStates)
		fam.Count = func(total, done, states int64) {
			env.Meter.Expect(total)
			env.Meter.Add(done, states)
		}
		r, err := fam.Run(ctx)
		tally := r.Certificates
		out := Outcome{Instances: r.Instances, States: r.States, Tally: &tally}
		if err != nil {
			if ctx.Err() != nil {
				return cancelled(ctx, out)
			}
			out.Verdict, out.Err = Inconclusive, err
			return out
		}
		out.Note = r.Summary(name)
		switch {
		case r.First != nil:
			sp, first := *r.FirstSpec, r.First
			tf := unicast.TraceFile(sp, first)
			out.Verdict, out.Witness = Violated, tf
			out.Files = map[string][]byte{"json": unicast.TraceJSON(tf)}
			if m, tr, _, err := unicast.Witness(sp, first); err == nil {
				title, sub := unicast.Titles(sp, first)
				out.Evidence = &props.FlitEvidence{Model: m, Trace: tr, Violation: first.Violation, Title: title, Subtitle: sub,
					Notes: props.ViolationNotes(first.Violation)}
			} else {
				out.Note += "; witness pictures: " + err.Error()
			}
			out.Note += "; first deadlock: " + r.FirstLine()
		case r.Inconclusive > 0:
			out.Verdict = Inconclusive
		default:
			out.Verdict = Holds
		}
		return out
	}}
}
