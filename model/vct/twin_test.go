package vct

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/fabric/fabrictest"
)

// flows returns, for each (source host, destination host) pair, a flow of packets
// packets along the fabric's route.
func flows(t testing.TB, f *fabric.Fabric, n int, pairs [][2]int, packets int) []Flow {
	var out []Flow
	for _, p := range pairs {
		src := fabric.PortRef{Node: int32(n + p[0]), Port: 1}
		dlid := uint16(n + p[1] + 1)
		r := f.Route(src, dlid)
		if r.End != fabric.Delivered {
			t.Fatalf("%v: %v", p, r.End)
		}
		out = append(out, Flow{Src: src, DLID: dlid, Route: r.Hops, Packets: packets})
	}
	return out
}

// twin is a deliberately naive, independent implementation of the semantics: buffers
// are lists of (flow, sequence) packets, states are strings, and a deadlock is found by
// definition: a reachable state in which some packet in the network stays where it is
// in every state reachable from there.
type twin struct {
	routes  [][]fabric.Hop
	packets []int
	k       int
}

type tpkt struct{ f, seq int }

type tstate struct {
	inj []int
	buf map[fabric.Hop][]tpkt
}

func (t *twin) key(s tstate) string {
	var hs []fabric.Hop
	for h, q := range s.buf {
		if len(q) > 0 {
			hs = append(hs, h)
		}
	}
	slices.SortFunc(hs, func(a, b fabric.Hop) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	out := fmt.Sprint(s.inj)
	for _, h := range hs {
		out += fmt.Sprint(h, s.buf[h])
	}
	return out
}

func (t *twin) clone(s tstate) tstate {
	c := tstate{inj: slices.Clone(s.inj), buf: map[fabric.Hop][]tpkt{}}
	for h, q := range s.buf {
		c.buf[h] = slices.Clone(q)
	}
	return c
}

func (t *twin) succ(s tstate) []tstate {
	var out []tstate
	for f, r := range t.routes {
		if s.inj[f] < t.packets[f] && len(s.buf[r[0]]) < t.k {
			c := t.clone(s)
			c.buf[r[0]] = append(c.buf[r[0]], tpkt{f, s.inj[f]})
			c.inj[f]++
			out = append(out, c)
		}
	}
	for h, q := range s.buf {
		if len(q) == 0 {
			continue
		}
		p := q[0]
		r := t.routes[p.f]
		j := slices.Index(r, h)
		if j+1 < len(r) && len(s.buf[r[j+1]]) >= t.k {
			continue
		}
		c := t.clone(s)
		c.buf[h] = c.buf[h][1:]
		if j+1 < len(r) {
			c.buf[r[j+1]] = append(c.buf[r[j+1]], p)
		}
		out = append(out, c)
	}
	return out
}

// where returns the buffer holding p, or ok false.
func where(s tstate, p tpkt) (fabric.Hop, bool) {
	for h, q := range s.buf {
		if slices.Contains(q, p) {
			return h, true
		}
	}
	return fabric.Hop{}, false
}

// explore returns the number of reachable states and whether one is deadlocked: some
// packet in its network stays where it is in every state reachable from there. It
// builds the whole reachable graph, marks for every packet the transitions that move
// it, and searches backwards from those.
func (t *twin) explore() (int, bool) {
	s := tstate{inj: make([]int, len(t.routes)), buf: map[fabric.Hop][]tpkt{}}
	index := map[string]int{t.key(s): 0}
	all := []tstate{s}
	var succ [][]int
	for i := 0; i < len(all); i++ {
		var out []int
		for _, n := range t.succ(all[i]) {
			k := t.key(n)
			j, ok := index[k]
			if !ok {
				j = len(all)
				index[k] = j
				all = append(all, n)
			}
			out = append(out, j)
		}
		succ = append(succ, out)
	}
	pred := make([][]int, len(all))
	for i, out := range succ {
		for _, j := range out {
			pred[j] = append(pred[j], i)
		}
	}
	for f := range t.routes {
		for seq := range t.packets[f] {
			p := tpkt{f, seq}
			// canMove[i]: from state i, some run moves p.
			canMove := make([]bool, len(all))
			var work []int
			for i, out := range succ {
				at, in := where(all[i], p)
				for _, j := range out {
					if at2, in2 := where(all[j], p); in && (!in2 || at2 != at) {
						if !canMove[i] {
							canMove[i] = true
							work = append(work, i)
						}
					}
				}
			}
			for len(work) > 0 {
				i := work[len(work)-1]
				work = work[:len(work)-1]
				for _, j := range pred[i] {
					if !canMove[j] {
						canMove[j] = true
						work = append(work, j)
					}
				}
			}
			for i := range all {
				if _, in := where(all[i], p); in && !canMove[i] {
					return len(all), true
				}
			}
		}
	}
	return len(all), false
}

// The model against its naive twin on small rings: the same reachable state count and
// the same deadlock verdict, for buffers of one and two packets and flows of one and
// two packets.
func TestTwin(t *testing.T) {
	type tc struct {
		n       int
		cw      func(i, j int) bool
		pairs   [][2]int
		packets int
		k       int
	}
	clockwise := func(i, j int) bool { return true }
	var cases []tc
	for _, n := range []int{3, 4} {
		var two, one [][2]int
		for i := range n {
			two = append(two, [2]int{i, (i + 2) % n})
			one = append(one, [2]int{i, (i + 1) % n})
		}
		for _, k := range []int{1, 2} {
			for _, packets := range []int{1, 2} {
				if n == 4 && packets == 2 && os.Getenv("WORMCHECK_LONG") == "" {
					continue // 20,000 to 220,000 states: minutes for the twin (WORMCHECK_LONG=1 runs them)
				}
				cases = append(cases, tc{n, clockwise, two, packets, k}, tc{n, clockwise, one, packets, k})
			}
		}
	}
	deadlocks := 0
	for _, c := range cases {
		f := fabrictest.Ring(t, c.n, func(i, j int) uint8 {
			if c.cw(i, j) {
				return 3
			}
			return 2
		})
		fl := flows(t, f, c.n, c.pairs, c.packets)
		m, err := New(Config{Fabric: f, Flows: fl, Buffer: 32 * c.k, Packet: 32})
		if err != nil {
			t.Fatal(err)
		}
		tw := &twin{k: c.k}
		for _, x := range fl {
			tw.routes = append(tw.routes, x.Route)
			tw.packets = append(tw.packets, x.Packets)
		}
		start := time.Now()
		wantStates, wantDead := tw.explore()
		t.Logf("ring %d, %d pairs, %d packets, K=%d: %d states, deadlock %v, %v", c.n, len(c.pairs), c.packets, c.k, wantStates, wantDead, time.Since(start))
		all, err := checker.Explore[State](m, checker.Options[State]{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := checker.Explore[State](m, checker.Options[State]{CheckLocalDeadlock: true, CheckLiveness: true})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("ring %d, pairs %v, %d packets a flow, K=%d", c.n, c.pairs, c.packets, c.k)
		if int(all.Stats.States) != wantStates {
			t.Errorf("%s: %d states; the twin reaches %d", name, all.Stats.States, wantStates)
		}
		if got := res.Verdict == checker.Violated; got != wantDead {
			t.Errorf("%s: deadlock %v (%v); the twin says %v", name, got, res.Verdict, wantDead)
		}
		if wantDead {
			deadlocks++
			if _, err := checker.Replay[State](m, 0, res.Violation.Trace.Actions()); err != nil {
				t.Errorf("%s: the deadlock trace does not replay: %v", name, err)
			}
		} else if res.Certificate() == nil || res.Certificate().Kind != checker.CertProgress {
			t.Errorf("%s: holds without the progress certificate: %+v", name, res.Certificate())
		}
	}
	if deadlocks == 0 || deadlocks == len(cases) {
		t.Fatalf("%d of %d cases deadlock: the table must pin both verdicts", deadlocks, len(cases))
	}
	t.Logf("%d cases, %d deadlock", len(cases), deadlocks)
}
