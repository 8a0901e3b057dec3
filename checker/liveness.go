package checker

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/wormcheck/wormcheck/model/scc"
	"github.com/wormcheck/wormcheck/model/system"
)

// LivenessOptions bounds CheckLiveness. The zero value is unbounded.
type LivenessOptions struct {
	// MaxStates bounds the number of states of the explicit graph; 0 means unbounded.
	// Reaching it gives Inconclusive.
	MaxStates int64
	// MaxMemoryBytes bounds the Go heap (sampled as Options.MaxMemoryBytes is: the
	// graph keeps every state and edge); 0 means unbounded. Reaching it gives
	// Inconclusive.
	MaxMemoryBytes int64
	// Context cancels the check (Inconclusive); nil means context.Background().
	Context context.Context
}

// LivenessResult is what CheckLiveness found.
type LivenessResult[S any] struct {
	Verdict Verdict
	// Violation is a deadlock (Trace) or a fair lasso (Trace with CycleStart, kind
	// KindLivelock or KindStarvation); non-nil exactly when Verdict is Violated.
	Violation *Violation[S]
	Reason    string
	// States and Transitions are the size of the reachable graph that was built.
	States, Transitions int64
}

// CheckLiveness decides "every message is eventually delivered" on the reachable graph
// of m under weak fairness of transitions. A run violates it if it is finite and ends in
// a state with a pending message (a deadlock), or infinite and weakly fair with some
// message pending from some point on. Such an infinite run exists if and only if, for
// some message x, the states where x is pending contain a reachable strongly connected
// component C with at least one edge that is fair: every fairness class (system.Tasks,
// by default the Action) enabled in all states of C is taken by an edge inside C. (If a
// class is enabled everywhere in C and taken nowhere in C, every cycle inside C leaves it
// enabled and untaken; conversely a walk through every edge of C is a fair cycle.)
//
// The counterexample is a lasso: a shortest path to the shallowest state v of such a
// component, then a closed walk from v inside it, grown detour by detour until no class
// enabled along the whole walk is left untaken, so it is weakly fair itself. Its kind is
// KindLivelock when no transition of the walk delivers anything, KindStarvation
// otherwise. Among components the one with the shallowest entry state wins, then the
// least message id, so the witness is deterministic. ReplayLasso re-checks it.
//
// Messages are those of system.PendingMessages, or a single one pending in every non-
// Terminal state. Symmetry and partial-order reduction are not used: the graph is the
// model's own. Cost: the whole reachable graph is kept in memory, compactly (graph: per
// state its fingerprint, parent, edge offset and pending-set id, per transition its
// target and class id, and the encodings that are not word-keyed; no state value is kept,
// and a counterexample's states are rebuilt by replay), and the component search is
// O(M (V + E)) for M message ids; it is meant for instances whose progress measure is
// absent or broken.
func CheckLiveness[S any](m Model[S], opt LivenessOptions) (*LivenessResult[S], error) {
	if m == nil {
		return nil, fmt.Errorf("checker: CheckLiveness: nil model")
	}
	if opt.MaxStates < 0 {
		return nil, fmt.Errorf("checker: MaxStates is %d; it must be 0 (unbounded) or more", opt.MaxStates)
	}
	if opt.MaxMemoryBytes < 0 {
		return nil, fmt.Errorf("checker: MaxMemoryBytes is %d; it must be 0 (unbounded) or more", opt.MaxMemoryBytes)
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	g, reason, err := buildGraph(m, opt)
	if err != nil {
		return nil, err
	}
	res := &LivenessResult[S]{States: int64(g.index.len()), Transitions: int64(len(g.to))}
	if reason != "" {
		res.Verdict, res.Reason = Inconclusive, reason
		return res, nil
	}
	// A deadlock: the shallowest state without successors that has a pending message
	// (the graph was built only up to it).
	if v := g.deadlock; v >= 0 {
		root := g.rootOf(v)
		acts, err := pathActions(m, g, root, g.pathTo(v))
		if err != nil {
			return nil, err
		}
		tr, err := Replay(m, g.roots[root], acts)
		if err != nil {
			return nil, fmt.Errorf("checker: liveness: replaying a deadlock: %w", err)
		}
		res.Verdict = Violated
		res.Violation = &Violation[S]{Kind: KindDeadlock, Trace: tr,
			Message: fmt.Sprintf("deadlock: no enabled transition with message %d undelivered after %d steps", g.pendingOf(v)[0], tr.Len())}
		return res, nil
	}
	best, bestMsg := -1, -1
	var bestComp []int32
	for _, x := range g.messages() {
		for _, comp := range g.components(x) {
			if !g.fair(comp) {
				continue
			}
			if best < 0 || int(comp[0]) < best {
				best, bestMsg, bestComp = int(comp[0]), x, comp
			}
			break // components come by least entry state; the first fair one is x's best
		}
	}
	if best < 0 {
		res.Verdict = Holds
		return res, nil
	}
	prefix := g.pathTo(best)
	root := g.rootOf(best)
	actions, err := pathActions(m, g, root, append(slices.Clip(prefix), g.fairWalk(bestComp)...))
	if err != nil {
		return nil, err
	}
	lasso, finding, err := ReplayLasso(m, g.roots[root], actions, len(prefix))
	if err != nil {
		return nil, fmt.Errorf("checker: liveness: the lasso found does not replay: %w", err)
	}
	if finding.Message != bestMsg {
		return nil, fmt.Errorf("checker: liveness: internal: lasso starves message %d, expected %d", finding.Message, bestMsg)
	}
	res.Verdict = Violated
	res.Violation = &Violation[S]{Kind: finding.Kind, Trace: lasso.Trace, CycleStart: lasso.CycleStart, Message: finding.String()}
	return res, nil
}

// Lasso is an infinite run: Trace.Steps[CycleStart:] is a cycle that returns to the
// state of Trace.Steps[CycleStart] (the last step's state equals it), repeated forever.
type Lasso[S any] struct {
	Trace      Trace[S]
	CycleStart int
}

// LassoFinding is what a replayed lasso shows: the kind, a message that is pending in
// every state of the cycle, and how many messages the cycle delivers.
type LassoFinding struct {
	Kind      ViolationKind
	Message   int
	Delivered int // deliveries along one turn of the cycle
}

// String renders the finding in one line ("livelock: message 0 is never delivered; the
// cycle delivers nothing").
func (f LassoFinding) String() string {
	if f.Kind == KindLivelock {
		return fmt.Sprintf("%s: message %d is never delivered; the cycle delivers nothing", f.Kind, f.Message)
	}
	return fmt.Sprintf("%s: message %d is never delivered while the cycle delivers %d other message(s)", f.Kind, f.Message, f.Delivered)
}

// ReplayLasso re-executes actions from initial state init as Replay does and confirms
// that they form a weakly fair lasso that violates "every message is eventually
// delivered": the cycle (the steps after index cycleStart) is non-empty and returns to
// the state at cycleStart (equal encodings), some message is pending in every state of
// the cycle, and every fairness class enabled in all the cycle's states is taken on it.
// It returns the lasso and what it shows, or an error saying which of these fails.
func ReplayLasso[S any](m Model[S], init int, actions []Action, cycleStart int) (Lasso[S], LassoFinding, error) {
	if cycleStart < 0 || cycleStart >= len(actions) {
		return Lasso[S]{}, LassoFinding{}, fmt.Errorf("replay: cycle start %d must be in 0..%d (the cycle needs at least one step)", cycleStart, len(actions)-1)
	}
	tr, err := Replay(m, init, actions)
	if err != nil {
		return Lasso[S]{}, LassoFinding{}, err
	}
	l := Lasso[S]{Trace: tr, CycleStart: cycleStart}
	steps := tr.Steps
	if string(m.Encode(steps[cycleStart].State, nil)) != string(m.Encode(steps[len(steps)-1].State, nil)) {
		return l, LassoFinding{}, fmt.Errorf("replay: the cycle does not close: the state after step %d differs from the state after step %d", len(steps)-1, cycleStart)
	}
	cyc := steps[cycleStart:]
	// A message pending in every state of the cycle, and the deliveries along it.
	starving := pendingOf(m, cyc[0].State, nil)
	delivered := 0
	for k := 1; k < len(cyc); k++ {
		before := pendingOf(m, cyc[k-1].State, nil)
		after := pendingOf(m, cyc[k].State, nil)
		for _, x := range before {
			if !slices.Contains(after, x) {
				delivered++
			}
		}
		starving = slices.DeleteFunc(starving, func(x int) bool { return !slices.Contains(after, x) })
	}
	if len(starving) == 0 {
		return l, LassoFinding{}, fmt.Errorf("replay: every message is delivered or not pending somewhere on the cycle; it is not a counterexample")
	}
	// Weak fairness: classes enabled in every state of the cycle must be taken on it.
	var enabled []uint64
	taken := map[uint64]bool{}
	for k := 0; k < len(cyc)-1; k++ {
		cls := classesOf(m, cyc[k].State)
		if k == 0 {
			enabled = cls
		} else {
			enabled = slices.DeleteFunc(enabled, func(c uint64) bool { _, ok := slices.BinarySearch(cls, c); return !ok })
		}
		taken[taskOf(m, cyc[k].State, cyc[k+1].Action)] = true
	}
	for _, c := range enabled {
		if !taken[c] {
			return l, LassoFinding{}, fmt.Errorf("replay: the cycle is not weakly fair: transition class %d is enabled in every state of the cycle and never taken", c)
		}
	}
	f := LassoFinding{Kind: KindStarvation, Message: starving[0], Delivered: delivered}
	if delivered == 0 {
		f.Kind = KindLivelock
	}
	return l, f, nil
}

// pendingOf returns the pending messages of s (system.PendingMessages, or message 0 in a
// non-Terminal state).
func pendingOf[S any](m Model[S], s S, dst []int) []int {
	if p, ok := m.(system.PendingMessages[S]); ok {
		return p.Pending(s, dst)
	}
	if m.Terminal(s) {
		return dst
	}
	return append(dst, 0)
}

// taskOf returns the fairness class of transition a of s.
func taskOf[S any](m Model[S], s S, a Action) uint64 {
	if t, ok := m.(system.Tasks[S]); ok {
		return t.Task(s, a)
	}
	return uint64(a)
}

// classesOf returns the sorted, distinct fairness classes enabled in s.
func classesOf[S any](m Model[S], s S) []uint64 {
	var cls []uint64
	for _, t := range m.Successors(s, nil) {
		cls = append(cls, taskOf(m, s, t.Action))
	}
	slices.Sort(cls)
	return slices.Compact(cls)
}

// graph is the explicit reachable graph, kept about as compactly as the visited store:
// a state is its id (BFS order) and no S is kept; a path's states are re-derived by
// replay from an initial state (pathActions). Edges are CSR arrays: the targets as
// int32 ids, and per edge its fairness class as an interned id. A state's pending
// messages are an interned set id. Per state this is a fingerprint, a table slot (the
// index), a parent, an edge offset and a set id, about 27 bytes, plus 6 bytes per edge
// (8 past 65,536 classes), and the encodings of states that are not word-keyed.
//
// Invariant: the edges of state v are off[v]..off[v+1], in the model's Successors order,
// so that edge e is the transition at index e-off[v] among v's successors.
type graph struct {
	index   liveIndex
	parent  []int32  // BFS parent, -1 for an initial state
	roots   []int    // for an initial state v (v < len(roots)), its index in Init()
	off     []uint32 // per expanded state, then one more
	to      []int32
	task    edgeClasses
	classes classIntern
	pset    []uint32          // per expanded state, its pending set id
	sets    [][]int           // set id -> the pending messages, sorted
	setIDs  map[string]uint32 // a set's varints -> its id
	setKey  []byte
	// deadlock is the first state (in BFS order, so a shallowest one) without
	// successors that has a pending message, or -1; the graph stops there.
	deadlock int
}

// edgeClasses holds the class id of every edge: two bytes an edge while the ids fit
// (flit models have a few hundred classes), four after.
type edgeClasses struct {
	narrow []uint16
	wide   []uint32 // set once an id passes 16 bits; then it holds every edge's
}

func (c *edgeClasses) add(id uint32) {
	if c.wide == nil && id > math.MaxUint16 {
		c.wide = make([]uint32, len(c.narrow), 2*len(c.narrow)+1)
		for e, x := range c.narrow {
			c.wide[e] = uint32(x)
		}
		c.narrow = nil
	}
	if c.wide != nil {
		c.wide = append(c.wide, id)
		return
	}
	c.narrow = append(c.narrow, uint16(id))
}

func (c *edgeClasses) at(e int) uint32 {
	if c.wide != nil {
		return c.wide[e]
	}
	return uint32(c.narrow[e])
}

func (c *edgeClasses) bytes() int64 { return int64(cap(c.narrow))*2 + int64(cap(c.wide))*4 }

// classIntern numbers fairness classes in order of first appearance.
type classIntern struct {
	ids map[uint64]uint32
}

func (c *classIntern) id(cls uint64) uint32 {
	if id, ok := c.ids[cls]; ok {
		return id
	}
	if c.ids == nil {
		c.ids = map[uint64]uint32{}
	}
	id := uint32(len(c.ids))
	c.ids[cls] = id
	return id
}

// liveIndex maps state encodings to ids 0, 1, ... in order of insertion: an open-
// addressing (linear probing) table of ids over the states' fingerprints, and the
// encodings of the states that are not word-keyed (an 8-byte encoding is identified by
// its fingerprint: wordKeyed), so that the map is exact. Cost per state: its 8-byte
// fingerprint and 4 bytes per slot (at most 3/4 full); once some state is not word-keyed,
// 8 bytes of offset per state and those states' encodings.
type liveIndex struct {
	slots []uint32 // id+1 per slot, 0 when empty; a power of two of them
	fps   []uint64 // per id
	// ends is nil while every state is word-keyed; then per id the end of its encoding in
	// encs, with liveWord set (and nothing in encs) for a word-keyed state.
	ends []uint64
	encs []byte
}

const liveWord = 1 << 63

func (ix *liveIndex) len() int { return len(ix.fps) }

// add returns the id of the state with encoding enc, adding it if it is new, and
// whether it was new. Expected cost O(len(enc)).
func (ix *liveIndex) add(enc []byte) (int32, bool) {
	h := fixHash(fingerprint(enc))
	word := wordKeyed(h, enc)
	if ix.slots == nil {
		ix.slots = make([]uint32, 1<<10)
	}
	mask := uint64(len(ix.slots) - 1)
	i := h & mask
	for ; ix.slots[i] != 0; i = (i + 1) & mask {
		id := ix.slots[i] - 1
		if ix.fps[id] == h && ix.same(id, enc, word) {
			return int32(id), false
		}
	}
	id := uint32(len(ix.fps))
	ix.slots[i] = id + 1
	ix.fps = append(ix.fps, h)
	switch {
	case word && ix.ends != nil:
		ix.ends = append(ix.ends, uint64(len(ix.encs))|liveWord)
	case !word:
		if ix.ends == nil {
			ix.ends = make([]uint64, id, max(2*int(id), 1024))
			for k := range ix.ends {
				ix.ends[k] = liveWord
			}
		}
		ix.encs = append(ix.encs, enc...)
		ix.ends = append(ix.ends, uint64(len(ix.encs)))
	}
	if 4*len(ix.fps) >= 3*len(ix.slots) {
		ix.grow()
	}
	return int32(id), true
}

// same reports whether state id, whose fingerprint is that of enc, has encoding enc.
func (ix *liveIndex) same(id uint32, enc []byte, word bool) bool {
	if ix.ends == nil || ix.ends[id]&liveWord != 0 {
		return word // two word-keyed states with one fingerprint are one state
	}
	if word {
		return false
	}
	start := uint64(0)
	if id > 0 {
		start = ix.ends[id-1] &^ liveWord
	}
	return string(ix.encs[start:ix.ends[id]]) == string(enc)
}

// grow doubles the table.
func (ix *liveIndex) grow() {
	slots := make([]uint32, 2*len(ix.slots))
	mask := uint64(len(slots) - 1)
	for _, s := range ix.slots {
		if s == 0 {
			continue
		}
		i := ix.fps[s-1] & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = s
	}
	ix.slots = slots
}

// bytes returns the memory the graph holds, by capacity.
func (g *graph) bytes() int64 {
	ix := &g.index
	return int64(cap(ix.slots))*4 + int64(cap(ix.fps))*8 + int64(cap(ix.ends))*8 + int64(cap(ix.encs)) +
		int64(cap(g.parent))*4 + int64(cap(g.off))*4 + int64(cap(g.to))*4 + g.task.bytes() + int64(cap(g.pset))*4
}

func buildGraph[S any](m Model[S], opt LivenessOptions) (*graph, string, error) {
	g := &graph{deadlock: -1, setIDs: map[string]uint32{}}
	var heap heapSampler
	// queue holds the states found and not yet expanded, in id order: state v is
	// expanded when it is queue[0]. For a FrontierDecoder the queue holds encodings
	// instead (state k of it is qenc[qend[k-1]:qend[k]], from qhead on), and the state
	// expanded is rebuilt in scratch.
	var queue []S
	fd, _ := m.(FrontierDecoder[S])
	var qenc []byte
	var qend []int
	qhead := 0
	var scratch S
	var buf []byte
	add := func(s S, parent int32) int32 {
		buf = m.Encode(s, buf[:0])
		id, isNew := g.index.add(buf)
		if isNew {
			g.parent = append(g.parent, parent)
			if fd != nil {
				qenc = append(qenc, buf...)
				qend = append(qend, len(qenc))
			} else {
				queue = append(queue, s)
			}
		}
		return id
	}
	next := func() S {
		if fd == nil {
			s := queue[0]
			var zero S
			queue[0] = zero // the state is not needed any more
			queue = queue[1:]
			return s
		}
		if qhead >= 1<<12 && 2*qhead >= len(qend) { // drop the expanded encodings
			base := qend[qhead-1]
			qenc = qenc[:copy(qenc, qenc[base:])]
			for k := qhead; k < len(qend); k++ {
				qend[k-qhead] = qend[k] - base
			}
			qend, qhead = qend[:len(qend)-qhead], 0
		}
		start := 0
		if qhead > 0 {
			start = qend[qhead-1]
		}
		qhead++
		return fd.DecodeInto(qenc[start:qend[qhead-1]], &scratch)
	}
	inits := m.Init()
	if len(inits) == 0 {
		return nil, "", fmt.Errorf("checker: the model (%T) has no initial state", m)
	}
	for i, s := range inits {
		if int(add(s, -1)) == len(g.roots) {
			g.roots = append(g.roots, i)
		}
	}
	g.off = append(g.off, 0)
	var dst []Transition[S]
	var pend []int
	for v := 0; v < g.index.len(); v++ {
		if v%1024 == 0 {
			if err := opt.Context.Err(); err != nil {
				return g, "cancelled: " + context.Cause(opt.Context).Error(), nil
			}
			if h := heap.sample(opt.MaxMemoryBytes); opt.MaxMemoryBytes > 0 && h > opt.MaxMemoryBytes {
				return g, fmt.Sprintf("memory budget %d bytes exhausted (Go heap is %d bytes: the liveness graph)", opt.MaxMemoryBytes, h), nil
			}
		}
		s := next()
		pend = pendingOf(m, s, pend[:0])
		g.pset = append(g.pset, g.setID(pend))
		dst = m.Successors(s, dst[:0])
		for _, t := range dst {
			g.to = append(g.to, add(t.Next, int32(v)))
			g.task.add(g.classes.id(taskOf(m, s, t.Action)))
		}
		clear(dst)
		if len(g.to) > math.MaxUint32 || g.index.len() > math.MaxInt32 {
			return g, fmt.Sprintf("the liveness graph's limit of %d states and %d transitions was reached", math.MaxInt32, uint64(math.MaxUint32)), nil
		}
		g.off = append(g.off, uint32(len(g.to)))
		if len(dst) == 0 && len(pend) > 0 {
			g.deadlock = v
			return g, "", nil
		}
		if opt.MaxStates > 0 && int64(g.index.len()) > opt.MaxStates {
			return g, fmt.Sprintf("state budget %d exhausted (%d states in the liveness graph)", opt.MaxStates, g.index.len()), nil
		}
	}
	return g, "", nil
}

// setID interns the pending set pend.
func (g *graph) setID(pend []int) uint32 {
	g.setKey = g.setKey[:0]
	for _, x := range pend {
		g.setKey = binary.AppendVarint(g.setKey, int64(x))
	}
	if id, ok := g.setIDs[string(g.setKey)]; ok {
		return id
	}
	id := uint32(len(g.sets))
	g.setIDs[string(g.setKey)] = id
	g.sets = append(g.sets, slices.Clone(pend))
	return id
}

// expanded returns the number of states whose edges the graph holds.
func (g *graph) expanded() int { return len(g.off) - 1 }

func (g *graph) pendingOf(v int) []int { return g.sets[g.pset[v]] }

// messages returns every message id pending somewhere, sorted.
func (g *graph) messages() []int {
	var ms []int
	for _, s := range g.sets {
		ms = append(ms, s...)
	}
	slices.Sort(ms)
	return slices.Compact(ms)
}

// rootOf returns the initial state v descends from.
func (g *graph) rootOf(v int) int32 {
	for g.parent[v] >= 0 {
		v = int(g.parent[v])
	}
	return int32(v)
}

// pathTo returns the edges of the BFS (shortest) path from an initial state to v.
func (g *graph) pathTo(v int) []int {
	var rev []int
	for p := g.parent[v]; p >= 0; v, p = int(p), g.parent[p] {
		e := int(g.off[p])
		for g.to[e] != int32(v) {
			e++
		}
		rev = append(rev, e)
	}
	slices.Reverse(rev)
	return rev
}

// pathActions re-derives the actions of a path of edges that starts at initial state
// root: edge e is the transition at index e-off[v] among the successors of its source v,
// whose state the replay has at hand. Cost: one Successors call per edge.
func pathActions[S any](m Model[S], g *graph, root int32, edges []int) ([]Action, error) {
	s := m.Init()[g.roots[root]]
	v := root
	var dst []Transition[S]
	acts := make([]Action, 0, len(edges))
	for k, e := range edges {
		if e < int(g.off[v]) || e >= int(g.off[v+1]) {
			return nil, fmt.Errorf("checker: liveness: internal: edge %d of the path does not leave state %d", k, v)
		}
		dst = m.Successors(s, dst[:0])
		t := dst[e-int(g.off[v])]
		acts = append(acts, t.Action)
		s, v = t.Next, g.to[e]
	}
	return acts, nil
}

// components returns the strongly connected components, with at least one edge, of the
// subgraph of states where message x is pending; each component is sorted by state id
// and the components are ordered by their least state. Tarjan's algorithm, iterative.
func (g *graph) components(x int) [][]int32 {
	inSet := make([]bool, len(g.sets))
	for k, s := range g.sets {
		_, inSet[k] = slices.BinarySearch(s, x)
	}
	pending := func(v int32) bool { return inSet[g.pset[v]] }
	comp, count := scc.Components(g.expanded(), pending, scc.CSR(g.off, g.to))
	// A component is kept when it has an edge: more than one state, or a self-loop.
	size := make([]int32, count)
	for _, c := range comp {
		if c >= 0 {
			size[c]++
		}
	}
	slot := make([]int32, count) // index in comps + 1; 0: not kept
	var comps [][]int32
	for v, c := range comp { // increasing v: the components come out sorted, by least state
		if c < 0 {
			continue
		}
		if slot[c] == 0 {
			if size[c] == 1 && !g.hasEdge(int32(v), int32(v)) {
				continue
			}
			comps = append(comps, make([]int32, 0, size[c]))
			slot[c] = int32(len(comps))
		}
		comps[slot[c]-1] = append(comps[slot[c]-1], int32(v))
	}
	return comps
}

func (g *graph) hasEdge(v, w int32) bool {
	for e := g.off[v]; e < g.off[v+1]; e++ {
		if g.to[e] == w {
			return true
		}
	}
	return false
}

// enabledIn returns the sorted distinct classes enabled in v.
func (g *graph) enabledIn(v int32) []uint32 {
	cls := make([]uint32, 0, g.off[v+1]-g.off[v])
	for e := g.off[v]; e < g.off[v+1]; e++ {
		cls = append(cls, g.task.at(int(e)))
	}
	slices.Sort(cls)
	return slices.Compact(cls)
}

// fair reports whether the component comp has a weakly fair cycle: every class enabled
// in all of its states is taken by an edge inside it.
func (g *graph) fair(comp []int32) bool {
	always := g.alwaysEnabled(comp)
	taken := map[uint32]bool{}
	for _, v := range comp {
		for e := g.off[v]; e < g.off[v+1]; e++ {
			if _, in := slices.BinarySearch(comp, g.to[e]); in {
				taken[g.task.at(int(e))] = true
			}
		}
	}
	for _, c := range always {
		if !taken[c] {
			return false
		}
	}
	return true
}

// alwaysEnabled returns the classes enabled in every state of vs (sorted).
func (g *graph) alwaysEnabled(vs []int32) []uint32 {
	var always []uint32
	for k, v := range vs {
		cls := g.enabledIn(v)
		if k == 0 {
			always = cls
			continue
		}
		always = slices.DeleteFunc(always, func(c uint32) bool { _, ok := slices.BinarySearch(cls, c); return !ok })
	}
	return always
}

// fairWalk returns the edges of a weakly fair closed walk inside the fair component
// comp, from and back to its least state: it starts with a shortest cycle through that
// state and adds detours (to an edge of a missing class, or to a state where that class
// is disabled) until every class enabled along the whole walk is taken on it. Each
// detour either adds a taken class or removes a class from those always enabled, so it
// ends after at most as many detours as there are classes.
func (g *graph) fairWalk(comp []int32) []int {
	v0 := comp[0]
	in := func(w int32) bool { _, ok := slices.BinarySearch(comp, w); return ok }
	// A shortest cycle through v0: an edge v0 -> w inside comp, then back.
	var edges []int // edge indices of the walk
	bestLen := -1
	for e := int(g.off[v0]); e < int(g.off[v0+1]); e++ {
		if !in(g.to[e]) {
			continue
		}
		back := g.pathIn(comp, g.to[e], v0)
		if bestLen < 0 || len(back)+1 < bestLen {
			bestLen = len(back) + 1
			edges = append([]int{e}, back...)
		}
	}
	for {
		var states []int32
		taken := map[uint32]bool{}
		v := v0
		for _, e := range edges {
			states = append(states, v)
			taken[g.task.at(int(e))] = true
			v = g.to[e]
		}
		missing := uint32(0)
		found := false
		for _, c := range g.alwaysEnabled(states) {
			if !taken[c] {
				missing, found = c, true
				break
			}
		}
		if !found {
			return edges
		}
		// Detour to the first edge of class missing inside comp, else to a state where
		// it is disabled (one exists because comp is fair).
		var detour []int
		for _, u := range comp {
			for e := int(g.off[u]); e < int(g.off[u+1]) && detour == nil; e++ {
				if g.task.at(e) == missing && in(g.to[e]) {
					detour = append(append(g.pathIn(comp, v0, u), e), g.pathIn(comp, g.to[e], v0)...)
				}
			}
			if detour != nil {
				break
			}
		}
		if detour == nil {
			for _, u := range comp {
				if _, en := slices.BinarySearch(g.enabledIn(u), missing); !en {
					detour = append(g.pathIn(comp, v0, u), g.pathIn(comp, u, v0)...)
					break
				}
			}
		}
		edges = append(edges, detour...)
	}
}

// pathIn returns the edge indices of a shortest path from a to b inside comp (empty when
// a == b). comp is strongly connected, so one exists.
func (g *graph) pathIn(comp []int32, a, b int32) []int {
	if a == b {
		return nil
	}
	via := map[int32]int{a: -1}
	queue := []int32{a}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for e := int(g.off[v]); e < int(g.off[v+1]); e++ {
			w := g.to[e]
			if _, ok := slices.BinarySearch(comp, w); !ok {
				continue
			}
			if _, seen := via[w]; !seen {
				via[w] = e
				queue = append(queue, w)
			}
		}
		if _, ok := via[b]; ok {
			break
		}
	}
	var rev []int
	for v := b; v != a; {
		e := via[v]
		rev = append(rev, e)
		v = g.sourceOf(e)
	}
	slices.Reverse(rev)
	return rev
}

