package proofs

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The tree-based multicast claims of 000 (Malumbres & Duato), checked in the flit
// semantics on families of multicast pairs (algos/treemcast): every unordered pair of
// multicasts with up to K destinations (destination sets in ascending node order, or
// every order with ":ordered"), one per orbit of the grid's routing-preserving
// symmetries, one data flit (000 §5.1), one-port injection and ejection (000 §5.3),
// buffers of B flits per virtual channel.
//
// Reconstruction (000 Fig. 3 is missing): the deadlock is two multicasts whose address
// flits a2 and b2 each wait for a channel held by the other's first branch, which cannot
// be released because its branching node waits for the message's later addresses.
//
// Pruning policies (model/flit): none; on-no-free (000 §4: prune when a header finds no
// free output channel); on-stop (000 §3 and Lemma 1: prune "when a multicast message can
// not advance", also at the previous nodes that flow control stops; 000 §5.3 "pruning is
// also performed when buffers are filled and flits stop advancing"); partial (model/flit's
// partial policy built on on-stop).
// tm1Families: the smallest mesh with a deadlock without pruning.
func tm1Families() []Family {
	return []Family{{Name: "smallest mesh with a deadlock without pruning",
		Sizes: [3]string{"meshes from 2x2 up, pairs:1..2:ordered, B = 1, 2", "meshes from 2x2 up, pairs:1..3:ordered, B = 1, 2", "meshes from 2x2 up, pairs:1..3:ordered, B = 1, 2"},
		Judge: judgeTM1}}
}

// tm2Families: on-stop pruning on meshes and tori, with the other policies and the
// symmetry reductions as evidence beside the verdict.
func tm2Families() []Family {
	// Destination lists in every order (":ordered") where the family is small enough,
	// since 000 requires no ordering of destinations; stable 1/n samples (shard 0/n) of
	// the larger ones.
	q, d, f := "quick", "default", "full"
	tm2 := []Family{
		tmFamily("mesh:3x2 pairs:2:ordered B=1", sizes(q, d, f), tmPart{topo: "mesh:3x2", k: 2, ordered: true, buffer: 1}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:1 B=1", sizes(q, d, ""), tmPart{topo: "mesh:3x3", k: 1, buffer: 1}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:4x4 pairs:1 B=1 shard 0/100", sizes(q, "", ""), tmPart{topo: "mesh:4x4", k: 1, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 100}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("torus:4x4 pairs:1 B=1 shard 0/400", sizes(q, "", ""), tmPart{topo: "torus:4x4", k: 1, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 400}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:4x4 pairs:1 B=1 shard 0/10", sizes("", d, ""), tmPart{topo: "mesh:4x4", k: 1, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 10}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("torus:4x4 pairs:1 B=1 shard 0/40", sizes("", d, ""), tmPart{topo: "torus:4x4", k: 1, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 40}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:2 B=1 shard 0/20", sizes("", d, ""), tmPart{topo: "mesh:3x3", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 20}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:2 B=1", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 2, buffer: 1}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:2 B=2", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 2, buffer: 2}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:2:ordered B=1 shard 0/4", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 2, ordered: true, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 4}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x2 pairs:3:ordered B=2 shard 0/20", sizes("", "", f), tmPart{topo: "mesh:3x2", k: 3, ordered: true, buffer: 2, shard: treemcast.Shard{Index: 0, Count: 20}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:3 B=1 shard 0/300", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 3, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 300}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:3x3 pairs:3 B=2 shard 0/300", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 3, buffer: 2, shard: treemcast.Shard{Index: 0, Count: 300}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("mesh:4x4 pairs:2 B=1 shard 0/1000", sizes("", "", f), tmPart{topo: "mesh:4x4", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 1000}}, flit.PruneOnStop, checker.PropDeadlock),
		tmFamily("torus:4x4 pairs:2 B=1 shard 0/2000", sizes("", "", f), tmPart{topo: "torus:4x4", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 2000}}, flit.PruneOnStop, checker.PropDeadlock),
	}
	// Every other policy on the first family, and in the full run on pairs:3:ordered on
	// mesh:3x2 with the paper's 2-flit buffers (where on-no-free deadlocks with 3
	// destinations): evidence beside the verdict, each stopping at its first deadlock.
	for _, p := range []tmPart{{topo: "mesh:3x2", k: 2, ordered: true, buffer: 1}, {topo: "mesh:3x2", k: 3, ordered: true, buffer: 2}} {
		sz := sizes(q, d, f)
		if p.k == 3 {
			sz = sizes("", "", f)
		}
		for _, pr := range []flit.Prune{flit.PruneNone, flit.PruneOnNoFree, flit.PrunePartial} {
			fam := tmFamily(p.String()+" "+pr.String(), sz, p, pr, checker.PropDeadlock)
			fam.Evidence = true
			tm2 = append(tm2, fam)
		}
	}
	tm2 = append(tm2,
		Family{Name: "symmetry reduction on/off", Evidence: true,
			Sizes: [3]string{"mesh:3x3 pairs:1 B=1", "mesh:3x2 pairs:2 B=1", "mesh:3x2 pairs:2 B=1"}, Judge: judgeTMSymmetry},
		Family{Name: "state-level symmetry", Evidence: true,
			Sizes: [3]string{"one self-symmetric instance, B = 1, 2", "one self-symmetric instance, B = 1, 2", "one self-symmetric instance, B = 1, 2"}, Judge: judgeTMStateSymmetry},
	)
	return tm2
}

