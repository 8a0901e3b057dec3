package proofs

import (
	"context"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props/render"
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
func runFamilies(ctx context.Context, opt Options, parts []whPart, stopAtViolation bool) Outcome {
	var out Outcome
	var notes []string
	var firstSpec *unicast.Spec
	var first *unicast.Result
	inconclusive := 0
	var tally checker.Tally
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
		tally.Merge(r.Certificates)
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "%s: %d instances, %d states\n", p.desc, r.Instances, r.States)
		}
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
		m, tr, err := unicast.ReplayWitness(*firstSpec, first)
		var svg, pcap []byte
		if err == nil {
			title, sub := unicast.Titles(*firstSpec, first)
			svg, pcap, err = render.FlitFiles(m, tr, nil, title, sub, render.TraceNotes(first.Violation))
		}
		if err == nil {
			out.Files["svg"], out.Files["pcap"] = svg, pcap
		} else {
			notes = append(notes, "witness pictures: "+err.Error())
		}
		notes = append(notes, fmt.Sprintf("first deadlock: %s %s L=%d B=%d after %d steps", firstSpec.Topology, unicast.FormatPairs(firstSpec.Pairs), firstSpec.Length, firstSpec.Buffer, len(first.Actions)))
	case inconclusive > 0:
		out.Verdict = Inconclusive
	default:
		out.Verdict = Holds
	}
	out.Note = strings.Join(notes, "; ")
	out.Certificate = certificate(out.Verdict, tally)
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

// runWH1 checks XY routing on meshes. Full: every connected placement (see
// unicast.Connected) of up to 3 worms with distinct (src, dst) on mesh:3x3 and mesh:2x3 up
// to reflections, with L in {2, 3} and B in {1, 2}, and 300 random connected
// placements (seed 1) of 4 worms on mesh:4x4 with L=2, B=1. Quick: up to 2 worms on
// mesh:3x3 and up to 3 on mesh:2x2, same (L, B).
func runWH1(ctx context.Context, opt Options) Outcome {
	lb := [][2]int{{2, 1}, {2, 2}, {3, 1}, {3, 2}}
	bound := int64(2_000_000)
	fam := func(topo string, k int) unicast.Family {
		return unicast.Family{Topology: topo, MaxWorms: k, MinWorms: 1, Params: lb, MaxStates: bound, Connected: true}
	}
	if opt.Quick {
		return runFamilies(ctx, opt, []whPart{
			{fam("mesh:3x3", 2), "mesh:3x3 up to 2 worms"},
			{fam("mesh:2x2", 3), "mesh:2x2 up to 3 worms"},
		}, false)
	}
	return runFamilies(ctx, opt, []whPart{
		{fam("mesh:3x3", 3), "mesh:3x3 up to 3 worms"},
		{fam("mesh:2x3", 3), "mesh:2x3 up to 3 worms"},
		{unicast.Family{Topology: "mesh:4x4", MaxWorms: 4, Params: [][2]int{{2, 1}}, Sample: 300, Seed: 1, MaxStates: bound, Connected: true}, "mesh:4x4 300 random connected placements of 4 worms"},
	}, false)
}

// runWH2 searches connected placements of up to 4 worms on the ring torus:4 (DOR without
// dateline classes, one VC, L=2, B=1) in order and stops at the first that deadlocks;
// the witness is its shortest trace. No placement of fewer than 4 worms deadlocks (each worm spans at
// most 2 hops, so a cycle needs all four + channels). Quick mode checks only the
// 4-worm placements.
func runWH2(ctx context.Context, opt Options) Outcome {
	fam := unicast.Family{Topology: "torus:4", MaxWorms: 4, MinWorms: 1, Params: [][2]int{{2, 1}}, Dateline: unicast.DatelineOff, Connected: true}
	desc := "torus:4 without dateline, up to 4 worms"
	if opt.Quick {
		fam.MinWorms, desc = 4, "torus:4 without dateline, 4 worms"
	}
	return runFamilies(ctx, opt, []whPart{{fam, desc}}, true)
}

// runWH3 checks DOR with two dateline classes (two VCs). On torus:3 every DOR route is
// one hop, so no two worms interact; the rings start at torus:4. Full: every connected
// placement of up to 4 worms on torus:4 and torus:5 with (L, B) = (2,1), of up to 3 worms
// on torus:4, torus:5 and torus:6 with (L, B) in {(2,1), (3,1), (2,2)}, and 200 random
// connected placements (seed 3) of 4 worms on torus:4x4 with L=2, B=1. Quick: up to 4
// worms on torus:4 and up to 3 on torus:5, with L=2, B=1.
func runWH3(ctx context.Context, opt Options) Outcome {
	bound := int64(2_000_000)
	fam := func(topo string, k int, lb [][2]int) unicast.Family {
		return unicast.Family{Topology: topo, MaxWorms: k, MinWorms: 1, Params: lb, Dateline: unicast.DatelineOn, MaxStates: bound, Connected: true}
	}
	l2b1 := [][2]int{{2, 1}}
	if opt.Quick {
		return runFamilies(ctx, opt, []whPart{
			{fam("torus:4", 4, l2b1), "torus:4 up to 4 worms"},
			{fam("torus:5", 3, l2b1), "torus:5 up to 3 worms"},
		}, false)
	}
	more := [][2]int{{3, 1}, {2, 2}}
	sample := fam("torus:4x4", 4, l2b1)
	sample.MinWorms, sample.Sample, sample.Seed = 4, 200, 3
	return runFamilies(ctx, opt, []whPart{
		{fam("torus:4", 4, l2b1), "torus:4 up to 4 worms"},
		{fam("torus:5", 4, l2b1), "torus:5 up to 4 worms"},
		{fam("torus:4", 3, more), "torus:4 up to 3 worms, (L,B) (3,1),(2,2)"},
		{fam("torus:5", 3, more), "torus:5 up to 3 worms, (L,B) (3,1),(2,2)"},
		{fam("torus:6", 3, [][2]int{{2, 1}, {3, 1}, {2, 2}}), "torus:6 up to 3 worms"},
		{sample, "torus:4x4 200 random connected placements of 4 worms"},
	}, false)
}
