package proofs

import (
	"context"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/unicast"
)

// The deadlock claims of unicast wormhole routing, checked in the flit semantics on
// families of worm placements. Reference: Dally & Seitz, "Deadlock-free message routing
// in multiprocessor interconnection networks" (000 [4]), as cited by 000 §5.1 ("two
// virtual channels per physical channel are required to avoid deadlock" on tori) and 004.
func init() {
	Register(Claim{
		ID: "WH1", Source: "Dally & Seitz, cited by 000/004",
		Statement: "unicast XY routing on a 2-D mesh is deadlock-free",
		Semantics: "flit", Expected: ExpectHolds, Run: runWH1,
	})
	Register(Claim{
		ID: "WH2", Source: "Dally & Seitz, cited by 000/004",
		Statement: "DOR on a torus ring without dateline VC classes deadlocks",
		Semantics: "flit", Expected: ExpectViolated, Run: runWH2,
	})
	Register(Claim{
		ID: "WH3", Source: "Dally & Seitz, cited by 000/004",
		Statement: "DOR on a torus with two dateline VC classes is deadlock-free",
		Semantics: "flit", Expected: ExpectHolds, Run: runWH3,
	})
}

// whPart is one family of a claim with a line for the note.
type whPart struct {
	fam  unicast.Family
	desc string
}

// runFamilies runs the parts in order and sums them into an outcome. The verdict is
// Violated if any instance deadlocked (with the first one's trace as witness), else
// Inconclusive if any instance reached its state bound, else Holds.
func runFamilies(ctx context.Context, parts []whPart, stopAtViolation bool) Outcome {
	var out Outcome
	var notes []string
	var firstSpec *unicast.Spec
	var first *unicast.Result
	inconclusive := 0
	for _, p := range parts {
		p.fam.StopAtViolation = stopAtViolation
		r, err := p.fam.Run(ctx)
		out.Instances += r.Instances
		out.States += r.States
		if err != nil {
			out.Err = err
			out.Verdict = Inconclusive
			return out
		}
		inconclusive += r.Inconclusive
		notes = append(notes, fmt.Sprintf("%s: %d instances, %d states, %d held, %d deadlocked, %d inconclusive", p.desc, r.Instances, r.States, r.Held, r.Violated, r.Inconclusive))
		if r.First != nil && first == nil {
			first, firstSpec = r.First, r.FirstSpec
			if stopAtViolation {
				break
			}
		}
	}
	switch {
	case first != nil:
		out.Verdict = Violated
		tf := unicast.TraceFile(*firstSpec, first)
		out.Witness = whWitness{Topology: firstSpec.Topology, Params: unicast.ParamsOf(*firstSpec), Steps: len(first.Actions), Labels: first.Labels, Violation: first.Violation}
		out.Files = map[string][]byte{"json": unicast.TraceJSON(tf)}
		notes = append(notes, fmt.Sprintf("first deadlock: %s %s L=%d B=%d after %d steps", firstSpec.Topology, unicast.FormatPairs(firstSpec.Pairs), firstSpec.Length, firstSpec.Buffer, len(first.Actions)))
	case inconclusive > 0:
		out.Verdict = Inconclusive
	default:
		out.Verdict = Holds
	}
	out.Note = strings.Join(notes, "; ")
	return out
}

// whWitness is the JSON witness of a deadlocked instance: its instance and shortest trace.
type whWitness struct {
	Topology  string         `json:"topology"`
	Params    unicast.Params `json:"parameters"`
	Steps     int            `json:"steps"`
	Labels    []string       `json:"trace"`
	Violation string         `json:"violation"`
}

