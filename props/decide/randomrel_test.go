package decide

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// Random routing relations, checked against oracles that share no code with the exact
// decision (it must be right for any relation a user brings, not only the built-ins). A relation is an explicit table, one row per (router, input
// channel, input VC, destination), started from a built-in and mutated at random:
// outputs that depend on the input channel, non-minimal hops and U-turns, other VCs,
// and strands. It is built both as a routing file (routing.ParseFile, the trusted
// path) and as a Go relation of this package (the untrusted path); some get rows
// that read the source too, a Go relation only.

// rowKey is what a table row matches: the router, the channel the header arrived on
// (routing.Injection at its source, VC 0 then), its VC and its destination.
type rowKey struct {
	at  topology.NodeID
	in  topology.ChannelID
	vc  int
	dst topology.NodeID
}

// randRow is one row of a random table and the outputs the built-in gave it.
type randRow struct {
	key  rowKey
	out  []routing.Output
	base []routing.Output
}

// randRel is a random routing relation as an explicit table.
type randRel struct {
	g    *topology.Network
	vcs  int
	base string // the built-in the rows started from
	mut  int    // per mille of rows mutated
	rows []randRow
	// twist[i], when set, replaces row i's outputs for headers from odd sources (a Go
	// relation that reads Header.Src; the file form cannot say it).
	twist map[int][]routing.Output
	// omit drops the rows without outputs from the file (a missing row strands as an
	// empty one does).
	omit bool
	// strands: mutations may leave a row without outputs; addOnly: mutations only add
	// outputs (alternatives that may break a deadlock's cycle and leave the dependency
	// graph cyclic: the relations only the exact search proves).
	strands, addOnly bool
	// budget, when positive, makes the Go relation routing.Budgeted: outputs that do not
	// bring a header closer are misroutes, offered only while the header has taken
	// fewer (it reads Header.Misroutes; the file form cannot say it).
	budget int
	// escape, when set, names VC 0 the escape subfunction (Duato's condition is tried);
	// keepEscape (Duato's relation only) keeps the built-in's VC-0 outputs through
	// mutations, which then change the other VCs only.
	escape, keepEscape bool
	seed               uint64 // seed of the flit placements sampled for it
}

// String is the relation as a routing file, with the source-reading rows after it: a
// falsified property prints it, ready for testdata.
func (r *randRel) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "base %s, %d per mille mutated (strands %v, adding only %v, escape kept %v, misroute budget %d), seed %d\n%s", r.base, r.mut, r.strands, r.addOnly, r.keepEscape, r.budget, r.seed, r.fileJSON())
	for _, i := range r.twistRows() {
		fmt.Fprintf(&b, "\nfrom odd sources, row %d %s: %s", i, r.rowText(r.rows[i].key), r.outText(r.twist[i]))
	}
	return b.String()
}

// twistRows returns the rows with source-reading outputs, in order.
func (r *randRel) twistRows() []int {
	var is []int
	for i := range r.twist {
		is = append(is, i)
	}
	slices.Sort(is)
	return is
}

// clone returns a copy whose rows can be changed apart from r's.
func (r *randRel) clone() *randRel {
	c := *r
	c.rows = slices.Clone(r.rows)
	for i := range c.rows {
		c.rows[i].out = slices.Clone(c.rows[i].out)
	}
	c.twist = map[int][]routing.Output{}
	for i, o := range r.twist {
		c.twist[i] = slices.Clone(o)
	}
	return &c
}

// inName names the input of a row as a routing file does.
func (r *randRel) inName(k rowKey) string {
	if k.in == routing.Injection {
		return "local"
	}
	ch := r.g.Channel(k.in)
	if r.g.IsGraph() {
		return r.g.NodeName(ch.From)
	}
	return routing.DirName(r.g, ch.Dim, ch.Dir)
}

// outName names an output as a routing file does.
func (r *randRel) outName(o routing.Output) string {
	ch := r.g.Channel(o.Channel)
	name := r.g.NodeName(ch.To)
	if !r.g.IsGraph() {
		name = routing.DirName(r.g, ch.Dim, ch.Dir)
	}
	return fmt.Sprintf("%s.vc%d", name, o.VC)
}

func (r *randRel) outText(os []routing.Output) string {
	names := make([]string, len(os))
	for i, o := range os {
		names[i] = r.outName(o)
	}
	return "[" + strings.Join(names, " ") + "]"
}

func (r *randRel) rowText(k rowKey) string {
	return fmt.Sprintf("at %s in %s.vc%d to %s", r.g.NodeName(k.at), r.inName(k), k.vc, r.g.NodeName(k.dst))
}

// file returns the relation as a routing file: one row per table row, each matching
// exactly its router, input, VC and destination.
func (r *randRel) file() routing.File {
	f := routing.File{Format: routing.FileFormat, Name: "random-table", Topology: r.g.Spec(), NumVCs: r.vcs, Table: []routing.TableRow{}}
	if r.escape {
		f.EscapeVCs = []int{0}
	}
	for _, row := range r.rows {
		if r.omit && len(row.out) == 0 {
			continue
		}
		tr := routing.TableRow{Router: r.g.NodeName(row.key.at), In: r.inName(row.key), Dst: r.g.NodeName(row.key.dst), Out: []string{}}
		if row.key.in != routing.Injection {
			vc := row.key.vc
			tr.InVC = &vc
		}
		for _, o := range row.out {
			tr.Out = append(tr.Out, r.outName(o))
		}
		f.Table = append(f.Table, tr)
	}
	return f
}