// tm3Families checks, in every reachable state under on-stop pruning, model/flit's
// invariants (buffers, ownership, flit order, routes, exactly-once) and treemcast's
// independent twin (xy-branch, delivered-once).
func tm3Families() []Family {
	q, d, f := "quick", "default", "full"
	eo := checker.PropExactlyOnce
	return []Family{
		tmFamily("mesh:2x2 pairs:2:ordered B=1", sizes(q, "", ""), tmPart{topo: "mesh:2x2", k: 2, ordered: true, buffer: 1}, flit.PruneOnStop, eo),
		tmFamily("mesh:2x2 pairs:2:ordered B=2", sizes(q, "", ""), tmPart{topo: "mesh:2x2", k: 2, ordered: true, buffer: 2}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x3 pairs:1 B=1", sizes(q, d, ""), tmPart{topo: "mesh:3x3", k: 1, buffer: 1}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x2 pairs:2:ordered B=1", sizes("", d, f), tmPart{topo: "mesh:3x2", k: 2, ordered: true, buffer: 1}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x2 pairs:2:ordered B=2", sizes("", "", f), tmPart{topo: "mesh:3x2", k: 2, ordered: true, buffer: 2}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x3 pairs:2 B=1 shard 0/20", sizes("", d, ""), tmPart{topo: "mesh:3x3", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 20}}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x3 pairs:2 B=1", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 2, buffer: 1}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x3 pairs:2 B=2", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 2, buffer: 2}, flit.PruneOnStop, eo),
		tmFamily("mesh:3x3 pairs:3 B=2 shard 0/300", sizes("", "", f), tmPart{topo: "mesh:3x3", k: 3, buffer: 2, shard: treemcast.Shard{Index: 0, Count: 300}}, flit.PruneOnStop, eo),
		tmFamily("torus:4x4 pairs:2 B=1 shard 0/2000", sizes("", "", f), tmPart{topo: "torus:4x4", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 2000}}, flit.PruneOnStop, eo),
	}
}

// sizes marks at which sizes a family runs: a non-empty argument names the size.
func sizes(quick, def, full string) [3]string {
	mark := func(s string) string {
		if s == "" {
			return ""
		}
		return "yes"
	}
	return [3]string{mark(quick), mark(def), mark(full)}
}

// tmPart is one family of pairs of multicasts.
type tmPart struct {
	topo    string
	k       int
	ordered bool            // every destination order (pairs:K:ordered), not only ascending sets
	shard   treemcast.Shard // {0,1}: the whole family; {0,n}: a stable 1/n sample
	buffer  int
}

func (p tmPart) String() string {
	s := fmt.Sprintf("%s pairs:%d B=%d", p.topo, p.k, p.buffer)
	if p.ordered {
		s = fmt.Sprintf("%s pairs:%d:ordered B=%d", p.topo, p.k, p.buffer)
	}
	if p.shard.Count > 1 {
		s += " shard " + p.shard.String()
	}
	return s
}

// runPart checks one family of pairs with one pruning policy through the entry
// (check.TreeMulticast with a Family), its members on the member pool; symmetry keeps
// one pair per orbit. The report's Family sums the members.
func runPart(ctx context.Context, env Env, p tmPart, prune flit.Prune, prop checker.Property, stopAtFirst, symmetry bool) (*props.Report, error) {
	g, err := topology.Parse(p.topo)
	if err != nil {
		return nil, err
	}
	params := treemcast.DefaultParams()
	params.Prune, params.Buffer = prune, p.buffer
	req := check.TreeMulticast{Instance: treemcast.Instance{Grid: g, Params: params},
		Family: &treemcast.Family{Grid: g, K: p.k, Orders: p.ordered}, Shard: p.shard, Stop: stopAtFirst}
	return env.flitCheck(ctx, req, prop, check.Options{MaxStates: memberStates, Workers: env.Workers, Symmetry: symmetry})
}

