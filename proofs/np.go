package proofs

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// The network-partitioning family NP1-NP7: static properties of 001's DDNs and DCNs,
// computed by counting and searching over every 2-D torus (or mesh) s x t with
// 2 <= s, t <= 32 (12 in quick mode), every h dividing both sides and every delta of
// Type III.
//
// Reference: 001 Definitions 3-8, Lemmas 1-4, Table 1, P1-P5, §3.1-§3.2.

func init() {
	Register(Claim{ID: "NP1", Source: "001 Lemma 1", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type I DDNs (Definition 4) have node level 1 and link level 1 on every torus",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, func(ctx context.Context, env Env) Outcome { return runLemma(ctx, env, partition.TypeI) })})
	Register(Claim{ID: "NP2", Source: "001 Lemma 2", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type II DDNs (Definition 5) have node level 1 and link level h on every torus",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, func(ctx context.Context, env Env) Outcome { return runLemma(ctx, env, partition.TypeII) })})
	Register(Claim{ID: "NP3", Source: "001 Lemma 3", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type III DDNs (Definition 6, every delta in 1..h-1) have node level 1 and link level 1 on every torus",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, func(ctx context.Context, env Env) Outcome { return runLemma(ctx, env, partition.TypeIII) })})
	Register(Claim{ID: "NP4", Source: "001 Lemma 4", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type IV DDNs (Definition 7) have node level 1 and link level h/2 on every torus, for even h (for odd h the level is (h+1)/2; see the note)",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, func(ctx context.Context, env Env) Outcome { return runLemma(ctx, env, partition.TypeIV) })})
	Register(Claim{ID: "NP5", Source: "001 P1-P5, Def. 8", Semantics: "static", Expected: ExpectHolds,
		Statement: "on every torus with sides >= 3 and for every type: the DCNs are disjoint and cover (P2), every DDN meets every DCN (P3), P1 (counts within 1), the DDNs are isomorphic (P4) and so are the DCNs (P5)",
		Families:  one([3]string{"tori 3..12 (and sides of 2)", "tori 3..20", "tori 3..32"}, runNP5)})
	Register(Claim{ID: "NP6", Source: "001 §3.1", Semantics: "static", Expected: ExpectHolds,
		Statement: "every directed DDN (Types III and IV) is strongly connected under its own channels on every torus with sides >= 3",
		Families:  one([3]string{"tori 3..12", "tori 3..20", "tori 3..32"}, runNP6)})
	Register(Claim{ID: "NP7", Source: "001 §3.2", Semantics: "static", Expected: ExpectViolated,
		Statement: "directed DDNs (Types III and IV) are strongly connected on a mesh (expected violated: an unreachable member pair)",
		Families:  one([3]string{"meshes 2..12", "meshes 2..20", "meshes 2..32"}, runNP7)})
}

// npMax is the largest side of the family.
func npMax(env Env) int {
	return pick(env.Size, 12, 20, 32)
}

// npInstance is one (grid, parameters) point of the family.
type npInstance struct {
	g *model.Grid
	p partition.Params
}

// forEachInstance calls f for every s x t grid of the kind with lo <= s, t <= hi, every h
// dividing both sides and, for Type III, every delta in 1..h-1, in ascending (s, t, h,
// delta) order. It stops early when f returns false or ctx is done.
func forEachInstance(ctx context.Context, kind model.Kind, lo, hi int, keep func(s, t int) bool, types []partition.Type, f func(npInstance) bool) error {
	for s := lo; s <= hi; s++ {
		for t := lo; t <= hi; t++ {
			if keep != nil && !keep(s, t) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			var g *model.Grid
			var err error
			if kind == model.Mesh {
				g, err = model.NewMesh(s, t)
			} else {
				g, err = model.NewTorus(s, t)
			}
			if err != nil {
				return err
			}
			for h := 1; h <= min(s, t); h++ {
				if s%h != 0 || t%h != 0 {
					continue
				}
				for _, typ := range types {
					if typ == partition.TypeIII {
						for d := 1; d < h; d++ {
							if !f(npInstance{g, partition.Params{Type: typ, H: h, Delta: d}}) {
								return nil
							}
						}
						continue
					}
					if !f(npInstance{g, partition.Params{Type: typ, H: h}}) {
						return nil
					}
				}
			}
		}
	}
	return nil
}

// LevelWitness is the evidence of a Table 1 mismatch: the instance, the levels found and
// expected, and the node or channel that attains the offending level.
type LevelWitness struct {
	Topology  string `json:"topology"`
	Type      string `json:"type"`
	H         int    `json:"h"`
	Delta     int    `json:"delta,omitempty"`
	NodeLevel int    `json:"node_level"`
	LinkLevel int    `json:"link_level"`
	WantLink  string `json:"want_link_level"`
	Node      string `json:"node,omitempty"`
	Channel   string `json:"channel,omitempty"`
}

// tableLink returns Table 1's link level for the type as twice its value (h/2 is
// fractional for odd h) and whether the lemma applies to h.
func tableLink(typ partition.Type, h int) (twice int, applies bool) {
	switch typ {
	case partition.TypeI, partition.TypeIII:
		return 2, true
	case partition.TypeII:
		return 2 * h, true
	}
	return h, h%2 == 0 // Type IV: h/2, a link count only for even h
}

func runLemma(ctx context.Context, env Env, typ partition.Type) Outcome {
	var out Outcome
	var first, outside *LevelWitness
	fails, outsideFails, outsideN := 0, 0, 0
	err := forEachInstance(ctx, model.Torus, 2, npMax(env), nil, []partition.Type{typ}, func(in npInstance) bool {
		subs, err := partition.DDNs(in.g, in.p)
		if err != nil {
			out.Err = err
			return false
		}
		l := partition.ComputeLevels(in.g, subs)
		twice, applies := tableLink(typ, in.p.H)
		bad := l.Node > 1 || 2*l.Link != twice
		w := &LevelWitness{Topology: in.g.Spec(), Type: typ.String(), H: in.p.H, Delta: in.p.Delta,
			NodeLevel: l.Node, LinkLevel: l.Link, WantLink: halfString(twice)}
		if l.Node > 1 {
			w.Node = in.g.NodeName(l.NodeWitness)
		} else {
			w.Channel = in.g.ChannelName(l.LinkWitness)
		}
		if !applies {
			outsideN++
			if bad {
				outsideFails++
				if outside == nil || (outside.H == 1 && in.p.H > 1) {
					outside = w
				}
			}
			return true
		}
		out.Instances++
		if bad {
			fails++
			if first == nil {
				first = w
			}
		}
		return true
	})
	if out.Err == nil {
		out.Err = err
	}
	if out.Err != nil {
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

func halfString(twice int) string {
	if twice%2 == 0 {
		return fmt.Sprint(twice / 2)
	}
	return fmt.Sprintf("%d/2", twice)
}

func rangeText(env Env) string {
	return fmt.Sprintf("s x t with 2 <= s, t <= %d and", npMax(env))
}

// PropertyWitness is the evidence of a failed P1-P5 or connectivity check.
type PropertyWitness struct {
	Topology string `json:"topology"`
	Type     string `json:"type"`
	H        int    `json:"h"`
	Delta    int    `json:"delta,omitempty"`
	Property string `json:"property"`
	Verdict  string `json:"verdict"`
	Detail   string `json:"detail"`
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

// np5 checks P1-P5 on every instance whose sides keep accepts.
func np5(ctx context.Context, env Env, keep func(s, t int) bool) (out Outcome, fails int, inconclusive bool, first *PropertyWitness) {
	type key struct{ s, t, h int }
	var dcnKey key
	var dcns []partition.Subnetwork
	var p2, p5 partition.Check
	err := forEachInstance(ctx, model.Torus, 2, npMax(env), keep, partition.Types(), func(in npInstance) bool {
		k := key{in.g.Size(0), in.g.Size(1), in.p.H}
		if dcns == nil || k != dcnKey {
			var err error
			if dcns, err = partition.DCNs(in.g, in.p.H); err != nil {
				out.Err = err
				return false
			}
			dcnKey = k
			p2 = partition.CheckP2(in.g, dcns)
			p5 = partition.CheckIsomorphic("P5", in.g, dcns, partition.IsoOptions{})
		}
		ddns, err := partition.DDNs(in.g, in.p)
		if err != nil {
			out.Err = err
			return false
		}
		out.Instances++
		checks := []partition.Check{
			partition.CheckP1(in.g, ddns, 1), p2, partition.CheckP3(ddns, dcns),
			partition.CheckIsomorphic("P4", in.g, ddns, partition.IsoOptions{}), p5,
		}
		for _, c := range checks {
			if c.Verdict == props.Holds {
				continue
			}
			if c.Verdict == props.Inconclusive {
				inconclusive = true
			} else {
				fails++
			}
			if first == nil || (first.Verdict == props.Inconclusive.String() && c.Verdict == props.Violated) {
				first = &PropertyWitness{Topology: in.g.Spec(), Type: in.p.Type.String(), H: in.p.H, Delta: in.p.Delta,
					Property: c.Property, Verdict: c.Verdict.String(), Detail: c.Witness}
			}
		}
		return true
	})
	if out.Err == nil {
		out.Err = err
	}
	return out, fails, inconclusive, first
}

// ReachWitness is an unreachable member pair of a directed subnetwork.
type ReachWitness struct {
	Topology   string `json:"topology"`
	Type       string `json:"type"`
	H          int    `json:"h"`
	Delta      int    `json:"delta,omitempty"`
	Subnetwork string `json:"subnetwork"`
	From       string `json:"from"`
	To         string `json:"to"`
}

// connectivity runs StronglyConnected on every DDN of every instance and returns the
// instance count, the failing count and the first unreachable pair.
func connectivity(ctx context.Context, kind model.Kind, hi int, keep func(s, t int) bool) (n, bad, connectedMulti int, first *ReachWitness, firstIII *ReachWitness, err error) {
	types := []partition.Type{partition.TypeIII, partition.TypeIV}
	err = forEachInstance(ctx, kind, 2, hi, keep, types, func(in npInstance) bool {
		subs, e := partition.DDNs(in.g, in.p)
		if e != nil {
			err = e
			return false
		}
		n++
		var w *ReachWitness
		for _, s := range subs {
			if r := partition.StronglyConnected(in.g, s); !r.Connected {
				w = &ReachWitness{Topology: in.g.Spec(), Type: in.p.Type.String(), H: in.p.H, Delta: in.p.Delta,
					Subnetwork: s.Name, From: in.g.NodeName(r.From), To: in.g.NodeName(r.To)}
				break
			}
		}
		if w != nil {
			bad++
			if first == nil {
				first = w
			}
			if firstIII == nil && in.p.Type == partition.TypeIII {
				firstIII = w
			}
		} else if len(subs[0].Nodes) > 1 {
			connectedMulti++
		}
		return true
	})
	return n, bad, connectedMulti, first, firstIII, err
}

func runNP6(ctx context.Context, env Env) Outcome {
	n, bad, _, first, _, err := connectivity(ctx, model.Torus, npMax(env), func(s, t int) bool { return s >= 3 && t >= 3 })
	if err != nil {
		return Outcome{Err: err}
	}
	out := Outcome{Instances: n, Verdict: Holds, Figures: map[string]float64{"failing_instances": float64(bad)}}
	out.Note = fmt.Sprintf("%d (torus, type, h, delta) instances, 3 <= s, t <= %d", n, npMax(env))
	if first != nil {
		out.Verdict, out.Witness = Violated, first
		out.Note += fmt.Sprintf("; %s cannot reach %s in %s of %s", first.From, first.To, first.Subnetwork, first.Topology)
	}
	// Sides of 2: the model wires a ring of 2 as one channel each way (no wrap-around), so
	// a directed DDN spanning both positions of such a side loses its way back.
	_, bad2, _, first2, _, err := connectivity(ctx, model.Torus, npMax(env), func(s, t int) bool { return s == 2 || t == 2 })
	if err != nil {
		return Outcome{Err: err}
	}
	out.Figures["side2_failing_instances"] = float64(bad2)
	if first2 != nil {
		out.Note += fmt.Sprintf("; sides of 2 are excluded: the model's ring of 2 has no wrap-around channel, and e.g. in %s of %s (Type %s, h=%d) %s cannot reach %s",
			first2.Subnetwork, first2.Topology, first2.Type, first2.H, first2.From, first2.To)
	}
	return out
}

// reachFiles renders an unreachable-pair witness as JSON and as a picture of the DDN
// family with the pair ringed (for prove --witness-dir).
func reachFiles(w *ReachWitness) map[string][]byte {
	files := map[string][]byte{}
	if b, err := json.MarshalIndent(w, "", "  "); err == nil {
		files["json"] = append(b, '\n')
	}
	g, err := model.ParseGrid(w.Topology)
	if err != nil {
		return files
	}
	typ, _ := partition.ParseType(w.Type)
	p := partition.Params{Type: typ, H: w.H, Delta: w.Delta}
	ddns, err1 := partition.DDNs(g, p)
	dcns, err2 := partition.DCNs(g, w.H)
	if err1 != nil || err2 != nil {
		return files
	}
	k := slices.IndexFunc(ddns, func(s partition.Subnetwork) bool { return s.Name == w.Subnetwork })
	if k < 0 {
		return files
	}
	from, to := model.NodeID(model.None), model.NodeID(model.None)
	for _, v := range ddns[k].Nodes {
		if g.NodeName(v) == w.From {
			from = v
		}
		if g.NodeName(v) == w.To {
			to = v
		}
	}
	var pair []model.NodeID
	if from != model.None && to != model.None && from != to {
		pair = []model.NodeID{from, to}
	}
	conv := func(subs []partition.Subnetwork) []render.Subnetwork {
		out := make([]render.Subnetwork, len(subs))
		for i, s := range subs {
			out[i] = render.Subnetwork{Name: s.Name, Directed: s.Orientation != partition.Undirected, Nodes: s.Nodes, Channels: s.Channels}
		}
		return out
	}
	caption := fmt.Sprintf("%s of %s: %s cannot reach %s", w.Subnetwork, w.Topology, w.From, w.To)
	if pic, err := render.Partition(g, conv(ddns[k:k+1]), conv(dcns), render.PartitionOptions{Title: caption, Pair: pair, Caption: caption}); err == nil {
		files["svg"] = pic
	}
	return files
}

func runNP7(ctx context.Context, env Env) Outcome {
	n, bad, connectedMulti, first, firstIII, err := connectivity(ctx, model.Mesh, npMax(env), nil)
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
	if first == nil {
		out.Verdict = Holds
		return out
	}
	out.Verdict, out.Witness = Violated, first
	out.Note += fmt.Sprintf("; e.g. in %s of %s (Type %s, h=%d) %s cannot reach %s", first.Subnetwork, first.Topology, first.Type, first.H, first.From, first.To)
	// The witness shown (and drawn) is the first Type III one, the case §3.2 discusses;
	// the note also names the smallest instance of all.
	if firstIII != nil {
		out.Witness = firstIII
	}
	out.Files = reachFiles(out.Witness.(*ReachWitness))
	if firstIII != nil {
		out.Note += fmt.Sprintf("; Type III: in %s of %s (h=%d, delta=%d) %s cannot reach %s", firstIII.Subnetwork, firstIII.Topology, firstIII.H, firstIII.Delta, firstIII.From, firstIII.To)
	}
	return out
}
