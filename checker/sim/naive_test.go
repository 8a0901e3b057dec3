package sim

import (
	"fmt"
	"sort"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// naiveExecute is the deliberately simple twin of ExecuteSchedule: the same router model
// written for clarity, not speed. Every cycle it scans every channel and port, decides
// all moves from a snapshot of the state at the start of the cycle, then applies them.
// It shares no code with network.go.
func naiveExecute(g *topology.Network, s *model.Schedule, opt ScheduleOptions) (recv []int64, blk *Contention) {
	V, B, L := max(opt.VCs, 1), max(opt.Buffer, 1), opt.L
	if opt.Buffer == 0 {
		B = 2
	}
	N, C := g.Nodes(), g.Channels()
	inP, outP := 2*g.Dims(), 2*g.Dims()
	if s.Ports == model.OnePort {
		inP, outP = 1, 1
	}
	type nflit struct {
		worm       int
		head, tail bool
		arrived    int64
	}
	type nworm struct {
		uni, hop, sent int
	}
	var worms []nworm
	bufs := make([][]nflit, C*V)     // input buffer of each VC
	owner := make([]int, C*V+N*outP) // output unit -> input unit feeding it, -1 free
	ownerWorm := make([]int, len(owner))
	for i := range owner {
		owner[i] = -1
	}
	ports := make([][]int, N*inP) // injection port -> worms waiting (head injecting)
	rr := make([]int, C)
	var pending []int
	type nevent struct {
		t, seq int64
		ready  bool
		a, b   int
	}
	var events []nevent
	var seq int64
	push := func(t int64, ready bool, a, b int) {
		seq++
		events = append(events, nevent{t, seq, ready, a, b})
	}
	byNode := make([][]int, N)
	for i, u := range s.Unicasts {
		byNode[u.From] = append(byNode[u.From], i)
	}
	for _, l := range byNode {
		sort.SliceStable(l, func(a, b int) bool { return s.Unicasts[l[a]].Order < s.Unicasts[l[b]].Order })
	}
	recv = make([]int64, N)
	for i := range recv {
		recv[i] = -1
	}
	cpu := make([]int64, N)
	start := func(v int, R int64) {
		for _, i := range byNode[v] {
			worms = append(worms, nworm{uni: i})
			at := max(R, cpu[v]) + int64(opt.Ts)
			cpu[v] = at
			push(at, true, len(worms)-1, 0)
		}
	}
	for _, v := range s.Sources {
		if recv[v] < 0 {
			recv[v] = 0
			start(int(v), 0)
		}
	}
	headOf := func(x int) (w int, head, ok bool, arrived int64) {
		if x < C*V {
			if len(bufs[x]) == 0 {
				return -1, false, false, 0
			}
			f := bufs[x][0]
			return f.worm, f.head, true, f.arrived
		}
		q := ports[x-C*V]
		if len(q) == 0 {
			return -1, false, false, 0
		}
		return q[0], worms[q[0]].sent == 0, true, -1
	}
	nodeOf := func(x int) int {
		if x < C*V {
			return int(g.Channel(topology.ChannelID(x / V)).To)
		}
		return (x - C*V) / inP
	}
	out := make([]int, C*V+N*inP)
	for i := range out {
		out[i] = -1
	}
	remaining := len(s.Unicasts)
	lastMove := int64(0)
	for t := int64(0); remaining > 0 && t-lastMove < 1000; t++ {
		for {
			bi := -1
			for i, e := range events {
				if e.t <= t && (bi < 0 || e.seq < events[bi].seq) {
					bi = i
				}
			}
			if bi < 0 {
				break
			}
			e := events[bi]
			events = append(events[:bi], events[bi+1:]...)
			if e.ready {
				u := s.Unicasts[worms[e.a].uni]
				p := 0
				if inP > 1 {
					ch := g.Channel(u.Path[0])
					p = ch.Dim*2 + int(ch.Dir)
				}
				pi := int(u.From)*inP + p
				ports[pi] = append(ports[pi], e.a)
				if len(ports[pi]) == 1 {
					pending = append(pending, C*V+pi)
				}
			} else {
				remaining--
				if recv[e.b] < 0 {
					recv[e.b] = t
					start(e.b, t)
				}
			}
		}
		// Allocation, oldest pending header first.
		var keep []int
		for _, x := range pending {
			w, _, _, arrived := headOf(x)
			if arrived >= t {
				keep = append(keep, x)
				continue
			}
			path := s.Unicasts[worms[w].uni].Path
			if worms[w].hop == len(path) {
				v := nodeOf(x)
				got := -1
				for e := 0; e < outP; e++ {
					if owner[C*V+v*outP+e] < 0 {
						got = C*V + v*outP + e
						break
					}
				}
				if got < 0 {
					if blk == nil {
						blk = &Contention{Cycle: t, Channel: topology.None, Node: topology.NodeID(v), Waiting: worms[w].uni, Holding: worms[ownerWorm[C*V+v*outP]].uni}
					}
					keep = append(keep, x)
					continue
				}
				owner[got], out[x], ownerWorm[got] = x, got, w
				continue
			}
			c := int(path[worms[w].hop])
			got := -1
			for v := 0; v < V; v++ {
				// Atomic VC allocation: free, and the previous worm's flits all gone.
				if owner[c*V+v] < 0 && len(bufs[c*V+v]) == 0 {
					got = c*V + v
					break
				}
			}
			if got < 0 {
				// A node's own sends through one first channel are serialised, not
				// contending (the timed semantics' definition).
				a, b := s.Unicasts[worms[w].uni], s.Unicasts[worms[ownerWorm[c*V]].uni]
				if blk == nil && !(a.From == b.From && a.Path[0] == topology.ChannelID(c) && b.Path[0] == topology.ChannelID(c)) {
					blk = &Contention{Cycle: t, Channel: topology.ChannelID(c), Node: g.Channel(topology.ChannelID(c)).From, Waiting: worms[w].uni, Holding: worms[ownerWorm[c*V]].uni}
				}
				keep = append(keep, x)
				continue
			}
			owner[got], out[x], ownerWorm[got] = x, got, w
		}
		pending = keep
		// Decide every move from the state at the start of the cycle.
		type move struct{ x, y int }
		var moves []move
		for c := 0; c < C; c++ {
			for k := 1; k <= V; k++ {
				v := (rr[c] + k) % V
				y := c*V + v
				x := owner[y]
				if x < 0 || len(bufs[y]) >= B {
					continue
				}
				if _, _, ok, arrived := headOf(x); !ok || arrived >= t {
					continue
				}
				rr[c] = v
				moves = append(moves, move{x, y})
				break
			}
		}
		for e := C * V; e < len(owner); e++ {
			if x := owner[e]; x >= 0 {
				if _, _, ok, arrived := headOf(x); ok && arrived < t {
					moves = append(moves, move{x, e})
				}
			}
		}
		var fresh []int
		if len(moves) > 0 {
			lastMove = t
		}
		for _, m := range moves {
			var f nflit
			if m.x < C*V {
				f = bufs[m.x][0]
				bufs[m.x] = bufs[m.x][1:]
			} else {
				q := ports[m.x-C*V]
				w := q[0]
				f = nflit{worm: w, head: worms[w].sent == 0, tail: worms[w].sent == L-1}
				worms[w].sent++
				if f.tail {
					ports[m.x-C*V] = q[1:]
				}
			}
			if f.tail {
				owner[m.y], out[m.x] = -1, -1
				if w, head, ok, _ := headOf(m.x); ok && (m.x >= C*V || head) {
					_ = w
					fresh = append(fresh, m.x)
				}
			}
			if m.y < C*V {
				f.arrived = t
				bufs[m.y] = append(bufs[m.y], f)
				if f.head {
					worms[f.worm].hop++
					if len(bufs[m.y]) == 1 {
						fresh = append(fresh, m.y)
					}
				}
			} else if f.tail {
				push(t+1+int64(opt.Tr), false, f.worm, (m.y-C*V)/outP)
			}
		}
		sort.Ints(fresh)
		pending = append(pending, fresh...)
	}
	return recv, blk
}

// TestPropExecutorMatchesNaiveTwin: on random unicast-based multicasts (contention
// allowed) over small grids, the optimised executor and the naive twin give the same
// receive time at every node and the same first contending pair.
func TestPropExecutorMatchesNaiveTwin(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(424242)
	params.MinSuccessfulTests = 150
	if testing.Short() {
		params.MinSuccessfulTests = 40
	}
	p := gopter.NewProperties(params)
	p.Property("executor = naive twin", prop.ForAll(func(c smallConfig, k int) string {
		g, err := topology.Parse(c.Spec)
		if err != nil {
			return err.Error()
		}
		s := randomTree(g, k, c.Seed)
		if c.OnePort {
			s.Ports = model.OnePort
		}
		// Extra concurrent senders make contention likely.
		r := topology.NewDOR(g)
		x := c.Seed
		for i := 0; i < 3; i++ {
			x = x*6364136223846793005 + 1442695040888963407
			a := topology.NodeID(int(x>>33) % g.Nodes())
			b := topology.NodeID(int(x>>13) % g.Nodes())
			if a != b {
				s.Sources = append(s.Sources, a)
				s.Unicasts = append(s.Unicasts, model.Unicast{From: a, To: b, Path: r.Path(a, b), Step: 1, Order: 100 + i})
			}
		}
		opt := ScheduleOptions{Ts: c.Ts, Tr: c.Tr, L: c.L, VCs: 1 + c.V%3, Buffer: c.B}
		res, err := ExecuteSchedule(g, s, opt)
		recv, blk := naiveExecute(g, s, opt)
		if err != nil {
			// A deadlock (single-VC torus rings): the twin must be stuck too.
			for _, u := range s.Unicasts {
				if recv[u.To] < 0 {
					return ""
				}
			}
			return "executor: " + err.Error() + "; the twin delivered everything"
		}
		for v := range recv {
			if recv[v] != res.Receive[v] {
				return fmt.Sprintf("node %d: executor %d, twin %d", v, res.Receive[v], recv[v])
			}
		}
		if blk != nil {
			twinContended++
		}
		a, b := fmt.Sprintf("%+v", blk), fmt.Sprintf("%+v", res.Contention)
		if res.Contention != nil {
			rc := *res.Contention
			rc.Name = ""
			b = fmt.Sprintf("%+v", &rc)
		}
		if a != b {
			return fmt.Sprintf("first contention: executor %s, twin %s", b, a)
		}
		return ""
	}, genSmall(), gen.IntRange(1, 10)))
	p.TestingRun(t)
	if twinContended == 0 {
		t.Error("no generated schedule had contention; the property checks nothing interesting")
	}
	t.Logf("%d schedule runs had contention", twinContended)
}

var twinContended int