// sourceOf returns the state whose edges include edge e. O(log V).
func (g *graph) sourceOf(e int) int32 {
	i, _ := slices.BinarySearchFunc(g.off, uint32(e+1), func(o, t uint32) int {
		if o < t {
			return -1
		}
		return 1
	})
	return int32(i - 1)
}

// decideLiveness implements Options.CheckLiveness on a finished search.
func (e *explorer[S]) decideLiveness(res *Result[S]) error {
	if res.Verdict != Holds || res.Progress.Certified(res.Verdict) {
		return nil
	}
	lv, err := CheckLiveness(e.m, LivenessOptions{MaxStates: e.opt.MaxStates, MaxMemoryBytes: e.opt.MaxMemoryBytes, Context: e.opt.Context})
	if err != nil {
		return err
	}
	res.Liveness = lv
	switch lv.Verdict {
	case Violated:
		res.Verdict, res.Violation = Violated, lv.Violation
	case Inconclusive:
		res.Verdict, res.Reason = Inconclusive, "liveness check: "+lv.Reason
	}
	return nil
}

// Certificate kinds: how a verdict knows that every message is delivered.
const (
	// CertProgress: the model's progress measure increased on every transition, so the
	// reachable graph is acyclic and, without deadlock, every run delivers everything.
	CertProgress = "progress"
	// CertLiveness: the liveness check found no weakly fair cycle that leaves a message
	// undelivered, and no deadlock.
	CertLiveness = "liveness"
	// CertNone: delivery is not established (no measure and no liveness check, a broken
	// measure without the check, or a search that was not exhaustive).
	CertNone = "none"
)

