package schedule

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The exact depth decision. With tc normalised to 1 (every time scales with tc when ts and
// tr are measured in units of tc, so only ts/tc, tr/tc and L matter), every start time of
// the timed semantics is a maximum of linear forms c + a*ts + b*L + d*tr with non-negative
// integer coefficients (the recursion of Simulate only adds such forms and takes maxima).
// Two unicasts A, B holding a channel at positions i, j (0-based) overlap iff
// |(a_A + i) - (a_B + j)| < L. With a_A = max_p f_p and a_B = max_q g_q:
//
//	a_A + i < a_B + j + L  iff  exists q: for all p:  f_p + i < g_q + j + L
//	a_B + j < a_A + i + L  iff  exists p': for all q': g_q' + j < f_p' + i + L
//
// so the pair can collide iff for some (q, p') the linear system with strict and
// non-strict inequalities, plus ts >= 0, tr >= 0, L >= 1, has a solution. Each system is
// decided exactly by Fourier–Motzkin elimination of ts and tr (exact over the reals,
// strictness tracked), which leaves an interval for L; L is the message length in flits,
// an integer, and the interval is tested for an integer >= 1 (so integrality is handled,
// not assumed away). ts and tr are real; a feasible rational polyhedron has rational
// points, which the witness picks by back-substitution and scales to integers through tc.
// The witness is then re-simulated with Simulate at those integer parameters, and the
// first contention of that simulation is reported — a decision can only say "violated"
// with a concrete, replayable timing.

// form is c + a*ts + b*L + d*tr as [c, a, b, d].
type form [4]int64

// maxForm is a maximum of forms, Pareto-pruned (no form is coordinatewise <= another)
// and sorted, so equal maxima have equal representations.
type maxForm []form

func (m maxForm) shift(f form) maxForm {
	out := make(maxForm, len(m))
	for i, g := range m {
		out[i] = form{g[0] + f[0], g[1] + f[1], g[2] + f[2], g[3] + f[3]}
	}
	return out
}

func dominated(f, g form) bool { // f <= g everywhere (all variables >= 0, L >= 1 > 0)
	return f[0] <= g[0] && f[1] <= g[1] && f[2] <= g[2] && f[3] <= g[3]
}

// maxOf returns the pruned maximum of a and b.
func maxOf(a, b maxForm) maxForm {
	all := append(slices.Clone(a), b...)
	slices.SortFunc(all, func(x, y form) int {
		for k := range 4 {
			if x[k] != y[k] {
				return cmp64(y[k], x[k])
			}
		}
		return 0
	})
	all = slices.Compact(all)
	out := all[:0]
	for i, f := range all {
		keep := true
		for j, g := range all {
			if i != j && dominated(f, g) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

func (m maxForm) eval(p props.Params) int64 {
	var best int64
	for k, f := range m {
		v := f[0]*p.Tc + f[1]*p.Ts + f[2]*p.L*p.Tc + f[3]*p.Tr
		if k == 0 || v > best {
			best = v
		}
	}
	return best
}

// MaxForms bounds the pieces of one symbolic start time; beyond it the decision is
// inconclusive rather than slow.
const MaxForms = 256

// symbolicStarts computes the start time of every unicast as a maxForm (tc = 1).
func symbolicStarts(s *model.Schedule) ([]maxForm, error) {
	rec := receivers(s)
	if w := causal(s, rec, nil); w != nil {
		return nil, fmt.Errorf("schedule is not causal: %s", w.String())
	}
	rank, lists := sendOrder(s)
	n := len(s.Unicasts)
	start := make([]maxForm, n)
	state := make([]uint8, n)
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case 2:
			return nil
		case 1:
			return fmt.Errorf("unicast %d waits on itself (send orders and receptions form a cycle)", i)
		}
		state[i] = 1
		u := s.Unicasts[i]
		g := s.GroupOf(i)
		R := maxForm{{}}
		if !isSource(s, u.From, g) {
			j := rec[[2]int{int(u.From), g}]
			if err := visit(j); err != nil {
				return err
			}
			R = start[j].shift(form{int64(len(s.Unicasts[j].Path)), 0, 1, 1})
		}
		a := R.shift(form{0, int64(rank[i]), 0, 0})
		for _, k := range lists[[2]int{int(u.From), g}][:rank[i]-1] {
			if s.Ports == model.OnePort || s.Unicasts[k].Path[0] == u.Path[0] {
				if err := visit(k); err != nil {
					return err
				}
				a = maxOf(a, start[k].shift(form{0, 0, 1, 0}))
			}
		}
		if len(a) > MaxForms {
			return fmt.Errorf("start time of unicast %d has %d linear pieces (bound %d)", i, len(a), MaxForms)
		}
		start[i] = a
		state[i] = 2
		return nil
	}
	for i := range n {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return start, nil
}

// cons is a·(ts, L, tr) + c < 0 (strict) or <= 0.
type cons struct {
	a      [3]int64
	c      int64
	strict bool
}

var errOverflow = errors.New("integer overflow in Fourier–Motzkin elimination")

func mulChk(a, b int64, bad *bool) int64 {
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(abs64(a)), uint64(abs64(b))
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || lo > 1<<61 {
		*bad = true
		return 0
	}
	if neg {
		return -int64(lo)
	}
	return int64(lo)
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func gcd(a, b int64) int64 {
	a, b = abs64(a), abs64(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (k *cons) normalise() {
	g := gcd(gcd(gcd(k.a[0], k.a[1]), k.a[2]), k.c)
	if g > 1 {
		k.a[0] /= g
		k.a[1] /= g
		k.a[2] /= g
		k.c /= g
	}
}

// eliminate removes variable v from cs by Fourier–Motzkin; it reports false if a
// variable-free constraint is violated.
func eliminate(cs []cons, v int, bad *bool) ([]cons, bool) {
	var pos, neg, out []cons
	for _, k := range cs {
		switch {
		case k.a[v] > 0:
			pos = append(pos, k)
		case k.a[v] < 0:
			neg = append(neg, k)
		default:
			out = append(out, k)
		}
	}
	for _, p := range pos {
		for _, n := range neg {
			mp, mn := -n.a[v], p.a[v]
			var k cons
			for x := range 3 {
				k.a[x] = mulChk(mp, p.a[x], bad) + mulChk(mn, n.a[x], bad)
			}
			k.c = mulChk(mp, p.c, bad) + mulChk(mn, n.c, bad)
			k.strict = p.strict || n.strict
			k.normalise()
			out = append(out, k)
		}
	}
	// Check variable-free constraints and drop them; dedupe the rest.
	kept := out[:0]
	for _, k := range out {
		if k.a == [3]int64{} {
			if k.c > 0 || (k.strict && k.c == 0) {
				return nil, false
			}
			continue
		}
		kept = append(kept, k)
	}
	slices.SortFunc(kept, func(x, y cons) int {
		for i := range 3 {
			if x.a[i] != y.a[i] {
				return cmp64(x.a[i], y.a[i])
			}
		}
		if x.c != y.c {
			return cmp64(x.c, y.c)
		}
		if x.strict == y.strict {
			return 0
		}
		if x.strict {
			return 1
		}
		return -1
	})
	// Among constraints with equal coefficients keep the tightest (largest c, strict).
	res := kept[:0]
	for i, k := range kept {
		if i+1 < len(kept) && kept[i+1].a == k.a {
			continue
		}
		res = append(res, k)
	}
	return res, true
}

// overlapSystem builds the constraints for "A (start fa, offset i) and B (start gb,
// offset j) overlap", choosing pieces q of B and p of A as the maxima (see above).
func overlapSystem(fa maxForm, i int64, gb maxForm, j int64, q, p int) []cons {
	cs := make([]cons, 0, len(fa)+len(gb)+3)
	g := gb[q]
	for _, f := range fa { // f + i - g - j - L < 0
		cs = append(cs, cons{a: [3]int64{f[1] - g[1], f[2] - g[2] - 1, f[3] - g[3]}, c: f[0] + i - g[0] - j, strict: true})
	}
	f := fa[p]
	for _, g := range gb { // g + j - f - i - L < 0
		cs = append(cs, cons{a: [3]int64{g[1] - f[1], g[2] - f[2] - 1, g[3] - f[3]}, c: g[0] + j - f[0] - i, strict: true})
	}
	cs = append(cs,
		cons{a: [3]int64{-1, 0, 0}},       // ts >= 0
		cons{a: [3]int64{0, 0, -1}},       // tr >= 0
		cons{a: [3]int64{0, -1, 0}, c: 1}) // L >= 1
	for k := range cs {
		cs[k].normalise()
	}
	return cs
}

// smallestL returns the least integer L >= 1 satisfying the L-only constraints cs.
func smallestL(cs []cons) (int64, bool) {
	cand := int64(1)
	for _, k := range cs {
		a := k.a[1]
		if a >= 0 {
			continue
		}
		// a*L + c < 0 with a < 0: L > c/(-a) (strict) or L >= c/(-a).
		num, den := k.c, -a
		fl := floorDiv(num, den)
		var m int64
		if k.strict || fl*den != num {
			m = fl + 1
		} else {
			m = fl
		}
		cand = max(cand, m)
	}
	for _, k := range cs {
		v := k.a[1]*cand + k.c
		if v > 0 || (k.strict && v == 0) {
			return 0, false
		}
	}
	return cand, true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// feasible decides one system; it returns the least integer L of a solution.
func feasible(cs []cons, bad *bool) (int64, bool) {
	c1, ok := eliminate(cs, 0, bad)
	if !ok {
		return 0, false
	}
	c2, ok := eliminate(c1, 2, bad)
	if !ok {
		return 0, false
	}
	return smallestL(c2)
}

// surelyAfter reports whether b + j >= a + i + L for every admissible parameter point,
// by piecewise dominance: for every piece f of a some piece g of b has
// g + j - f - i - L >= 0 on ts, tr >= 0, L >= 1 (non-negative ts, tr coefficients, and
// b + c >= 0 for the form b*L + c). It is a sound, cheap test that skips the elimination
// for pairs ordered by Theorem 1's conditions 3 and 4.
func surelyAfter(a maxForm, i int64, b maxForm, j int64) bool {
	for _, f := range a {
		ok := false
		for _, g := range b {
			c, ts, l, tr := g[0]+j-f[0]-i, g[1]-f[1], g[2]-f[2]-1, g[3]-f[3]
			if ts >= 0 && tr >= 0 && l >= 0 && l+c >= 0 {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// canOverlap decides whether A and B can hold a common channel (positions i and j) at
// overlapping times for some admissible parameters, and returns a parameter point.
// With quick set, the dominance test surelyAfter may answer first.
func canOverlap(fa maxForm, i int64, gb maxForm, j int64, quick bool) (bool, *props.Params, error) {
	if quick && (surelyAfter(fa, i, gb, j) || surelyAfter(gb, j, fa, i)) {
		return false, nil, nil
	}
	bad := false
	for q := range gb {
		for p := range fa {
			cs := overlapSystem(fa, i, gb, j, q, p)
			L, ok := feasible(cs, &bad)
			if bad {
				return false, nil, errOverflow
			}
			if ok {
				pt := witnessPoint(cs, L)
				return true, pt, nil
			}
		}
	}
	return false, nil, nil
}

// witnessPoint picks rational tr then ts in the system with L fixed and scales them to
// integer parameters through tc.
func witnessPoint(cs []cons, L int64) *props.Params {
	// Substitute L, giving constraints over (ts, tr) as big.Rat.
	type rc struct {
		ts, tr, c *big.Rat
		strict    bool
	}
	sub := func(in []cons) []rc {
		out := make([]rc, len(in))
		for k, x := range in {
			out[k] = rc{big.NewRat(x.a[0], 1), big.NewRat(x.a[2], 1), big.NewRat(x.a[1]*L+x.c, 1), x.strict}
		}
		return out
	}
	pick := func(lo *big.Rat, loStrict bool, hi *big.Rat, hiStrict bool) *big.Rat {
		switch {
		case hi == nil && !loStrict:
			return lo
		case hi == nil:
			return new(big.Rat).Add(lo, big.NewRat(1, 1))
		case !loStrict:
			return lo
		}
		m := new(big.Rat).Add(lo, hi)
		return m.Mul(m, big.NewRat(1, 2))
	}
	// bounds of variable x (coefficient getter) given others substituted into c.
	bounds := func(rs []rc, coef func(rc) *big.Rat, rest func(rc) *big.Rat) *big.Rat {
		var lo, hi *big.Rat
		var loS, hiS bool
		for _, r := range rs {
			a := coef(r)
			c := new(big.Rat).Add(r.c, rest(r))
			if a.Sign() == 0 {
				continue
			}
			b := new(big.Rat).Neg(c)
			b.Quo(b, a) // a x + c < 0 -> x < -c/a if a > 0, x > -c/a if a < 0
			if a.Sign() > 0 {
				if hi == nil || b.Cmp(hi) < 0 || (b.Cmp(hi) == 0 && r.strict) {
					hi, hiS = b, r.strict
				}
			} else {
				if lo == nil || b.Cmp(lo) > 0 || (b.Cmp(lo) == 0 && r.strict) {
					lo, loS = b, r.strict
				}
			}
		}
		if lo == nil {
			lo = new(big.Rat)
		}
		return pick(lo, loS, hi, hiS)
	}
	bad := false
	c1, _ := eliminate(cs, 0, &bad)
	zero := func(rc) *big.Rat { return new(big.Rat) }
	tr := bounds(sub(c1), func(r rc) *big.Rat { return r.tr }, zero)
	ts := bounds(sub(cs), func(r rc) *big.Rat { return r.ts }, func(r rc) *big.Rat { return new(big.Rat).Mul(r.tr, tr) })
	d := new(big.Int).Mul(ts.Denom(), tr.Denom())
	d.Quo(d, new(big.Int).GCD(nil, nil, ts.Denom(), tr.Denom()))
	sc := func(x *big.Rat) int64 {
		v := new(big.Rat).Mul(x, new(big.Rat).SetInt(d))
		return v.Num().Int64()
	}
	return &props.Params{Ts: sc(ts), Tr: sc(tr), Tc: d.Int64(), L: L}
}

// PairVerdict is the judgement of one pair of unicasts that share a directed channel:
// whether they can overlap on it in the timed semantics for some parameters (Overlap,
// decided exactly, at the first shared channel where they can; otherwise Channel is their
// first shared channel), and which condition of 004 Theorem 1 clears the pair (1, 3 or 4;
// 0 when none does; condition 2, arc-disjointness, never applies to a sharing pair).
type PairVerdict struct {
	A         int    `json:"a"`
	B         int    `json:"b"`
	Channel   string `json:"channel"`
	ChannelID int    `json:"channel_id"`
	Overlap   bool   `json:"overlap"`
	Condition int    `json:"theorem1_condition"`
}

// DepthResult is the outcome of DecideDepth.
type DepthResult struct {
	// ContentionFree is true when no pair can overlap for any admissible parameters.
	ContentionFree bool `json:"contention_free"`
	// Pairs lists every pair sharing a channel, in order of (first shared channel, A, B).
	Pairs []PairVerdict `json:"pairs"`
	// Witness is the first contention of the timed simulation at parameters where the
	// first overlapping pair of Pairs collides (nil when ContentionFree).
	Witness *props.ScheduleWitness `json:"witness,omitempty"`
	// Pieces is the largest number of linear pieces of a start time.
	Pieces int `json:"pieces"`
	// Cleared counts the pairs cleared by Theorem 1 conditions 1, 3 and 4 (index 0: by
	// none); Unsound counts pairs a condition clears that can nevertheless overlap.
	Cleared [5]int `json:"cleared"`
	Unsound int    `json:"unsound"`
}

// DepthOptions tunes DecideDepth.
type DepthOptions struct {
	// NoShortcut disables the shortcuts that skip the linear systems: a pair in which B's
	// sender lies in the receive tree below A's target (then B starts after A delivered),
	// and the piecewise dominance test (surelyAfter). Tests use it to exercise the
	// elimination on every pair.
	NoShortcut bool
	// NoTheorem1 skips the Theorem 1 classification of pairs.
	NoTheorem1 bool
	// NoGrid skips Depth's cross-check of the decision against timed simulations on
	// DefaultGrid (a grid contention the decision missed would make the report
	// inconclusive, with both in the reason).
	NoGrid bool
	// Context, if not nil, stops the decision when it ends (a signal, a time or memory
	// budget): DecideDepth then returns the pairs decided so far with an error wrapping
	// context.Cause, and Depth an inconclusive report that counts them. It is checked
	// every stopEvery pairs and between grid points.
	Context context.Context
}

// stopEvery is how many channel-sharing pairs the depth decision handles between two
// looks at its Context: a few milliseconds of work.
const stopEvery = 256

// errStopped is the error of a decision its Context stopped; it wraps the cause.
type errStopped struct{ cause error }

func (e errStopped) Error() string { return "cancelled: " + e.cause.Error() }
func (e errStopped) Unwrap() error { return e.cause }

// stopped returns an errStopped if ctx (which may be nil) has ended, else nil.
func stopped(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return errStopped{context.Cause(ctx)}
}

// DecideDepth decides depth contention freedom of s exactly, for all ts, tr >= 0, tc > 0
// and integer L >= 1 (see the comment above), and classifies every channel-sharing pair by
// the conditions of 004 Theorem 1. Reference: 004 §3 (depth contention-free), Theorem 1.
func DecideDepth(s *model.Schedule, opt DepthOptions) (*DepthResult, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	starts, err := symbolicStarts(s)
	if err != nil {
		return nil, err
	}
	res := &DepthResult{}
	for _, m := range starts {
		res.Pieces = max(res.Pieces, len(m))
	}
	rec := receivers(s)
	parent := func(v topology.NodeID, g int) (int, bool) { // receiving unicast of v
		if isSource(s, v, g) {
			return 0, false
		}
		j, ok := rec[[2]int{int(v), g}]
		return j, ok
	}
	// below reports whether x is A's target or lies below it in the receive tree, and A is
	// the target's receiving unicast: then x's sends start after A delivered.
	below := func(a int, x topology.NodeID, g int) bool {
		ua := s.Unicasts[a]
		if j, ok := parent(ua.To, g); !ok || j != a || s.GroupOf(a) != g {
			return false
		}
		for hop := 0; hop <= len(s.Unicasts); hop++ {
			if x == ua.To {
				return true
			}
			j, ok := parent(x, g)
			if !ok {
				return false
			}
			x = s.Unicasts[j].From
		}
		return false
	}
	type use struct{ u, pos int }
	lanes := s.Lanes()
	uses := make([][]use, s.Topology.Channels()*lanes)
	for i := range s.Unicasts {
		for k := range s.Unicasts[i].Path {
			l := s.Unicasts[i].Lane(k, lanes)
			uses[l] = append(uses[l], use{i, k})
		}
	}
	seen := map[[2]int]int{}
	var th *theorem1
	if !opt.NoTheorem1 {
		th = newTheorem1(s)
	}
	var firstP *props.Params
	looked := 0
	for lane, us := range uses {
		c := lane / lanes
		for x := 0; x < len(us); x++ {
			for y := x + 1; y < len(us); y++ {
				if looked++; looked%stopEvery == 0 {
					if err := stopped(opt.Context); err != nil {
						return res, err
					}
				}
				a, b := us[x], us[y]
				if a.u > b.u {
					a, b = b, a
				}
				key := [2]int{a.u, b.u}
				pi, known := seen[key]
				if known && res.Pairs[pi].Overlap {
					continue
				}
				var ov bool
				var pt *props.Params
				ga, gb := s.GroupOf(a.u), s.GroupOf(b.u)
				if !opt.NoShortcut && ga == gb && (below(a.u, s.Unicasts[b.u].From, ga) || below(b.u, s.Unicasts[a.u].From, ga)) {
					ov = false
				} else {
					ov, pt, err = canOverlap(starts[a.u], int64(a.pos), starts[b.u], int64(b.pos), !opt.NoShortcut)
					if err != nil {
						return nil, fmt.Errorf("unicasts %d and %d: %v", a.u, b.u, err)
					}
				}
				if !known {
					pv := PairVerdict{A: a.u, B: b.u, Channel: s.Topology.ChannelName(topology.ChannelID(c)), ChannelID: c, Overlap: ov}
					seen[key] = len(res.Pairs)
					res.Pairs = append(res.Pairs, pv)
					pi = len(res.Pairs) - 1
				} else if ov {
					res.Pairs[pi].Overlap = true
					res.Pairs[pi].Channel = s.Topology.ChannelName(topology.ChannelID(c))
					res.Pairs[pi].ChannelID = c
				}
				if ov && firstP == nil {
					firstP = pt
				}
			}
		}
	}
	for k := range res.Pairs {
		if k%stopEvery == stopEvery-1 {
			if err := stopped(opt.Context); err != nil {
				return res, err
			}
		}
		pv := &res.Pairs[k]
		if th != nil {
			pv.Condition = th.condition(pv.A, pv.B)
			res.Cleared[pv.Condition]++
			if pv.Condition != 0 && pv.Overlap {
				res.Unsound++
			}
		}
	}
	res.ContentionFree = firstP == nil
	if firstP != nil {
		t, err := Simulate(s, *firstP)
		if err != nil {
			return nil, err
		}
		if t.First == nil {
			return nil, fmt.Errorf("internal error: the decision found an overlap at %v that the simulation does not show", *firstP)
		}
		res.Witness = t.First
		if th != nil {
			c := th.condition(min(t.First.A.Index, t.First.B.Index), max(t.First.A.Index, t.First.B.Index))
			if c == 0 {
				res.Witness.Note = "no condition of 004 Theorem 1 clears this pair"
			} else {
				res.Witness.Note = fmt.Sprintf("004 Theorem 1 condition %d clears this pair, yet they collide", c)
			}
		}
	}
	return res, nil
}

// Depth checks depth contention freedom (timed semantics), exactly for all parameters.
// The report's Stats.States is the number of channel-sharing pairs decided; the reason
// says how many Theorem 1 clears by which condition.
func Depth(s *model.Schedule, opt DepthOptions) *props.Report {
	r := newReport(s, checker.PropDepth, props.SemTimed)
	t0 := time.Now()
	res, err := DecideDepth(s, opt)
	if errors.As(err, new(errStopped)) {
		r.Stats.States = int64(len(res.Pairs))
		r.Stats.Seconds = time.Since(t0).Seconds()
		return fail(r, fmt.Errorf("%v after %d channel-sharing pairs; nothing was decided", err, len(res.Pairs)))
	}
	if err != nil {
		return fail(r, err)
	}
	reason := fmt.Sprintf("decided exactly for all ts, tr >= 0, tc > 0, integer L >= 1; %d channel-sharing pairs", len(res.Pairs))
	if !opt.NoGrid {
		grid := DefaultGrid()
		gw, err := gridCheck(opt.Context, s, grid)
		if errors.As(err, new(errStopped)) {
			r.Stats.States = int64(len(res.Pairs))
			r.Stats.Seconds = time.Since(t0).Seconds()
			if res.Witness != nil {
				// The decision is complete and found a contention; the grid only cross-checks it.
				return finish(r, res.Witness, reason+"; the grid cross-check was "+err.Error())
			}
			return fail(r, fmt.Errorf("%v during the grid cross-check of a decision of %d channel-sharing pairs", err, len(res.Pairs)))
		}
		if err != nil {
			return fail(r, err)
		}
		if gw != nil && res.ContentionFree {
			return fail(r, fmt.Errorf("internal error: the exact decision says contention-free but the grid finds %s", gw))
		}
		if gw != nil || res.ContentionFree {
			reason += fmt.Sprintf("; the %d-point grid agrees", len(grid))
		} else {
			reason += fmt.Sprintf("; no point of the %d-point grid collides (the contention needs other parameters)", len(grid))
		}
	}
	r.Stats.States = int64(len(res.Pairs))
	r.Stats.Seconds = time.Since(t0).Seconds()
	if !opt.NoTheorem1 {
		reason += fmt.Sprintf("; Theorem 1 clears %d by condition 1, %d by 3, %d by 4, %d by none", res.Cleared[1], res.Cleared[3], res.Cleared[4], res.Cleared[0])
		if res.Unsound > 0 {
			reason += fmt.Sprintf("; %d pairs a Theorem 1 condition clears can still overlap", res.Unsound)
		}
		// 004 Theorem 1's bookkeeping as figures, and for a contention-free schedule the
		// pairs it cannot clear (it is sufficient, not necessary) as a note.
		r.Figures = map[string]float64{
			"sharing_pairs":         float64(len(res.Pairs)),
			"cleared_by_condition1": float64(res.Cleared[1]),
			"cleared_by_condition3": float64(res.Cleared[3]),
			"cleared_by_condition4": float64(res.Cleared[4]),
			"cleared_by_none":       float64(res.Cleared[0]),
		}
		if res.ContentionFree {
			r.Notes = append(r.Notes, Theorem1Uncleared(s, res))
		}
	}
	return finish(r, res.Witness, reason)
}

// Theorem1Uncleared describes, for a depth contention-free schedule, the channel-sharing
// pairs that no condition of 004 Theorem 1 clears yet that never overlap (the exact
// decision shows it): Theorem 1 is sufficient, not necessary. One sentence.
func Theorem1Uncleared(s *model.Schedule, res *DepthResult) string {
	var parts []string
	for _, p := range res.Pairs {
		if p.Condition == 0 && !p.Overlap {
			a, b := props.Ref(s, p.A), props.Ref(s, p.B)
			parts = append(parts, fmt.Sprintf("%s->%s (step %d, order %d) and %s->%s (step %d, order %d) on %s", a.From, a.To, a.Step, a.Order, b.From, b.To, b.Step, b.Order, p.Channel))
		}
	}
	if len(parts) == 0 {
		return "Theorem 1 clears every channel-sharing pair."
	}
	return fmt.Sprintf("depth contention-free although Theorem 1 clears %d pair(s) by no condition: %s (the exact decision shows they never overlap).", len(parts), strings.Join(parts, "; "))
}