// runWH1 checks XY routing on meshes. Full: every placement of up to 3 worms with
// distinct (src, dst) on mesh:3x3 up to reflections, with (L, B) in {(2,1), (2,2),
// (3,1)}, 3 worms on mesh:2x3 with the same (L, B), and 300 random placements (seed 1) of 4 worms on mesh:4x4 with L=2, B=1.
// Full also covers 3 worms on mesh:2x3. Quick: up to 2 worms on mesh:3x3 with the same
// (L, B), and 3 worms on mesh:2x2.
func runWH1(ctx context.Context, opt Options) Outcome {
	lb := [][2]int{{2, 1}, {2, 2}, {3, 1}}
	bound := int64(2_000_000)
	parts := []whPart{
		{unicast.Family{Topology: "mesh:3x3", MaxWorms: 2, MinWorms: 1, Params: lb, MaxStates: bound}, "mesh:3x3 up to 2 worms"},
	}
	if opt.Quick {
		parts = append(parts, whPart{unicast.Family{Topology: "mesh:2x2", MaxWorms: 3, MinWorms: 3, Params: lb, MaxStates: bound}, "mesh:2x2 3 worms"})
	} else {
		parts = append(parts,
			whPart{unicast.Family{Topology: "mesh:2x3", MaxWorms: 3, MinWorms: 3, Params: lb, MaxStates: bound}, "mesh:2x3 3 worms"},
			whPart{unicast.Family{Topology: "mesh:3x3", MaxWorms: 3, MinWorms: 3, Params: lb, MaxStates: bound}, "mesh:3x3 3 worms"},
			whPart{unicast.Family{Topology: "mesh:4x4", MaxWorms: 4, Params: [][2]int{{2, 1}}, Sample: 300, Seed: 1, MaxStates: bound}, "mesh:4x4 300 random placements of 4 worms"},
		)
	}
	return runFamilies(ctx, parts, false)
}

// runWH2 searches placements of up to 4 worms on the ring torus:4 (DOR without dateline
// classes, one VC, L=2, B=1) in order and stops at the first that deadlocks; the witness
// is its shortest trace. The search is the same in quick mode.
func runWH2(ctx context.Context, opt Options) Outcome {
	parts := []whPart{
		{unicast.Family{Topology: "torus:4", MaxWorms: 4, MinWorms: 1, Params: [][2]int{{2, 1}}, Dateline: unicast.DatelineOff}, "torus:4 without dateline, up to 4 worms"},
	}
	return runFamilies(ctx, parts, true)
}

// runWH3 checks DOR with two dateline classes (two VCs). Full: every placement of up to
// 4 worms on torus:3 and torus:4 and up to 3 on torus:5 with (L, B) in {(2,1), (3,1),
// (2,2)}, and 200 random placements (seed 3) of 4 worms on torus:4x4 with L=2, B=1.
// Quick: up to 4 worms on torus:3 and up to 3 on torus:4, with L=2, B=1.
func runWH3(ctx context.Context, opt Options) Outcome {
	bound := int64(2_000_000)
	on := unicast.DatelineOn
	parts := []whPart{
		{unicast.Family{Topology: "torus:3", MaxWorms: 4, MinWorms: 1, Params: [][2]int{{2, 1}}, Dateline: on, MaxStates: bound}, "torus:3 up to 4 worms"},
	}
	if opt.Quick {
		parts = append(parts, whPart{unicast.Family{Topology: "torus:4", MaxWorms: 3, MinWorms: 1, Params: [][2]int{{2, 1}}, Dateline: on, MaxStates: bound}, "torus:4 up to 3 worms"})
	} else {
		lb := [][2]int{{3, 1}, {2, 2}}
		parts = append(parts,
			whPart{unicast.Family{Topology: "torus:4", MaxWorms: 4, MinWorms: 1, Params: [][2]int{{2, 1}}, Dateline: on, MaxStates: bound}, "torus:4 up to 4 worms"},
			whPart{unicast.Family{Topology: "torus:3", MaxWorms: 4, MinWorms: 1, Params: lb, Dateline: on, MaxStates: bound}, "torus:3 up to 4 worms, L/B (3,1),(2,2)"},
			whPart{unicast.Family{Topology: "torus:4", MaxWorms: 4, MinWorms: 1, Params: lb, Dateline: on, MaxStates: bound}, "torus:4 up to 4 worms, L/B (3,1),(2,2)"},
			whPart{unicast.Family{Topology: "torus:5", MaxWorms: 3, MinWorms: 1, Params: [][2]int{{2, 1}, {3, 1}, {2, 2}}, Dateline: on, MaxStates: bound}, "torus:5 up to 3 worms"},
			whPart{unicast.Family{Topology: "torus:4x4", MaxWorms: 4, Params: [][2]int{{2, 1}}, Dateline: on, Sample: 200, Seed: 3, MaxStates: bound}, "torus:4x4 200 random placements of 4 worms"},
		)
	}
	return runFamilies(ctx, parts, false)
}