// partNote is a family run's line in the claim's note.
func partNote(p tmPart, label string, rep *props.Report) string {
	fr := rep.Family
	note := fmt.Sprintf("%s %s: %s, %d members (%d pairs), %d states, %.1fs", p, label, fr.Verdict, fr.Instances, fr.Covered, fr.States, fr.Seconds)
	if fr.Witness != nil {
		note += fmt.Sprintf(", witness %s after %d steps", fr.Witness.Msgs, fr.Witness.Length)
	}
	return note
}

// partOutcome turns a family run into an outcome: violated with the replayed witness
// (its files) when a member violated, inconclusive when one hit its bound, else holds.
func partOutcome(ctx context.Context, p tmPart, label string, rep *props.Report, err error) Outcome {
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	fr := rep.Family
	tally := fr.Certificates
	out := Outcome{Instances: fr.Instances, States: fr.States, Tally: &tally}
	if ctx.Err() != nil {
		return cancelled(ctx, out)
	}
	key := p.String() + " " + label
	out.Figures = map[string]float64{"states " + key: float64(fr.States), "seconds " + key: fr.Seconds}
	out.Note = partNote(p, label, rep)
	switch {
	case fr.Witness != nil:
		out.Verdict = Violated
		tmWitnessOf(&out, rep)
	case len(fr.Inconclusive) > 0 || fr.Partial && fr.Violated == 0:
		out.Verdict = Inconclusive
	default:
		out.Verdict = Holds
	}
	return out
}

// tmFamily is a family of pairs checked for prop under one pruning policy: a member
// that violates it makes the family violated, with the shortest trace as witness. An
// Evidence family (another pruning policy) stops at its first violation and says in
// the note what deadlocked.
func tmFamily(name string, sz [3]string, p tmPart, prune flit.Prune, prop checker.Property) Family {
	label := prune.String()
	return Family{Name: name, Sizes: sz, Judge: func(ctx context.Context, env Env) Outcome {
		evidence := prune != flit.PruneOnStop
		rep, err := runPart(ctx, env, p, prune, prop, evidence, true)
		out := partOutcome(ctx, p, label, rep, err)
		if evidence && err == nil && rep.Family.Witness != nil && out.Err == nil {
			out.Note += fmt.Sprintf("; %s deadlocks on %s: %s", prune, p, rep.Family.Witness.Trace.Violation)
		}
		return out
	}}
}

// tmWitnessOf makes the witness of a family's report the outcome's: its trace (which
// the entry replayed to confirm it), its file and its evidence.
func tmWitnessOf(out *Outcome, rep *props.Report) {
	out.Witness, out.Evidence = rep.Trace, rep.Evidence
	out.Files = map[string][]byte{"json": traceJSON(rep.Trace)}
}

// judgeTM1 searches meshes in increasing size (nodes, then sizes) for a deadlock of two
// multicasts without pruning: for each mesh, buffers 1 then 2, families pairs:1:ordered,
// pairs:2:ordered (and pairs:3:ordered beyond the quick size). The first mesh with a
// deadlock is reported with the shortest trace among all members of the families that
// deadlocked on it. The quick size stops at the first deadlock.
func judgeTM1(ctx context.Context, env Env) Outcome {
	maxK := pick(env.Size, 2, 3, 3)
	meshes := []string{"mesh:2x2", "mesh:2x3", "mesh:3x2", "mesh:3x3", "mesh:4x3", "mesh:3x4", "mesh:4x4"}
	var tally checker.Tally
	out := Outcome{Tally: &tally}
	var notes []string
	var best *props.Report // the family report with the shortest witness
	found := ""
	for _, topo := range meshes {
	sizes:
		for _, b := range []int{1, 2} {
			for k := 1; k <= maxK; k++ {
				p := tmPart{topo: topo, k: k, ordered: true, buffer: b}
				rep, err := runPart(ctx, env, p, flit.PruneNone, checker.PropDeadlock, false, true)
				if err != nil {
					return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances, States: out.States, Tally: &tally}
				}
				fr := rep.Family
				out.Instances += fr.Instances
				out.States += fr.States
				tally.Merge(fr.Certificates)
				if ctx.Err() != nil {
					return cancelled(ctx, out)
				}
				notes = append(notes, partNote(p, "none", rep))
				if out.Figures == nil {
					out.Figures = map[string]float64{}
				}
				out.Figures["states "+p.String()+" none"] = float64(fr.States)
				out.Figures["seconds "+p.String()+" none"] = fr.Seconds
				if fr.Witness != nil {
					if best == nil || fr.Witness.Length < best.Family.Witness.Length {
						best = rep
					}
					if found == "" {
						found = p.String()
					}
					if env.Size == Quick {
						break sizes // the first deadlock is the witness
					}
					break // a larger K on this mesh and buffer cannot be the smallest
				}
			}
		}
		if found != "" {
			notes = append(notes, fmt.Sprintf("smallest mesh with a deadlock without pruning: %s (first at %s)", topo, found))
			out.Figures["smallest mesh nodes"] = float64(nodesOf(topo))
			out.Verdict = Violated
			tmWitnessOf(&out, best)
			out.Note = joinNotes(notes)
			return out
		}
	}
	notes = append(notes, "no deadlock found up to mesh:4x4")
	out.Verdict, out.Note = Holds, joinNotes(notes)
	return out
}

