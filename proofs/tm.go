package proofs

import (
	"context"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/props/render"
)

// The tree-based multicast claims of 000 (Malumbres & Duato), checked in the flit
// semantics on families of multicast pairs (algos/treemcast): every unordered pair of
// multicasts with up to K destinations (destination sets in ascending node order), one
// per orbit of the grid's routing-preserving symmetries, one data flit (000 §5.1),
// one-port injection and ejection (000 §5.3), buffers of B flits per virtual channel.
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
func init() {
	Register(Claim{
		ID: "TM1", Source: "000 Fig. 3",
		Statement: "tree multicast without pruning deadlocks (XY mesh)",
		Semantics: "flit", Expected: ExpectViolated, Run: runTM1,
	})
	Register(Claim{
		ID: "TM2", Source: "000 Lemma 1",
		Statement: "tree multicast with total pruning is deadlock-free (XY mesh; DOR+2VC torus)",
		Semantics: "flit", Expected: ExpectHolds, Run: runTM2,
	})
	Register(Claim{
		ID: "TM3", Source: "000 §2",
		Statement: "every destination gets the data exactly once, along its XY path",
		Semantics: "flit", Expected: ExpectHolds, Run: runTM3,
	})
}

// tmPart is one family of a tree multicast claim.
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

// tmRun is the sum of a claim's family runs.
type tmRun struct {
	out     Outcome
	notes   []string
	witness *treemcast.FamilyWitness
	incon   int
	tally   checker.Tally // delivery certificates of the members explored
}

func (r *tmRun) family(ctx context.Context, opt Options, p tmPart, prune flit.Prune, prop string, stopAtFirst, symmetry bool) (*treemcast.FamilyResult, error) {
	g, err := model.ParseGrid(p.topo)
	if err != nil {
		return nil, err
	}
	params := treemcast.DefaultParams()
	params.Prune, params.Buffer = prune, p.buffer
	shard := p.shard
	if shard.Count == 0 {
		shard = treemcast.Shard{Index: 0, Count: 1}
	}
	fr, err := treemcast.RunFamily(treemcast.Family{Grid: g, K: p.k, Orders: p.ordered, Symmetry: symmetry}, treemcast.FamilyOptions{
		Params: params, Prop: prop, Shard: shard, Workers: opt.Workers, MaxStates: 2_000_000,
		StopAtFirst: stopAtFirst, Context: ctx,
	})
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return fr, ctx.Err()
	}
	return fr, nil
}

// add sums a family result into the claim's outcome.
func (r *tmRun) add(p tmPart, label string, fr *treemcast.FamilyResult) {
	r.out.Instances += fr.Instances
	r.out.States += fr.States
	r.incon += len(fr.Inconclusive)
	r.tally.Merge(fr.Certificates)
	note := fmt.Sprintf("%s %s: %s, %d members (%d pairs), %d states, %.1fs", p, label, fr.Verdict, fr.Instances, fr.Covered, fr.States, fr.Seconds)
	if fr.Witness != nil {
		note += fmt.Sprintf(", witness %s after %d steps", fr.Witness.Msgs, fr.Witness.Length)
	}
	r.notes = append(r.notes, note)
	if r.out.Figures == nil {
		r.out.Figures = map[string]float64{}
	}
	key := p.String() + " " + label
	r.out.Figures["states "+key] = float64(fr.States)
	r.out.Figures["seconds "+key] = fr.Seconds
}

// tmWitness is the JSON witness of a tree multicast claim.
type tmWitness struct {
	Topology  string   `json:"topology"`
	Msgs      string   `json:"msgs"`
	Pruning   string   `json:"pruning"`
	Buffers   int      `json:"buffers"`
	Steps     int      `json:"steps"`
	Labels    []string `json:"trace"`
	Violation string   `json:"violation"`
}

