package proofs

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/subnetworks"
)

// The network-partitioning family NP1-NP7: static properties of 001's DDNs and DCNs over
// every 2-D torus (or mesh) s x t with 2 <= s, t <= 32 (12 in quick mode), every h
// dividing both sides and every delta of Type III (the sweep is partition.Family). Each
// member is checked through the entry, the typed check.Partition (levels, p1-p5,
// connected); this file says which members each claim takes and how
// their reports add up.
//
// Reference: 001 Definitions 3-8, Lemmas 1-4, Table 1, P1-P5, §3.1-§3.2.

// npMax is the largest side of the family.
func npMax(env Env) int {
	return pick(env.Size, 12, 20, 32)
}

// forEachInstance checks every member of partition.Family(kind, lo, hi, keep, types) for
// prop through the entry on the family runner (checker/family, workers members at once)
// and calls f with the member and its report, in member order. It stops early when f
// returns false, a check fails with an error or ctx is done.
func forEachInstance(ctx context.Context, workers int, kind topology.Kind, lo, hi int, keep func(s, t int) bool, types []partition.Type, prop checker.Property, f func(partition.Instance, *props.Report) bool) error {
	ins := partition.Family(kind, lo, hi, keep, types)
	type checked struct {
		rep *props.Report
		err error
	}
	_, err := family.Run(ctx, len(ins), family.Options{Pool: workers}, func(ctx context.Context, _, i int) (checked, family.Outcome) {
		in := ins[i]
		g, err := topology.Parse(in.Topology)
		if err != nil {
			return checked{err: err}, family.Outcome{Verdict: checker.Holds}
		}
		rep, err := check.Partition{Grid: g, Params: in.Params}.Check(ctx, prop, check.Options{})
		if err != nil {
			return checked{err: err}, family.Outcome{Verdict: checker.Holds}
		}
		return checked{rep: rep}, family.Outcome{Verdict: rep.Verdict}
	}, func(i int, c checked, _ family.Outcome) error {
		if c.err != nil {
			return c.err
		}
		if !f(ins[i], c.rep) {
			return family.Stop
		}
		return nil
	})
	if err != nil {
		return err
	}
	return ctx.Err()
}

// detail returns the witness detail of a report as a T (nil when it has none).
func detail[T any](rep *props.Report) *T {
	if rep.Witness == nil {
		return nil
	}
	w, _ := rep.Witness.Detail.(*T)
	return w
}

// lemma is the judge of one of 001's Lemmas 1-4: the node and link levels of typ's
// DDNs on every torus of the family.
func lemma(typ partition.Type) func(ctx context.Context, env Env) Outcome {
	return func(ctx context.Context, env Env) Outcome { return runLemma(ctx, env, typ) }
}

func runLemma(ctx context.Context, env Env, typ partition.Type) Outcome {
	var out Outcome
	var first, outside *subnetworks.LevelWitness
	fails, outsideFails, outsideN := 0, 0, 0
	err := forEachInstance(ctx, env.Workers, topology.Torus, 2, npMax(env), nil, []partition.Type{typ}, checker.PropLevels, func(in partition.Instance, rep *props.Report) bool {
		w := detail[subnetworks.LevelWitness](rep)
		if rep.Figures["lemma_applies"] == 0 {
			outsideN++
			if w != nil {
				outsideFails++
				if outside == nil || (outside.H == 1 && in.Params.H > 1) {
					outside = w
				}
			}
			return true
		}
		out.Instances++
		if w != nil {
			fails++
			if first == nil {
				first = w
			}
		}
		return true
	})
	if err != nil {
		out.Err = err
		return out
	}
	out.Figures = map[string]float64{"failing_instances": float64(fails)}
	out.Verdict = Holds
	out.Note = fmt.Sprintf("%d tori %s every h dividing both sides", out.Instances, rangeText(env))
	if typ == partition.TypeIII {
		out.Note += " and every delta in 1..h-1 (h >= 2: no delta exists for h = 1)"
	}
	if first != nil {
		out.Verdict = Violated
		out.Witness = first
		out.Note += fmt.Sprintf("; %d instances fail, first %s h=%d: link level %d, want %s (channel %s)", fails, first.Topology, first.H, first.LinkLevel, first.WantLink, first.Channel)
	}
	if typ == partition.TypeIV {
		out.Figures["odd_h_instances"] = float64(outsideN)
		out.Figures["odd_h_failing"] = float64(outsideFails)
		if outside != nil {
			out.Note += fmt.Sprintf("; Lemma 4 needs an even h: for odd h all %d of %d instances fail, e.g. %s h=%d has link level %d, not %s: channel %s lies in (h+1)/2 DDNs",
				outsideFails, outsideN, outside.Topology, outside.H, outside.LinkLevel, outside.WantLink, outside.Channel)
		}
	}
	return out
}