func nodesOf(topo string) int {
	g, err := topology.Parse(topo)
	if err != nil {
		return 0
	}
	return g.Nodes()
}

// judgeTMSymmetry checks that family-level symmetry reduction (one member per orbit)
// gives the same verdict and covers the same pairs as no reduction, and reports the
// reduction factor. It is an error, not a verdict, when they disagree.
func judgeTMSymmetry(ctx context.Context, env Env) Outcome {
	p := tmPart{topo: "mesh:3x2", k: 2, buffer: 1}
	if env.Size == Quick {
		p = tmPart{topo: "mesh:3x3", k: 1, buffer: 1}
	}
	offRep, err := runPart(ctx, env, p, flit.PruneOnStop, checker.PropDeadlock, false, false)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	off := offRep.Family
	out := Outcome{States: off.States}
	if ctx.Err() != nil {
		return cancelled(ctx, out)
	}
	onRep, err := runPart(ctx, env, p, flit.PruneOnStop, checker.PropDeadlock, false, true)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err, States: out.States}
	}
	on := onRep.Family
	// The reduced run repeats a family counted above; only the unreduced one's states
	// are added, as before the catalogue became data.
	if ctx.Err() != nil {
		return cancelled(ctx, out)
	}
	out.Verdict = Holds
	if off.Verdict != on.Verdict || off.Covered != on.Covered {
		out.Verdict, out.Err = Inconclusive, fmt.Errorf("symmetry reduction changes the verdict on %s: %s without, %s with", p, off.Verdict, on.Verdict)
	}
	factor := float64(off.States) / float64(max(on.States, 1))
	out.Figures = map[string]float64{"symmetry reduction factor (states) " + p.String(): factor}
	out.Note = fmt.Sprintf("symmetry on/off on %s: %s/%s, %d/%d members, %d/%d states (factor %.2f)", p, on.Verdict, off.Verdict, on.Instances, off.Instances, on.States, off.States, factor)
	return out
}

// judgeTMStateSymmetry checks state-level symmetry (flit.Symmetric) on an instance the
// x reflection maps onto itself (swapping the two messages): the reduced and plain
// searches must agree.
func judgeTMStateSymmetry(ctx context.Context, env Env) Outcome {
	g, _ := topology.NewMesh(3, 3)
	msgs, _ := treemcast.ParseMsgs(g, "(0,0)->(2,0),(1,2);(2,0)->(0,0),(1,2)")
	var tally checker.Tally
	out := Outcome{Verdict: Holds, Figures: map[string]float64{}, Tally: &tally}
	var notes []string
	for _, b := range []int{1, 2} {
		params := treemcast.DefaultParams()
		params.Prune, params.Buffer = flit.PruneOnStop, b
		in := treemcast.Instance{Grid: g, Msgs: msgs, Params: params}
		plain, _, err1 := treemcast.Check(in, treemcast.CheckOptions{Prop: checker.PropExactlyOnce, Workers: env.Workers, Context: ctx})
		red, _, err2 := treemcast.Check(in, treemcast.CheckOptions{Prop: checker.PropExactlyOnce, Workers: env.Workers, Symmetry: true, Context: ctx})
		if ctx.Err() != nil {
			return cancelled(ctx, out)
		}
		if err1 != nil || err2 != nil {
			return Outcome{Verdict: Inconclusive, Err: fmt.Errorf("state-level symmetry check: %v %v", err1, err2)}
		}
		out.States += plain.Stats.States + red.Stats.States
		tally.Add(plain.Certificate())
		tally.Add(red.Certificate())
		if plain.Verdict != red.Verdict {
			out.Verdict, out.Err = Inconclusive, fmt.Errorf("state-level symmetry changes the verdict on %s: %v without, %v with", in, plain.Verdict, red.Verdict)
		}
		f := float64(plain.Stats.States) / float64(max(red.Stats.States, 1))
		out.Figures[fmt.Sprintf("state-level symmetry factor B=%d", b)] = f
		notes = append(notes, fmt.Sprintf("state-level symmetry on %s B=%d: %v/%v, %d/%d states (factor %.2f)", in, b, red.Verdict, plain.Verdict, red.Stats.States, plain.Stats.States, f))
	}
	out.Note = joinNotes(notes)
	return out
}