func (r *randRel) fileJSON() []byte {
	data, err := json.Marshal(r.file())
	if err != nil {
		panic(err) // a File always encodes
	}
	return data
}

// tableRelation is a random table as a plain Go relation: a type outside model/routing,
// so the decision trusts none of its promises and keeps every header's source.
type tableRelation struct {
	r     *randRel
	index map[rowKey]int // lookup only
}

// goRelation returns the table as a Go relation: a *tableRelation, or an
// escapingTable when VC 0 is its escape subfunction.
func (r *randRel) goRelation() routing.Relation {
	t := &tableRelation{r: r, index: make(map[rowKey]int, len(r.rows))}
	for i, row := range r.rows {
		t.index[row.key] = i
	}
	switch {
	case r.escape && r.budget > 0:
		return escapingBudgetedTable{t}
	case r.escape:
		return escapingTable{t}
	case r.budget > 0:
		return budgetedTable{t}
	}
	return t
}

// escapingTable is a Go table whose VC 0 is the escape subfunction (routing.Escaping,
// which the decision keeps for a relation it does not trust: it carries semantics).
type escapingTable struct{ *tableRelation }

// Escape reports whether o is on VC 0.
func (e escapingTable) Escape(_ routing.Header, o routing.Output) bool { return o.VC == 0 }

// budgetedTable is a Go table with a misroute budget (routing.Budgeted: the flit model
// and the decision count each worm's misroutes and pass them to Route).
type budgetedTable struct{ *tableRelation }

// MisrouteBudget returns the table's budget.
func (b budgetedTable) MisrouteBudget() int { return b.r.budget }

// escapingBudgetedTable is a budgeted table whose VC 0 is the escape subfunction.
type escapingBudgetedTable struct{ *tableRelation }

func (e escapingBudgetedTable) MisrouteBudget() int { return e.r.budget }

func (e escapingBudgetedTable) Escape(_ routing.Header, o routing.Output) bool { return o.VC == 0 }

func (t *tableRelation) Name() string            { return "random-table" }
func (t *tableRelation) Grid() *topology.Network { return t.r.g }
func (t *tableRelation) VCs() int                { return t.r.vcs }

// Route appends the outputs of the header's row (none when it has no row), or of its
// row's source-reading twist for a header from an odd source; in a budgeted table,
// without the misroutes once the header has taken the budget's worth.
func (t *tableRelation) Route(h routing.Header, out []routing.Output) []routing.Output {
	k := rowKey{at: h.At, in: h.In.Channel, vc: h.In.VC, dst: h.Dst}
	if k.in == routing.Injection {
		k.vc = 0
	}
	i, ok := t.index[k]
	if !ok {
		return out
	}
	os := t.r.rows[i].out
	if tw, ok := t.r.twist[i]; ok && h.Src%2 == 1 {
		os = tw
	}
	for _, o := range os {
		// A budgeted table offers no misroute once the budget is spent.
		if !o.Misroute || h.Misroutes < t.r.budget {
			out = append(out, o)
		}
	}
	return out
}

// randTopo is a network the generator draws on, with its VC counts and the built-ins
// its rows start from.
type randTopo struct {
	spec  string
	vcs   []int
	bases []string
}

// randTopos are the networks of the property: small enough for the naive twin (at
// most naiveMaxVertices vertices) and for the flit explorer.
var randTopos = []randTopo{
	{"mesh:2x2", []int{1, 2}, []string{"dor", "west-first", "negative-first", "adaptive", "duato", "nonminimal", "shortest-path", "updown"}},
	{"mesh:3x2", []int{1, 2}, []string{"dor", "west-first", "north-last", "negative-first", "adaptive", "duato", "shortest-path", "updown"}},
	{"torus:4", []int{1, 2}, []string{"dor", "dor-1vc", "duato", "shortest-path", "updown"}},
	{"torus:3x3", []int{1, 2}, []string{"dor", "dor-1vc", "duato", "updown"}},
	{"random:5,6,1", []int{1, 2}, []string{"updown", "shortest-path"}},
	{"random:5,5,7", []int{1, 2}, []string{"updown", "shortest-path"}},
	{"random:6,7,3", []int{1}, []string{"updown", "shortest-path"}},
}