func rangeText(env Env) string {
	return fmt.Sprintf("s x t with 2 <= s, t <= %d and", npMax(env))
}

func runNP5(ctx context.Context, env Env) Outcome {
	out, fails, inconclusive, first := np5(ctx, env, func(s, t int) bool { return s >= 3 && t >= 3 })
	if out.Err != nil {
		return out
	}
	out.Note = fmt.Sprintf("%d (torus, type, h, delta) instances, 3 <= s, t <= %d; P4/P5 by a grid symmetry, colour refinement or a bounded search", out.Instances, npMax(env))
	out.Figures = map[string]float64{"failing_checks": float64(fails)}
	switch {
	case fails > 0:
		out.Verdict = Violated
		out.Witness = first
		out.Note += fmt.Sprintf("; first failure: %s on %s h=%d: %s", first.Property, first.Topology, first.H, first.Detail)
	case inconclusive:
		out.Verdict = Inconclusive
		out.Witness = first
	default:
		out.Verdict = Holds
	}
	side2, fails2, _, first2 := np5(ctx, env, func(s, t int) bool { return s == 2 || t == 2 })
	if side2.Err != nil {
		return side2
	}
	out.Figures["side2_failing_checks"] = float64(fails2)
	if first2 != nil {
		out.Note += fmt.Sprintf("; sides of 2 are excluded (the model's ring of 2 has no wrap-around channel): %d checks fail there, e.g. %s on %s Type %s h=%d: %s",
			fails2, first2.Property, first2.Topology, first2.Type, first2.H, first2.Detail)
	}
	return out
}

// np5 checks P1-P5 (p1-p5) on every instance whose sides keep accepts.
func np5(ctx context.Context, env Env, keep func(s, t int) bool) (out Outcome, fails int, inconclusive bool, first *subnetworks.PropertyWitness) {
	err := forEachInstance(ctx, env.Workers, topology.Torus, 2, npMax(env), keep, partition.Types(), checker.PropP1P5, func(in partition.Instance, rep *props.Report) bool {
		out.Instances++
		fails += int(rep.Figures["violated_checks"])
		if rep.Figures["inconclusive_checks"] > 0 {
			inconclusive = true
		}
		if w := detail[subnetworks.PropertyWitness](rep); w != nil && (first == nil || (first.Verdict == props.Inconclusive.String() && rep.Verdict == props.Violated)) {
			first = w
		}
		return true
	})
	out.Err = err
	return out, fails, inconclusive, first
}

// connectivity checks every Type III and IV member for connected and returns the
// instance count, the failing count, the count of connected ones with multi-member
// DDNs, the first unreachable pair (and the first of Type III) and its report.
func connectivity(ctx context.Context, workers int, kind topology.Kind, hi int, keep func(s, t int) bool) (n, bad, connectedMulti int, first, firstIII *props.Report, err error) {
	types := []partition.Type{partition.TypeIII, partition.TypeIV}
	err = forEachInstance(ctx, workers, kind, 2, hi, keep, types, checker.PropConnected, func(in partition.Instance, rep *props.Report) bool {
		n++
		if rep.Verdict == props.Violated {
			bad++
			if first == nil {
				first = rep
			}
			if firstIII == nil && in.Params.Type == partition.TypeIII {
				firstIII = rep
			}
		} else if rep.Figures["multi_member"] == 1 {
			connectedMulti++
		}
		return true
	})
	return n, bad, connectedMulti, first, firstIII, err
}