// setWitness makes w the claim's witness, with its files.
func (r *tmRun) setWitness(w *treemcast.FamilyWitness) {
	r.witness = w
	tf := w.Trace
	var p treemcast.TraceParams
	in, err := treemcast.InstanceOf(tf)
	if err == nil {
		p = in.TraceParams()
	}
	r.out.Witness = tmWitness{Topology: tf.Topology, Msgs: w.Msgs, Pruning: p.Pruning, Buffers: p.Buffers, Steps: len(tf.Actions), Labels: tf.Labels, Violation: tf.Violation}
	rp, err := treemcast.Replay(tf)
	if err != nil {
		r.out.Err = fmt.Errorf("witness does not replay: %v", err)
		return
	}
	if rp.Violation != tf.Violation {
		r.out.Err = fmt.Errorf("witness replays to %q, recorded %q", rp.Violation, tf.Violation)
		return
	}
	files, err := render.TraceFiles(tf, rp.Model, rp.Trace, rp.Violation)
	if err != nil {
		r.out.Err = err
		return
	}
	r.out.Files = files
}

func (r *tmRun) finish(violated bool) Outcome {
	switch {
	case r.out.Err != nil:
		r.out.Verdict = Inconclusive
	case violated:
		r.out.Verdict = Violated
	case r.incon > 0:
		r.out.Verdict = Inconclusive
	default:
		r.out.Verdict = Holds
	}
	r.out.Note = strings.Join(r.notes, "; ")
	r.out.Certificate = certificate(r.out.Verdict, r.tally)
	return r.out
}

// runTM1 searches meshes in increasing size (nodes, then sizes) for a deadlock of two
// multicasts without pruning: for each mesh, buffers 1 then 2, families pairs:1:ordered,
// pairs:2:ordered (and pairs:3:ordered in full mode). The first mesh with a deadlock is reported with the
// shortest trace among all members of the family that deadlocked first. Quick mode stops
// at K = 2.
func runTM1(ctx context.Context, opt Options) Outcome {
	var r tmRun
	maxK := 3
	if opt.Quick {
		maxK = 2
	}
	meshes := []string{"mesh:2x2", "mesh:2x3", "mesh:3x2", "mesh:3x3", "mesh:4x3", "mesh:3x4", "mesh:4x4"}
	found := ""
	for _, topo := range meshes {
		for _, b := range []int{1, 2} {
			for k := 1; k <= maxK; k++ {
				p := tmPart{topo: topo, k: k, ordered: true, buffer: b}
				fr, err := r.family(ctx, opt, p, flit.PruneNone, treemcast.PropDeadlock, false, true)
				if err != nil {
					r.out.Err = err
					return r.finish(false)
				}
				r.add(p, "none", fr)
				if fr.Witness != nil {
					if r.witness == nil || fr.Witness.Length < r.witness.Length {
						r.setWitness(fr.Witness)
					}
					if found == "" {
						found = p.String()
					}
					if opt.Quick {
						goto done // quick mode: the first deadlock is the witness
					}
					break // a larger K on this mesh and buffer cannot be the smallest
				}
			}
		}
	done:
		if found != "" {
			r.notes = append(r.notes, fmt.Sprintf("smallest mesh with a deadlock without pruning: %s (first at %s)", topo, found))
			r.out.Figures["smallest mesh nodes"] = float64(nodesOf(topo))
			return r.finish(true)
		}
	}
	r.notes = append(r.notes, "no deadlock found up to mesh:4x4")
	return r.finish(false)
}

func nodesOf(topo string) int {
	g, err := model.ParseGrid(topo)
	if err != nil {
		return 0
	}
	return g.Nodes()
}