// genRandRel generates random relations on topos: a built-in's rows, mutated at one
// of a few rates (none, a few rows, every row), with or without source-reading rows.
// The shrinker resets mutated rows to the built-in's outputs, drops outputs and
// source-reading rows.
func genRandRel(topos []randTopo) gopter.Gen {
	grids := make([]*topology.Network, len(topos))
	dists := make([][][]int, len(topos))
	for i, tp := range topos {
		g, err := topology.Parse(tp.spec)
		if err != nil {
			panic(err) // the list above is fixed
		}
		grids[i] = g
		for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
			dists[i] = append(dists[i], g.HopDistances(d))
		}
	}
	return func(gp *gopter.GenParameters) *gopter.GenResult {
		rng := gp.Rng
		ti := rng.Intn(len(topos))
		tp, g, hops := topos[ti], grids[ti], dists[ti]
		r := &randRel{g: g, vcs: tp.vcs[rng.Intn(len(tp.vcs))], base: tp.bases[rng.Intn(len(tp.bases))],
			mut: []int{0, 0, 20, 50, 150, 400, 1000}[rng.Intn(7)], omit: rng.Intn(2) == 0, strands: rng.Intn(3) == 0, addOnly: rng.Intn(4) == 0, escape: rng.Intn(3) == 0, seed: rng.Uint64()}
		// One in five adds alternatives to a relation that deadlocks on one VC
		// (shortest paths round a ring, adaptive on a mesh), half of them bypasses on VC 1
		// straight into the destination (as testdata/last-hop-bypass.json): its
		// dependency graph stays cyclic, and only the exact search can prove what the
		// added outputs save.
		bypass := rng.Intn(5) == 0
		if bypass {
			r.vcs, r.addOnly, r.strands, r.mut = 2, true, false, []int{100, 300, 600}[rng.Intn(3)]
			r.base = "shortest-path"
			if tp.spec[:5] == "mesh:" {
				r.base = "adaptive"
			}
		}
		// One in five is Duato's relation on a mesh with its escape VC 0 kept through
		// the mutations of VC 1 (Duato's condition then often proves it).
		if tp.spec[:5] == "mesh:" && rng.Intn(5) == 0 {
			r.base, r.vcs, r.escape, r.keepEscape = "duato", 2, true, true
		}
		base, err := routing.ByName(g, r.base)
		if err != nil {
			panic(fmt.Sprintf("%s on %s: %v", r.base, g.Spec(), err))
		}
		// How a built-in of fewer VCs spreads over the relation's: kept, or the VC the
		// header arrived on.
		inherit := r.vcs > base.VCs() && rng.Intn(2) == 0
		var outs []topology.ChannelID
		for at := topology.NodeID(0); int(at) < g.Nodes(); at++ {
			ins := []topology.ChannelID{routing.Injection}
			for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
				if g.Channel(c).To == at {
					ins = append(ins, c)
				}
			}
			outs = g.AppendOut(outs[:0], at)
			for _, in := range ins {
				for vc := range r.vcs {
					if in == routing.Injection && vc > 0 {
						break
					}
					for dst := topology.NodeID(0); int(dst) < g.Nodes(); dst++ {
						if dst == at {
							continue
						}
						h := routing.Header{At: at, In: routing.Input{Channel: in, VC: min(vc, base.VCs()-1)}, Src: at, Dst: dst}
						var bo []routing.Output
						for _, o := range base.Route(h, nil) {
							o.VC = min(o.VC, r.vcs-1)
							if inherit && in != routing.Injection {
								o.VC = vc
							}
							o.Misroute = false
							if !slices.Contains(bo, o) {
								bo = append(bo, o)
							}
						}
						row := randRow{key: rowKey{at: at, in: in, vc: vc, dst: dst}, base: bo, out: slices.Clone(bo)}
						if c := g.ChannelBetween(at, dst); bypass && c != topology.None && rng.Intn(2) == 0 {
							// A bypass on VC 1 straight into the destination.
							if o := (routing.Output{Channel: c, VC: 1}); !slices.Contains(row.out, o) {
								row.out = append(row.out, o)
							}
						} else if rng.Intn(1000) < r.mut {
							row.out = mutate(rng, row.out, outs, r.vcs, r.strands)
							if r.addOnly {
								row.out = append(slices.Clone(row.base), slices.DeleteFunc(row.out, func(o routing.Output) bool { return slices.Contains(row.base, o) })...)
							}
							if r.keepEscape {
								row.out = keepEscape(row.base, row.out)
							}
						}
						r.rows = append(r.rows, row)
					}
				}
			}
		}
		if rng.Intn(4) == 0 {
			r.twist = map[int][]routing.Output{}
			for range 1 + rng.Intn(4) {
				i := rng.Intn(len(r.rows))
				r.twist[i] = mutate(rng, r.rows[i].out, g.AppendOut(outs[:0], r.rows[i].key.at), r.vcs, r.strands)
			}
		}
		if rng.Intn(5) == 0 {
			r.budget = 1 + rng.Intn(2)
			flag := func(at, dst topology.NodeID, os []routing.Output) {
				for i, o := range os {
					os[i].Misroute = hops[dst][g.Channel(o.Channel).To] >= hops[dst][at]
				}
			}
			for i := range r.rows {
				k := r.rows[i].key
				flag(k.at, k.dst, r.rows[i].out)
				flag(k.at, k.dst, r.rows[i].base)
			}
			for i, os := range r.twist {
				flag(r.rows[i].key.at, r.rows[i].key.dst, os)
			}
		}
		return gopter.NewGenResult(r, shrinkRandRel)
	}
}