// Certificate says how (and whether) a search established that every message is
// delivered; it is the "certificate" object of a JSON report.
type Certificate struct {
	// Kind is CertProgress, CertLiveness or CertNone.
	Kind string `json:"kind"`
	// Transitions is the number of transitions the certificate was checked on (the
	// progress measure's, or the liveness graph's); 0 for CertNone.
	Transitions int64 `json:"transitions"`
	// Note says it in a sentence.
	Note string `json:"note"`
}

// Certificate returns the delivery certificate of r (see Certificate), or nil when r is
// Violated: the violation is the answer, and no certificate is claimed.
func (r *Result[S]) Certificate() *Certificate {
	p := r.Progress
	switch {
	case r.Verdict == Violated:
		return nil
	case p.Certified(r.Verdict):
		return &Certificate{Kind: CertProgress, Transitions: p.Checked,
			Note: fmt.Sprintf("deadlock-free implies every message is delivered; progress checked on %d transitions", p.Checked)}
	case r.Liveness != nil && r.Liveness.Verdict == Holds && r.Verdict == Holds:
		note := fmt.Sprintf("every message is delivered under weak fairness: no fair cycle leaves one undelivered in the reachable graph (%d states, %d transitions)",
			r.Liveness.States, r.Liveness.Transitions)
		if p != nil && p.Broken != nil {
			note += "; the progress measure does not certify it (" + p.Broken.Message + ")"
		}
		return &Certificate{Kind: CertLiveness, Transitions: r.Liveness.Transitions, Note: note}
	}
	c := &Certificate{Kind: CertNone}
	switch {
	case r.Verdict != Holds:
		c.Note = "no delivery certificate: the search was not exhaustive (" + r.Reason + ")"
	case p != nil && p.Broken != nil:
		c.Note = "no delivery certificate: " + p.Broken.Message + "; the liveness check was not run"
	default:
		c.Note = "no delivery certificate: the model has no progress measure and the liveness check was not run; deadlock-free does not imply delivery"
	}
	return c
}