// tm2Parts are TM2's families; destination lists are in every order (":ordered") where
// the family is small enough, since 000 requires no ordering of destinations. Full:
// pairs:2 on mesh:3x3 (ascending sets) for B = 1 and 2; a stable 1/4 sample of
// pairs:2:ordered on mesh:3x3 (B = 1); a 1/20 sample of pairs:3:ordered on mesh:3x2
// (B = 2); a 1/300 sample of pairs:3 on mesh:3x3 (B = 1 and 2); a 1/1000 sample of
// pairs:2 on mesh:4x4 and a 1/2000 sample on torus:4x4 (DOR + 2 dateline VCs), B = 1.
// Quick: pairs:2:ordered on mesh:3x2 and pairs:1 on mesh:3x3 (B = 1), pairs:1 samples
// on mesh:4x4 (1/100) and torus:4x4 (1/400).
func tm2Parts(quick bool) []tmPart {
	if quick {
		return []tmPart{
			{topo: "mesh:3x2", k: 2, ordered: true, buffer: 1},
			{topo: "mesh:3x3", k: 1, buffer: 1},
			{topo: "mesh:4x4", k: 1, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 100}},
			{topo: "torus:4x4", k: 1, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 400}},
		}
	}
	return []tmPart{
		{topo: "mesh:3x2", k: 2, ordered: true, buffer: 1},
		{topo: "mesh:3x3", k: 2, buffer: 1},
		{topo: "mesh:3x3", k: 2, buffer: 2},
		{topo: "mesh:3x3", k: 2, ordered: true, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 4}},
		{topo: "mesh:3x2", k: 3, ordered: true, buffer: 2, shard: treemcast.Shard{Index: 0, Count: 20}},
		{topo: "mesh:3x3", k: 3, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 300}},
		{topo: "mesh:3x3", k: 3, buffer: 2, shard: treemcast.Shard{Index: 0, Count: 300}},
		{topo: "mesh:4x4", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 1000}},
		{topo: "torus:4x4", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 2000}},
	}
}

// runTM2 checks Lemma 1 with total pruning as 000 §3 describes it (on-stop: prune
// whenever the message cannot advance, including at the nodes flow control stops) on
// tm2Parts, then gives every policy's verdict on the first family (the others stop at
// their first deadlock, whose shortest trace is the witness in the note), and checks
// that symmetry reduction on and off agree on that family.
func runTM2(ctx context.Context, opt Options) Outcome {
	var r tmRun
	parts := tm2Parts(opt.Quick)
	violated := false
	for _, p := range parts {
		fr, err := r.family(ctx, opt, p, flit.PruneOnStop, treemcast.PropDeadlock, false, true)
		if err != nil {
			r.out.Err = err
			return r.finish(false)
		}
		r.add(p, "on-stop", fr)
		if fr.Witness != nil {
			violated = true
			if r.witness == nil || fr.Witness.Length < r.witness.Length {
				r.setWitness(fr.Witness)
			}
		}
	}
	// Every policy on the first family, and in full mode on pairs:3:ordered on mesh:3x2
	// with the paper's 2-flit buffers (where on-no-free deadlocks with 3 destinations).
	policyParts := []tmPart{parts[0]}
	if !opt.Quick {
		policyParts = append(policyParts, tmPart{topo: "mesh:3x2", k: 3, ordered: true, buffer: 2})
	}
	for _, p := range policyParts {
		for _, pr := range []flit.Prune{flit.PruneNone, flit.PruneOnNoFree, flit.PrunePartial} {
			fr, err := r.family(ctx, opt, p, pr, treemcast.PropDeadlock, true, true)
			if err != nil {
				r.out.Err = err
				return r.finish(false)
			}
			r.add(p, pr.String(), fr)
			if fr.Witness != nil {
				r.notes = append(r.notes, fmt.Sprintf("%s deadlocks on %s: %s", pr, p, fr.Witness.Trace.Violation))
			}
		}
	}
	// Symmetry reduction on and off: the same verdict on one family (quick: pairs:1 on
	// mesh:3x3; full: pairs:2 on mesh:3x2).
	p := tmPart{topo: "mesh:3x2", k: 2, buffer: 1}
	if opt.Quick {
		p = tmPart{topo: "mesh:3x3", k: 1, buffer: 1}
	}
	off, err := r.family(ctx, opt, p, flit.PruneOnStop, treemcast.PropDeadlock, false, false)
	if err != nil {
		r.out.Err = err
		return r.finish(false)
	}
	on, err := r.family(ctx, opt, p, flit.PruneOnStop, treemcast.PropDeadlock, false, true)
	if err != nil {
		r.out.Err = err
		return r.finish(false)
	}
	r.out.States += off.States
	if off.Verdict != on.Verdict || off.Covered != on.Covered {
		r.out.Err = fmt.Errorf("symmetry reduction changes the verdict on %s: %s without, %s with", p, off.Verdict, on.Verdict)
	}
	factor := float64(off.States) / float64(max(on.States, 1))
	r.out.Figures["symmetry reduction factor (states) "+p.String()] = factor
	r.notes = append(r.notes, fmt.Sprintf("symmetry on/off on %s: %s/%s, %d/%d members, %d/%d states (factor %.2f)", p, on.Verdict, off.Verdict, on.Instances, off.Instances, on.States, off.States, factor))
	// State-level symmetry (flit.Symmetric) on an instance the x reflection maps onto
	// itself (swapping the two messages).
	g, _ := model.NewMesh(3, 3)
	msgs, _ := treemcast.ParseMsgs(g, "(0,0)->(2,0),(1,2);(2,0)->(0,0),(1,2)")
	for _, b := range []int{1, 2} {
		params := treemcast.DefaultParams()
		params.Prune, params.Buffer = flit.PruneOnStop, b
		in := treemcast.Instance{Grid: g, Msgs: msgs, Params: params}
		plain, _, err1 := treemcast.Check(in, treemcast.CheckOptions{Prop: treemcast.PropExactlyOnce, Workers: opt.Workers, Context: ctx})
		red, _, err2 := treemcast.Check(in, treemcast.CheckOptions{Prop: treemcast.PropExactlyOnce, Workers: opt.Workers, Symmetry: true, Context: ctx})
		if err1 != nil || err2 != nil {
			r.out.Err = fmt.Errorf("state-level symmetry check: %v %v", err1, err2)
			return r.finish(false)
		}
		r.out.States += plain.Stats.States + red.Stats.States
		r.tally.Add(plain.Certificate())
		r.tally.Add(red.Certificate())
		if plain.Verdict != red.Verdict {
			r.out.Err = fmt.Errorf("state-level symmetry changes the verdict on %s: %v without, %v with", in, plain.Verdict, red.Verdict)
		}
		f := float64(plain.Stats.States) / float64(max(red.Stats.States, 1))
		r.out.Figures[fmt.Sprintf("state-level symmetry factor B=%d", b)] = f
		r.notes = append(r.notes, fmt.Sprintf("state-level symmetry on %s B=%d: %v/%v, %d/%d states (factor %.2f)", in, b, red.Verdict, plain.Verdict, red.Stats.States, plain.Stats.States, f))
	}
	return r.finish(violated)
}