// keepEscape returns the VC-0 outputs of base followed by the other outputs of os.
func keepEscape(base, os []routing.Output) []routing.Output {
	var out []routing.Output
	for _, o := range base {
		if o.VC == 0 {
			out = append(out, o)
		}
	}
	for _, o := range os {
		if o.VC != 0 && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// mutate returns a changed copy of outputs os of a router whose channels out are outs:
// one more output (perhaps back where the header came from), one output on another VC,
// one output fewer, one or two outputs drawn afresh, or (rarely, and only with strands)
// none.
func mutate(rng *rand.Rand, os []routing.Output, outs []topology.ChannelID, vcs int, strands bool) []routing.Output {
	os = slices.Clone(os)
	pick := func() routing.Output {
		return routing.Output{Channel: outs[rng.Intn(len(outs))], VC: rng.Intn(vcs)}
	}
	switch k := rng.Intn(20); {
	case k < 6:
		if o := pick(); !slices.Contains(os, o) {
			os = append(os, o)
		}
	case k < 10 && len(os) > 0:
		i := rng.Intn(len(os))
		o := routing.Output{Channel: os[i].Channel, VC: rng.Intn(vcs)}
		if !slices.Contains(os, o) {
			os[i] = o
		}
	case k < 13 && len(os) > 1:
		i := rng.Intn(len(os))
		os = slices.Delete(os, i, i+1)
	case k < 19 || !strands:
		os = []routing.Output{pick()}
		if o := pick(); rng.Intn(2) == 0 && !slices.Contains(os, o) {
			os = append(os, o)
		}
	default:
		os = nil
	}
	return os
}

// shrinkRandRel proposes simpler relations: without the source-reading rows, with
// halves, quarters, ... of the mutated rows reset to the built-in's outputs, then with
// one output of one row dropped.
func shrinkRandRel(v any) gopter.Shrink {
	r := v.(*randRel)
	var cands []*randRel
	if len(r.twist) > 0 {
		c := r.clone()
		c.twist = nil
		cands = append(cands, c)
	}
	var changed []int
	for i, row := range r.rows {
		if !slices.Equal(row.out, row.base) {
			changed = append(changed, i)
		}
	}
	for n := (len(changed) + 1) / 2; n >= 1; n = min(n-1, n/2) {
		for lo := 0; lo < len(changed); lo += n {
			c := r.clone()
			for _, i := range changed[lo:min(lo+n, len(changed))] {
				c.rows[i].out = slices.Clone(c.rows[i].base)
			}
			cands = append(cands, c)
		}
		if n == 1 {
			break
		}
	}
	for i, row := range r.rows {
		for j := range row.out {
			if len(row.out) > 1 {
				c := r.clone()
				c.rows[i].out = slices.Delete(c.rows[i].out, j, j+1)
				cands = append(cands, c)
			}
		}
	}
	k := 0
	return func() (any, bool) {
		if k >= len(cands) {
			return nil, false
		}
		k++
		return cands[k-1], true
	}
}

// randTally counts what the property saw, for the log.
type randTally struct {
	relations, twisted, budgeted           int
	holds, violated, inconclusive          int
	byCDG, byDuato, bySearch               int
	naiveCompared, naiveSkipped            int
	naiveMinimal, naiveNotMinimal          int
	flitHeld, flitInstances, flitUndecided int
	realised, replayed, explored           int
	exploreUndecided, proveInconclusive    int
	inconclusiveDeadlocks                  int // of those, with a deadlock the explorer found
	refused, reachedMinimal                int // proofs with refusals; of those, minimal among the reached only
	strandChecked                          int // relations with a stranded header, checked
	excludedHeld                           int // holding relations with configurations passed over (gap.go)
	placedByExplorer                       int // realisations whose moves the explorer found
	notes                                  []string
}

func (c *randTally) String() string {
	return fmt.Sprintf("%d relations (%d reading the source, %d the misroutes): %d holds (cdg %d, duato %d, search %d), %d violated, %d inconclusive; "+
		"naive twin: %d compared (%d minimum equal, %d not proved minimal and within the twin's minimum), %d skipped; "+
		"flit: %d holding relations with %d instances without deadlock (%d undecided), %d proofs of both forms realised, %d replayed to a deadlock, %d found by the explorer (%d undecided), %d inconclusive for want of a realisation (%d of them deadlock in a small placement); "+
		"%d relations with a stranded header after its source; %d proofs refused a configuration, %d of them then called a larger one minimal (the twin's smaller one not reached either); "+
		"%d holding relations had configurations passed over (no route their worm can be stuck on), checked with buffers of 1 to 3 flits; %d realisations placed by the explorer, each ending in the configuration shown",
		c.relations, c.twisted, c.budgeted, c.holds, c.byCDG, c.byDuato, c.bySearch, c.violated, c.inconclusive,
		c.naiveCompared, c.naiveMinimal, c.naiveNotMinimal, c.naiveSkipped,
		c.flitHeld, c.flitInstances, c.flitUndecided, c.realised, c.replayed, c.explored, c.exploreUndecided, c.proveInconclusive, c.inconclusiveDeadlocks, c.strandChecked, c.refused, c.reachedMinimal, c.excludedHeld, c.placedByExplorer)
}

// randOptions size the oracles of one run of the property.
type randOptions struct {
	naiveWorms  int   // candidate worms the naive twin may list
	naiveNodes  int64 // its search nodes
	pairs2      int   // placements of two worms the explorer checks (0: all)
	pairs2Large int   // the same on networks of more than 6 nodes (0: as pairs2)
	pairs3      int   // sampled placements of three worms
	lengths     []int // worm lengths
	buffers     []int // buffer depths (nil: one flit)
	maxStates   int64 // bound of each explorer search of a placement
	// flip, when set, is applied to every decision before it is judged (the test that
	// the property can fail).
	flip func(*Decision)
	// dropOne makes the naive twin ignore every header's last permitted output.
	dropOne bool
}

// checkRandRel judges the decision of r against the oracles and returns "" or what is
// wrong.
func checkRandRel(ctx context.Context, r *randRel, opt randOptions, tally *randTally) string {
	tally.relations++
	goRel := r.goRelation()
	rels := []routing.Relation{goRel}
	if len(r.twist) == 0 && r.budget == 0 {
		fileRel, err := routing.ParseFile(r.fileJSON(), nil)
		if err != nil {
			return "the routing file does not parse: " + err.Error()
		}
		// The file says what the table says, row by row (and strands where it has none).
		for _, row := range r.rows {
			h := routing.Header{At: row.key.at, In: routing.Input{Channel: row.key.in, VC: row.key.vc}, Src: row.key.at, Dst: row.key.dst}
			if a, b := fileRel.Route(h, nil), goRel.Route(h, nil); !slices.Equal(a, b) {
				return fmt.Sprintf("row %s: the file routes %v, the table %v", r.rowText(row.key), a, b)
			}
		}
		rels = append(rels, fileRel)
	} else if r.budget > 0 {
		tally.budgeted++
	} else {
		tally.twisted++
	}
	var ds []*Decision
	for i, rel := range rels {
		for _, skip := range []bool{false, true} {
			d, err := Decide(rel, Options{SkipSufficient: skip, Context: ctx})
			if err != nil {
				return fmt.Sprintf("decide (%T, skip sufficient %v): %v", rel, skip, err)
			}
			if opt.flip != nil {
				opt.flip(d)
			}
			if i == 0 && !skip {
				switch d.Verdict {
				case props.Holds:
					tally.holds++
					switch d.By {
					case ByCDG:
						tally.byCDG++
					case ByDuato:
						tally.byDuato++
					default:
						tally.bySearch++
					}
				case props.Violated:
					tally.violated++
				default:
					tally.inconclusive++
				}
			}
			if d.Verdict == props.Violated {
				if err := naiveCheck(rel, d.Configuration); err != nil {
					return fmt.Sprintf("decide (%T, skip sufficient %v): its configuration is not one: %v\n%s", rel, skip, err, confText(r.g, d.Configuration))
				}
			}
			ds = append(ds, d)
		}
	}
	// A stranded header is a one-worm deadlock on no channel (at its source) or one
	// (a dead end after it): the bugs TestDecideStrands pins, checked on every relation.
	if atSource, dead := strands(goRel); dead {
		tally.strandChecked++
		want := 1 // channels of the least strand
		if atSource {
			want = 0
		}
		for _, e := range ds {
			if e.Verdict == props.Holds || e.Minimal && (len(e.Configuration.Worms) != 1 || e.Configuration.Channels != want) {
				return fmt.Sprintf("a header is stranded (at its source: %v), but the decision says %s, minimal %v, %+v", atSource, e.Verdict, e.Minimal, e.Configuration)
			}
		}
	}
	d := ds[0]
	for _, e := range ds[1:] {
		if e.Verdict != d.Verdict && d.Verdict != props.Inconclusive && e.Verdict != props.Inconclusive {
			return fmt.Sprintf("the decisions disagree: %s by %s (%s) and %s by %s (%s)", d.Verdict, d.By, d.Bound, e.Verdict, e.By, e.Bound)
		}
	}
	if d.Verdict == props.Inconclusive {
		return "" // counted; only a bound makes it so
	}
	nr, msg := compareNaive(goRel, ds, opt, tally)
	if msg != "" {
		return msg
	}
	if d.Verdict == props.Holds {
		for _, e := range ds {
			if e.Excluded > 0 {
				// The verdict rests on configurations passed over for every worm
				// length and buffer depth (gap.go): the explorer tries deeper buffers.
				tally.excludedHeld++
				opt.buffers = []int{1, 2, 3}
				if tally.excludedHeld == 1 {
					tally.notes = append(tally.notes, fmt.Sprintf("the first holding relation with configurations passed over (%d): %s", e.Excluded, r))
				}
				break
			}
		}
		return flitHolds(ctx, goRel, r, opt, tally)
	}
	// Both forms are proved: the Go relation's header states keep every source, so its
	// configurations name other sources and meet other refusals than the file's.
	for _, rel := range rels {
		if msg := flitViolated(ctx, rel, r, nr, opt, tally); msg != "" {
			return fmt.Sprintf("%T: %s", rel, msg)
		}
	}
	return ""
}

// compareNaive compares the decisions with the naive twin: the verdict, and each
// violation's size with the twin's minimum (equal where the decision says it is
// minimal; otherwise as far as its proof went).
func compareNaive(rel routing.Relation, ds []*Decision, opt randOptions, tally *randTally) (*naiveResult, string) {
	var twin routing.Relation = rel
	if opt.dropOne {
		twin = dropLast{rel}
	}
	nr := naiveDecide(twin, fewestWorms, opt.naiveWorms, opt.naiveNodes)
	if nr.Skipped != "" {
		tally.naiveSkipped++
		return nil, ""
	}
	tally.naiveCompared++
	if nr.Found {
		if err := naiveCheck(twin, naiveConfiguration(twin, nr.Best)); err != nil {
			return nil, fmt.Sprintf("the naive twin's configuration is not one: %v", err)
		}
	}
	k, c := nr.size()
	for _, d := range ds {
		if (d.Verdict == props.Violated) != nr.Found {
			what := "none"
			if nr.Found {
				what = fmt.Sprintf("%d worms on %d channels\n%s", k, c, confText(rel.Grid(), naiveConfiguration(twin, nr.Best)))
			}
			return nil, fmt.Sprintf("decided %s by %s, but the naive twin finds %s", d.Verdict, d.By, what)
		}
		if !nr.Found {
			continue
		}
		dk, dc := len(d.Configuration.Worms), d.Configuration.Channels
		switch {
		case d.Minimal:
			if dk != k || dc != c {
				return nil, fmt.Sprintf("decided minimal with %d worms on %d channels, but the naive twin's minimum is %d worms on %d channels\ndecided:\n%s\nnaive:\n%s",
					dk, dc, k, c, confText(rel.Grid(), d.Configuration), confText(rel.Grid(), naiveConfiguration(twin, nr.Best)))
			}
			tally.naiveMinimal++
		case strings.HasPrefix(d.NotMinimal, "it has the fewest worms"):
			if dk != k || dc < c {
				return nil, fmt.Sprintf("decided with the fewest worms, %d on %d channels, but the naive twin's minimum is %d worms on %d channels", dk, dc, k, c)
			}
			tally.naiveNotMinimal++
		default:
			byC := naiveDecide(twin, fewestChannels, opt.naiveWorms, opt.naiveNodes)
			if byC.Skipped == "" {
				_, cc := byC.size()
				if dc != cc || dk < k {
					return nil, fmt.Sprintf("decided with the fewest channels, %d worms on %d, but the naive twin's fewest channels are %d (and fewest worms %d)", dk, dc, cc, k)
				}
			}
			tally.naiveNotMinimal++
		}
	}
	return nr, ""
}

// dropLast is a relation as the naive twin would see it if it forgot every header's
// last permitted output (the test that the property can fail).
type dropLast struct{ routing.Relation }

func (d dropLast) Route(h routing.Header, out []routing.Output) []routing.Output {
	n := len(out)
	out = d.Relation.Route(h, out)
	if len(out) > n+1 {
		out = out[:len(out)-1]
	}
	return out
}

// flitHolds checks a relation decided deadlock-free with the flit explorer: no
// placement of flitPlacements may deadlock.
func flitHolds(ctx context.Context, rel routing.Relation, r *randRel, opt randOptions, tally *randTally) string {
	tally.flitHeld++
	dl, msg := flitDeadlock(ctx, rel, r, opt, tally)
	if dl != "" {
		return "decided holds, but the explorer deadlocks " + dl
	}
	return msg
}

// flitDeadlock explores the placements of one worm, every (or a sample of) two and a
// sample of three, each with every length and buffer depth of opt, all-port, and
// returns the first that deadlocks ("" when none does), or what went wrong.
func flitDeadlock(ctx context.Context, rel routing.Relation, r *randRel, opt randOptions, tally *randTally) (deadlock, msg string) {
	g := rel.Grid()
	pairs := unicast.EndpointPairs(g)
	var places [][]unicast.Pair
	unicast.Placements(pairs, 2, func(ps []unicast.Pair) bool {
		places = append(places, slices.Clone(ps))
		return true
	})
	rng := rand.New(rand.NewSource(int64(r.seed)))
	sample := opt.pairs2
	if g.Nodes() > 6 && opt.pairs2Large > 0 {
		sample = opt.pairs2Large
	}
	if n := len(pairs); sample > 0 && len(places)-n > sample {
		two := places[n:]
		rng.Shuffle(len(two), func(i, j int) { two[i], two[j] = two[j], two[i] })
		places = places[:n+sample]
	}
	for range opt.pairs3 {
		p := rng.Perm(len(pairs))
		places = append(places, []unicast.Pair{pairs[p[0]], pairs[p[1]], pairs[p[2]]})
	}
	buffers := opt.buffers
	if buffers == nil {
		buffers = []int{1}
	}
	for _, ps := range places {
		for _, l := range opt.lengths {
			for _, b := range buffers {
				sp := unicast.Spec{Topology: g.Spec(), Pairs: ps, Length: l, Buffer: b, Ports: model.AllPort, Routing: rel}
				m, err := unicast.BuildOn(g, sp)
				if err != nil {
					return "", fmt.Sprintf("flit instance %s L=%d B=%d: %v", unicast.FormatPairs(nil, ps), l, b, err)
				}
				res := unicast.SearchReduced(m, checker.Options[flit.State]{MaxStates: opt.maxStates, Context: ctx})
				tally.flitInstances++
				switch {
				case res.Verdict == checker.Violated && res.Kind == checker.KindDeadlock:
					return fmt.Sprintf("%s with L=%d, B=%d: %s", unicast.FormatPairs(nil, ps), l, b, res.Violation), ""
				case res.Verdict != checker.Holds:
					// A livelock of a non-minimal relation is no deadlock; a bound is no
					// verdict.
					tally.flitUndecided++
				}
			}
		}
	}
	return "", ""
}

// flitViolated proves the relation (the decision, then the realisation in the flit
// model) and checks the violation: its moves replay to a deadlock — from the saved
// trace for a routing file, on the realised model for a Go relation, which a trace
// cannot name — and the explorer finds a deadlock in the realised instance. nr is the
// naive twin's answer (nil when skipped). After refusals the proof may call a
// configuration minimal that is larger than the twin's minimum only when the flit
// model does not reach the smaller one either (Realise of the twin's configuration,
// from any source); an inconclusive proof that says no flit deadlock exists with
// buffers of one flit must not meet one in the explorer's placements.
func flitViolated(ctx context.Context, rel routing.Relation, r *randRel, nr *naiveResult, opt randOptions, tally *randTally) string {
	rr, err := ProveRelation(ctx, rel, Options{})
	if err != nil {
		return "prove: " + err.Error()
	}
	if d := rr.Decision; d.Refused > 0 {
		tally.refused++
		if nr != nil && nr.Found && d.Minimal {
			if k, c := nr.size(); len(d.Configuration.Worms) != k || d.Configuration.Channels != c {
				nc := naiveConfiguration(rel, nr.Best)
				if _, err := Realise(ctx, rel, nc); err == nil {
					return fmt.Sprintf("proved minimal with %d worms on %d channels after %d refusals, but the flit model reaches the naive twin's %d worms on %d channels:\n%s", len(d.Configuration.Worms), d.Configuration.Channels, d.Refused, k, c, confText(rel.Grid(), nc))
				}
				tally.reachedMinimal++
			}
		}
	}
	if rr.Verdict != props.Violated {
		// A configuration the flit model does not reach is refused (docs/semantics.md):
		// whether the explorer finds a deadlock in small placements is noted, and
		// must not when the proof says there is none with buffers of one flit.
		tally.proveInconclusive++
		dl, msg := flitDeadlock(ctx, rel, r, opt, tally)
		if msg != "" {
			return msg
		}
		if dl != "" && strings.Contains(rr.Decision.Bound, "no flit deadlock with buffers of one flit") {
			return fmt.Sprintf("the proof says %q, but the explorer deadlocks %s", rr.Decision.Bound, dl)
		}
		if dl == "" {
			dl = "none in small placements"
		} else {
			tally.inconclusiveDeadlocks++
		}
		if len(tally.notes) < 8 {
			tally.notes = append(tally.notes, fmt.Sprintf("prove %s: %s; explorer deadlock: %s", rr.Verdict, rr.Reason, dl))
		}
		return ""
	}
	real := rr.Realisation
	if real == nil || rr.Trace == nil {
		return "violated without a realisation"
	}
	tally.realised++
	if !real.Scheduled {
		tally.placedByExplorer++
	}
	// The configuration shown is the state the moves reach: every worm owns exactly
	// the VCs it is said to hold.
	{
		tr, err := checker.Replay[flit.State](real.Result.Model, 0, real.Result.Actions())
		if err != nil {
			return "the realised moves do not replay: " + err.Error()
		}
		final := tr.Steps[len(tr.Steps)-1].State
		if cf := rr.Decision.Configuration; cf.Channels > 0 && !holdsAsIn(real.Result.Model, final, cf) {
			return fmt.Sprintf("the moves end in\n%s\nbut the configuration shown is\n%s", real.Result.Model.Format(final), confText(rel.Grid(), cf))
		}
	}
	if _, file := rel.(interface{ Source() json.RawMessage }); !file {
		tr, err := checker.Replay[flit.State](real.Result.Model, 0, real.Result.Actions())
		if err != nil {
			return "the realised moves do not replay: " + err.Error()
		}
		if txt := real.Result.Model.DeadlockText(tr.Steps[len(tr.Steps)-1].State, true); txt == "" {
			return "the realised moves end in no deadlock"
		}
	} else {
		tf, err := tracefile.Parse(unicast.TraceJSON(rr.Trace))
		if err != nil {
			return "the saved trace does not parse: " + err.Error()
		}
		if _, res, err := unicast.ReplayTrace(tf); err != nil || res == nil || !strings.Contains(res.Violation, "deadlock") {
			return fmt.Sprintf("the saved trace does not replay to a deadlock: %+v, %v", res, err)
		}
	}
	tally.replayed++
	m, err := unicast.BuildOn(rel.Grid(), real.Spec)
	if err != nil {
		return "the realised instance: " + err.Error()
	}
	res := unicast.SearchReduced(m, checker.Options[flit.State]{MaxStates: 500_000, Context: ctx})
	switch {
	case res.Verdict == checker.Violated && res.Kind == checker.KindDeadlock:
		tally.explored++
	case res.Verdict == checker.Holds:
		return fmt.Sprintf("the explorer finds no deadlock in the realised instance %s", unicast.FormatPairs(nil, real.Spec.Pairs))
	default:
		tally.exploreUndecided++ // a livelock found first, or the bound
	}
	return ""
}

// confText renders a configuration for a failure message.
func confText(g *topology.Network, c *Configuration) string {
	var b strings.Builder
	for i, w := range c.Worms {
		var route []string
		for j, v := range w.Route {
			s := fmt.Sprintf("%s.vc%d", g.ChannelName(v.Channel), v.VC)
			if j == len(w.Route)-w.Held {
				s = "|" + s
			}
			route = append(route, s)
		}
		fmt.Fprintf(&b, "  worm %d: %s -> %s, route %s (held after |), waits %v\n", i, g.NodeName(w.Src), g.NodeName(w.Dst), strings.Join(route, " "), w.Waits)
	}
	return b.String()
}

// randSeed is the gopter seed of the property; a failure prints it with the relation.
const randSeed = 20261127

// randParams returns the property's runs and oracle sizes: by default (with or without
// -short) 200 relations, the explorer on 30 two-worm and 5 three-worm placements of each
// holding one; the long tier (WORMCHECK_LONG=1, as the cross-check's) 300 relations,
// every two-worm placement on up to 6 nodes (200 on torus:3x3) and 40 of three worms.
func randParams() (int, randOptions) {
	opt := randOptions{naiveWorms: 200_000, naiveNodes: 2_000_000, lengths: []int{1, 2, 3}, maxStates: 200_000}
	if !crossLong() {
		// -short and plain go test alike, sized so that a plain run of the package
		// stays well within go test's default timeout.
		opt.pairs2, opt.pairs3, opt.maxStates = 30, 5, 20_000
		return 200, opt
	}
	opt.pairs2Large, opt.pairs3, opt.maxStates = 200, 40, 50_000
	return 300, opt
}

// TestRandomRelations is the property: on random relations (routing files and Go
// relations, coherent or not, minimal or not, with strands) the exact decision agrees
// with the naive twin (verdict; a minimal configuration's worms and channels), its
// configuration is one by the definition, the file and Go forms and the search with and
// without the sufficient conditions agree, a holding relation's small flit instances
// never deadlock, and a violation replays to a deadlock the explorer finds too.
func TestRandomRelations(t *testing.T) {
	n, opt := randParams()
	params := gopter.DefaultTestParametersWithSeed(randSeed)
	params.MinSuccessfulTests = n
	params.MaxShrinkCount = 200
	tally := &randTally{}
	ps := gopter.NewProperties(params)
	ps.Property("exact decision vs naive twin and flit model", prop.ForAll(func(r *randRel) string {
		return checkRandRel(t.Context(), r, opt, tally)
	}, genRandRel(randTopos)))
	if !ps.Run(gopter.NewFormatedReporter(true, 160, testWriter{t})) {
		t.Errorf("falsified (gopter seed %d; the relation above is its routing file)", randSeed)
	}
	t.Log(tally)
	for _, n := range tally.notes {
		t.Log(n)
	}
	if tally.holds == 0 || tally.violated == 0 {
		t.Errorf("the generator gave %d holding and %d violated relations; both must occur", tally.holds, tally.violated)
	}
}

// testWriter sends gopter's report to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestRandomRelationsCanFail shows that the property can fail: with the decision's
// verdict flipped (violated read as holds), with a worm dropped from its configuration,
// with the naive twin forgetting each header's last output, or with the verdict flipped
// and the twin off (the flit explorer alone), the check rejects some of the first
// relations the generator draws.
func TestRandomRelationsCanFail(t *testing.T) {
	_, opt := randParams()
	opt.pairs2, opt.pairs3, opt.lengths = 10, 0, []int{2}
	sabotage := []struct {
		name string
		set  func(*randOptions)
	}{
		{"verdict flipped", func(o *randOptions) {
			o.flip = func(d *Decision) {
				if d.Verdict == props.Violated {
					d.Verdict, d.Configuration, d.Minimal = props.Holds, nil, false
				}
			}
		}},
		{"worm dropped", func(o *randOptions) {
			o.flip = func(d *Decision) {
				if c := d.Configuration; c != nil && len(c.Worms) > 1 {
					c.Channels -= c.Worms[len(c.Worms)-1].Held
					c.Worms = c.Worms[:len(c.Worms)-1]
				}
			}
		}},
		{"twin drops an output", func(o *randOptions) { o.dropOne = true }},
		{"verdict flipped, explorer alone", func(o *randOptions) {
			o.naiveWorms = 0
			o.flip = func(d *Decision) {
				if d.Verdict == props.Violated {
					d.Verdict, d.Configuration, d.Minimal = props.Holds, nil, false
				}
			}
		}},
	}
	gen := genRandRel(randTopos)
	for _, s := range sabotage {
		o := opt
		s.set(&o)
		tally := &randTally{}
		failed, tried := "", 0
		for seed := int64(1); seed <= 200 && failed == ""; seed++ {
			v, ok := gen(gopter.DefaultGenParameters().CloneWithSeed(randSeed + seed)).Retrieve()
			if !ok {
				t.Fatal("the generator gave no relation")
			}
			tried++
			failed = checkRandRel(t.Context(), v.(*randRel), o, tally)
		}
		if failed == "" {
			t.Errorf("%s: the check passed all %d relations", s.name, tried)
			continue
		}
		first, _, _ := strings.Cut(failed, "\n")
		t.Logf("%s: relation %d fails: %s", s.name, tried, first)
	}
}