// Tally counts the certificates of many searches (the members of a family, the
// instances of a claim) by kind; Transitions sums the transitions they were checked on.
// Violated counts searches that found a violation, which claim no delivery (their
// Certificate is nil) and are left out of the summary.
type Tally struct {
	Progress    int   `json:"progress"`
	Liveness    int   `json:"liveness"`
	None        int   `json:"none"`
	Violated    int   `json:"violated,omitempty"`
	Transitions int64 `json:"transitions"`
}

// Add counts one certificate; nil (a violated search) counts as Violated.
func (t *Tally) Add(c *Certificate) {
	if c == nil {
		t.Violated++
		return
	}
	switch c.Kind {
	case CertProgress:
		t.Progress++
	case CertLiveness:
		t.Liveness++
	default:
		t.None++
	}
	t.Transitions += c.Transitions
}

// Merge adds the counts of u.
func (t *Tally) Merge(u Tally) {
	t.Progress += u.Progress
	t.Liveness += u.Liveness
	t.None += u.None
	t.Violated += u.Violated
	t.Transitions += u.Transitions
}

// Certificate summarises the tally as one certificate for the searches that did not
// find a violation: progress when every one was certified by its progress measure,
// liveness when each was certified by one or the other, none otherwise (or when nothing
// was counted).
func (t Tally) Certificate() *Certificate {
	n := t.Progress + t.Liveness + t.None
	excl := ""
	if t.Violated > 0 {
		excl = fmt.Sprintf(" (%d violated instance(s), whose violation is the answer, left out)", t.Violated)
	}
	switch {
	case n == 0:
		return &Certificate{Kind: CertNone, Note: "no delivery certificate was recorded" + excl}
	case t.None > 0:
		return &Certificate{Kind: CertNone, Transitions: t.Transitions,
			Note: fmt.Sprintf("%d of %d instances have no delivery certificate%s", t.None, n, excl)}
	case t.Liveness > 0:
		return &Certificate{Kind: CertLiveness, Transitions: t.Transitions,
			Note: fmt.Sprintf("every message is delivered in all %d instances: %d by the progress measure, %d by the liveness check under weak fairness; %d transitions checked%s", n, t.Progress, t.Liveness, t.Transitions, excl)}
	}
	return &Certificate{Kind: CertProgress, Transitions: t.Transitions,
		Note: fmt.Sprintf("deadlock-free implies every message is delivered; progress checked on %d transitions of %d instances%s", t.Transitions, n, excl)}
}