// runTM3 checks, in every reachable state under on-stop pruning, model/flit's invariants
// (buffers, ownership, flit order, routes, exactly-once) and treemcast's independent twin
// (xy-branch, delivered-once). Full: pairs:2:ordered on mesh:3x2 (B = 1 and 2), pairs:2
// on mesh:3x3 with B = 1 and 2, a 1/300 sample of pairs:3 on mesh:3x3 (B = 2) and a
// 1/2000 sample of pairs:2 on torus:4x4. Quick: pairs:2:ordered on mesh:2x2 (B = 1 and
// 2) and pairs:1 on mesh:3x3 (B = 1).
func runTM3(ctx context.Context, opt Options) Outcome {
	var r tmRun
	parts := []tmPart{{topo: "mesh:2x2", k: 2, ordered: true, buffer: 1}, {topo: "mesh:2x2", k: 2, ordered: true, buffer: 2}, {topo: "mesh:3x3", k: 1, buffer: 1}}
	if !opt.Quick {
		parts = []tmPart{
			{topo: "mesh:3x2", k: 2, ordered: true, buffer: 1},
			{topo: "mesh:3x2", k: 2, ordered: true, buffer: 2},
			{topo: "mesh:3x3", k: 2, buffer: 1},
			{topo: "mesh:3x3", k: 2, buffer: 2},
			{topo: "mesh:3x3", k: 3, buffer: 2, shard: treemcast.Shard{Index: 0, Count: 300}},
			{topo: "torus:4x4", k: 2, buffer: 1, shard: treemcast.Shard{Index: 0, Count: 2000}},
		}
	}
	violated := false
	for _, p := range parts {
		fr, err := r.family(ctx, opt, p, flit.PruneOnStop, treemcast.PropExactlyOnce, false, true)
		if err != nil {
			r.out.Err = err
			return r.finish(false)
		}
		r.add(p, "on-stop", fr)
		if fr.Witness != nil {
			violated = true
			if r.witness == nil || fr.Witness.Length < r.witness.Length {
				r.setWitness(fr.Witness)
			}
		}
	}
	return r.finish(violated)
}