func runNP6(ctx context.Context, env Env) Outcome {
	n, bad, _, firstRep, _, err := connectivity(ctx, env.Workers, topology.Torus, npMax(env), func(s, t int) bool { return s >= 3 && t >= 3 })
	if err != nil {
		return Outcome{Err: err}
	}
	out := Outcome{Instances: n, Verdict: Holds, Figures: map[string]float64{"failing_instances": float64(bad)}}
	out.Note = fmt.Sprintf("%d (torus, type, h, delta) instances, 3 <= s, t <= %d", n, npMax(env))
	if first := reach(firstRep); first != nil {
		out.Verdict, out.Witness = Violated, first
		out.Note += fmt.Sprintf("; %s cannot reach %s in %s of %s", first.From, first.To, first.Subnetwork, first.Topology)
	}
	// Sides of 2: the model wires a ring of 2 as one channel each way (no wrap-around), so
	// a directed DDN spanning both positions of such a side loses its way back.
	_, bad2, _, first2Rep, _, err := connectivity(ctx, env.Workers, topology.Torus, npMax(env), func(s, t int) bool { return s == 2 || t == 2 })
	if err != nil {
		return Outcome{Err: err}
	}
	out.Figures["side2_failing_instances"] = float64(bad2)
	if first2 := reach(first2Rep); first2 != nil {
		out.Note += fmt.Sprintf("; sides of 2 are excluded: the model's ring of 2 has no wrap-around channel, and e.g. in %s of %s (Type %s, h=%d) %s cannot reach %s",
			first2.Subnetwork, first2.Topology, first2.Type, first2.H, first2.From, first2.To)
	}
	return out
}

// reach is the unreachable pair of a connected report (nil for none).
func reach(rep *props.Report) *subnetworks.ReachWitness {
	if rep == nil {
		return nil
	}
	return detail[subnetworks.ReachWitness](rep)
}

// reachFiles are an unreachable-pair witness as JSON (for prove --witness-dir, which
// draws the report's evidence, the DDN with the pair ringed, beside it).
func reachFiles(rep *props.Report) map[string][]byte {
	files := map[string][]byte{}
	if b, err := witnessJSON(reach(rep)); err == nil {
		files["witness.json"] = b
	}
	return files
}

func runNP7(ctx context.Context, env Env) Outcome {
	n, bad, connectedMulti, firstRep, firstIIIRep, err := connectivity(ctx, env.Workers, topology.Mesh, npMax(env), nil)
	if err != nil {
		return Outcome{Err: err}
	}
	out := Outcome{Instances: n, Figures: map[string]float64{
		"unconnected_instances":            float64(bad),
		"connected_multi_member_instances": float64(connectedMulti),
	}}
	out.Note = fmt.Sprintf("%d (mesh, type, h, delta) instances, 2 <= s, t <= %d: %d have a DDN that is not strongly connected", n, npMax(env), bad)
	if connectedMulti == 0 {
		out.Note += fmt.Sprintf("; the other %d have single-member DDNs only (h = s = t)", n-bad)
	} else {
		out.Note += fmt.Sprintf("; %d instances with multi-member DDNs are connected", connectedMulti)
	}
	first, firstIII := reach(firstRep), reach(firstIIIRep)
	if first == nil {
		out.Verdict = Holds
		return out
	}
	out.Verdict, out.Witness = Violated, first
	out.Note += fmt.Sprintf("; e.g. in %s of %s (Type %s, h=%d) %s cannot reach %s", first.Subnetwork, first.Topology, first.Type, first.H, first.From, first.To)
	// The witness shown (and drawn) is the first Type III one, the case §3.2 discusses;
	// the note also names the smallest instance of all.
	shown := firstRep
	if firstIII != nil {
		out.Witness, shown = firstIII, firstIIIRep
	}
	out.Files, out.Evidence = reachFiles(shown), shown.Evidence
	if firstIII != nil {
		out.Note += fmt.Sprintf("; Type III: in %s of %s (h=%d, delta=%d) %s cannot reach %s", firstIII.Subnetwork, firstIII.Topology, firstIII.H, firstIII.Delta, firstIII.From, firstIII.To)
	}
	return out
}
