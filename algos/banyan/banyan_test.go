package banyan

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/gopacket/pcapgo"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/banyanwire"
	"github.com/wormcheck/wormcheck/model/topology"
)

func mustBanyan(t testing.TB, n int) *topology.Banyan {
	b, err := topology.NewBanyan(n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func msgFromMask(src int, mask uint64, n int) Multicast {
	m := Multicast{Source: src}
	for y := 0; y < n; y++ {
		if mask>>uint(y)&1 == 1 {
			m.Dests = append(m.Dests, y)
		}
	}
	return m
}

// TestPathTableAgreesWithNaive cross-checks the bitset blocking check with
// topology.Banyan.FirstConflict on random unicast patterns (gopter, fixed seed).
func TestPathTableAgreesWithNaive(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(2002)
	params.MinSuccessfulTests = 300
	properties := gopter.NewProperties(params)
	b := mustBanyan(t, 16)
	pt := mustPathTable(t, b)
	acc := pt.NewScratch()
	properties.Property("bitset and naive checks agree", prop.ForAll(
		func(srcs, dsts []int) bool {
			k := min(len(srcs), len(dsts))
			pat := make([]topology.BanyanPacket, k)
			for i := 0; i < k; i++ {
				pat[i] = topology.BanyanPacket{Source: srcs[i], Dest: topology.UnicastTag(dsts[i])}
			}
			c, err := b.FirstConflict(pat)
			if err != nil {
				return false
			}
			a, bb, blocked := pt.Blocks(srcs[:k], dsts[:k], acc)
			if blocked != (c != nil) {
				return false
			}
			// Both report the first later packet that meets an earlier one; the earlier one
			// may differ when it meets several (naive: the owner of the first shared link).
			return !blocked || (bb == c.B && pt.Conflict(srcs[a], dsts[a], srcs[bb], dsts[bb]))
		},
		gen.SliceOfN(5, gen.IntRange(0, 15)), gen.SliceOfN(5, gen.IntRange(0, 15)),
	))
	properties.TestingRun(t)
}

// Reference: 002 Property 1. The pair reduction must agree with enumerating every
// pattern, and must find blocking in the families that drop a condition.
func TestProperty1ByPairs(t *testing.T) {
	for _, n := range []int{4, 8} {
		b := mustBanyan(t, n)
		pt := mustPathTable(t, b)
		acc := pt.NewScratch()
		for _, ord := range []Order{Ascending, Descending} {
			for _, conc := range []Concentration{Plain, Cyclic} {
				r, err := Property1ByPairs(context.Background(), pt, ord, conc)
				if err != nil {
					t.Fatal(err)
				}
				enumBlocks := false
				for pat := range MonotonePatterns(n, ord, conc) {
					var s, d []int
					for _, p := range pat {
						s, d = append(s, p.Source), append(d, p.Dest.Min)
					}
					if _, _, bl := pt.Blocks(s, d, acc); bl {
						enumBlocks = true
					}
				}
				if enumBlocks != (r.Conflict != nil) || r.Conflict != nil {
					t.Fatalf("N=%d %v %v: pairs say %v, enumeration %v", n, ord, conc, r.Conflict, enumBlocks)
				}
			}
		}
		for _, tc := range []struct {
			ord  Order
			conc Concentration
		}{{AnyOrder, Plain}, {Ascending, Scattered}, {Descending, Scattered}} {
			r, err := Property1ByPairs(context.Background(), pt, tc.ord, tc.conc)
			if err != nil {
				t.Fatal(err)
			}
			if r.Conflict == nil {
				t.Fatalf("N=%d %v %v: no blocking found", n, tc.ord, tc.conc)
			}
		}
	}
}

func TestMonotonePatternsCount(t *testing.T) {
	// Plain: sum_k C(8,k)(9-k) = 9*255 - 8*128 = 1271; cyclic: 255*8.
	for conc, want := range map[Concentration]int{Plain: 1271, Cyclic: 2040} {
		got := 0
		for range MonotonePatterns(8, Ascending, conc) {
			got++
		}
		if got != want {
			t.Errorf("%v: %d patterns, want %d", conc, got, want)
		}
	}
}

// Reference: 002 Theorem 1.
func TestCheckTheorem1(t *testing.T) {
	for _, n := range []int{4, 8} {
		for _, wrap := range []bool{false, true} {
			r, err := CheckTheorem1(mustPathTable(t, mustBanyan(t, n)), wrap)
			if err != nil || r.Verdict != checker.Holds {
				t.Fatalf("N=%d wrap=%v: %+v %v", n, wrap, r, err)
			}
			if want := int64(1<<n - 1); r.Sets != want {
				t.Fatalf("N=%d: %d sets, want %d", n, r.Sets, want)
			}
		}
	}
}

func TestPhase2OfFigure3(t *testing.T) {
	// 002 Fig. 3: source 5 -> {0,3,6,11,13}, copies at 4..8.
	m := Multicast{Source: 5, Dests: []int{0, 3, 6, 11, 13}}
	if p := Phase1(m, 4); p.Dest != (topology.Region{Min: 4, Max: 8}) {
		t.Fatalf("phase 1 %v", p)
	}
	got := Phase2(m, 4, 16)
	want := []string{"4->0", "5->3", "6->6", "7->11", "8->13"}
	for i, p := range got {
		if p.String() != want[i] {
			t.Fatalf("phase 2 %v", got)
		}
	}
	c, _ := mustBanyan(t, 16).FirstConflict(got)
	if c != nil {
		t.Fatalf("Fig. 3 phase 2 blocks: %v", c)
	}
}

func TestParseMulticasts(t *testing.T) {
	ms, err := ParseMulticasts("1->5,6,7,8; 15->7-12", 16)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].String() != "1->5-8" || ms[1].String() != "15->7-12" || ms[1].Fanout() != 6 {
		t.Fatalf("%v", ms)
	}
	for _, bad := range []string{"", "1", "1->", "16->1", "1->3,3", "1->5-2", "x->1", "1->2-x"} {
		if _, err := ParseMulticasts(bad, 16); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseMulticasts(f *testing.F) {
	for _, s := range []string{"1->5,6,7,8;15->7-12", "0->0", "", "3->1-2,9;", "a->b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ParseMulticasts(s, 16)
		if err != nil {
			return
		}
		parts := make([]string, len(ms))
		for i, m := range ms {
			if len(m.Dests) == 0 || !slices.IsSorted(m.Dests) {
				t.Fatalf("%q parsed as %v", s, m)
			}
			parts[i] = m.String()
		}
		again, err := ParseMulticasts(strings.Join(parts, ";"), 16)
		if err != nil || len(again) != len(ms) {
			t.Fatalf("%q: rendering %q does not parse back: %v", s, parts, err)
		}
	})
}

func explore(t testing.TB, sys *System) *checker.Result[State] {
	r, err := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestExactStateCounts pins the state counts of a tiny instance under every timing and
// policy, and checks them against the independent local BFS (Search).
func TestExactStateCounts(t *testing.T) {
	b := mustBanyan(t, 4)
	msgs, _ := ParseMulticasts("0->1,2;3->2,3", 4)
	for _, tc := range []struct {
		opt    Options
		states int64
		v      checker.Verdict
	}{
		{Options{Arbitration: Free, Timing: Lockstep, Starts: []int{1, 2}}, 16, checker.Holds},
		{Options{Arbitration: UpperFirst, Timing: Lockstep, Starts: []int{1, 2}}, 10, checker.Holds},
		{Options{Arbitration: Free, Timing: Async, Starts: []int{1, 2}}, 323, checker.Holds},
		{Options{Arbitration: UpperFirst, Timing: Async, Starts: []int{1, 2}}, 323, checker.Holds},
		{Options{Arbitration: Free, Timing: Lockstep}, 61, checker.Violated},
		{Options{Arbitration: UpperFirst, Timing: Lockstep, Starts: []int{1, 2}, Flits: 3}, 19, checker.Holds},
		{Options{Arbitration: UpperFirst, Timing: Lockstep, Starts: []int{1, 2}, Flits: 6}, 31, checker.Holds},
	} {
		sys, err := NewSystem(b, msgs, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		r := explore(t, sys)
		s := Search[State](sys, 0)
		if (r.Verdict == checker.Violated) != s.Found {
			t.Fatalf("%+v: explorer %v, local BFS %v", tc.opt, r.Verdict, s.Verdict)
		}
		// A complete search counts the same states; a violated one stops at different
		// points of the last level, but both traces are shortest.
		if r.Verdict == checker.Holds && r.Stats.States != s.States {
			t.Fatalf("%+v: explorer %d states, local BFS %d", tc.opt, r.Stats.States, s.States)
		}
		if r.Verdict == checker.Violated && r.Violation.Trace.Len() != len(s.Actions) {
			t.Fatalf("%+v: explorer trace %d steps, local BFS %d", tc.opt, r.Violation.Trace.Len(), len(s.Actions))
		}
		if r.Stats.States != tc.states || r.Verdict != tc.v {
			t.Errorf("%+v: %v with %d states; pinned %v with %d", tc.opt, r.Verdict, r.Stats.States, tc.v, tc.states)
		}
		t.Logf("%v %v starts %v: %v, %d states, %d transitions", tc.opt.Timing, tc.opt.Arbitration, tc.opt.Starts, r.Verdict, r.Stats.States, r.Stats.Transitions)
	}
}

// Reference: 002 Fig. 4 and Theorem 2.
func TestFigure4(t *testing.T) {
	b := mustBanyan(t, 16)
	msgs, _ := ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	for _, tc := range []struct {
		opt  Options
		want checker.Verdict
	}{
		{Options{Arbitration: Free}, checker.Violated},
		{Options{Arbitration: Free, Acquire: Split}, checker.Violated},
		{Options{Arbitration: UpperFirst}, checker.Holds},
		{Options{Arbitration: UpperFirst, Acquire: Split}, checker.Holds},
		{Options{Arbitration: Free, Starts: []int{5, 7}}, checker.Violated},
		{Options{Arbitration: UpperFirst, Starts: []int{5, 7}}, checker.Holds},
		// Asynchronous timing: Theorem 2's premise (simultaneous requests) is gone.
		{Options{Arbitration: UpperFirst, Timing: Async, Starts: []int{5, 7}}, checker.Violated},
		{Options{Arbitration: Free, Starts: []int{5, 7}, Flits: 9}, checker.Violated},
		{Options{Arbitration: UpperFirst, Starts: []int{5, 7}, Flits: 9}, checker.Holds},
	} {
		sys, _ := NewSystem(b, msgs, tc.opt)
		r := explore(t, sys)
		if r.Verdict != tc.want {
			t.Fatalf("%+v: %v, want %v", tc.opt, r.Verdict, tc.want)
		}
		if r.Verdict != checker.Violated {
			continue
		}
		tr := r.Violation.Trace
		last := tr.Steps[len(tr.Steps)-1].State
		if !IsDeadlock[State](sys, last) || len(sys.Waits(last)) < 2 {
			t.Fatalf("%+v: final state is not a deadlock: %s", tc.opt, sys.Violation(last))
		}
		tf, err := DeadlockTrace(sys, "two-phase", checker.PropDeadlock, tr)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(tf)
		back, err := tracefile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		ok, why, err := ReplayDeadlock(back)
		if err != nil || !ok {
			t.Fatalf("%+v: replay: %v %s", tc.opt, err, why)
		}
		back.Labels[0] = "tampered"
		if _, _, err := ReplayDeadlock(back); err == nil {
			t.Fatal("a tampered label replays")
		}
	}
}

// TestFastLockstepAgreesWithExplorer cross-checks the fast simulator against
// checker.Explore on the System, on random pairs of multicasts on N = 8 (gopter).
func TestFastLockstepAgreesWithExplorer(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(2002)
	params.MinSuccessfulTests = 400
	if testing.Short() {
		params.MinSuccessfulTests = 100
	}
	properties := gopter.NewProperties(params)
	b := mustBanyan(t, 8)
	deadlocks := 0
	properties.Property("fast simulator and explorer agree", prop.ForAll(
		func(s1, s2 int, m1, m2 uint64, st1, st2 int, free bool) bool {
			msgs := []Multicast{msgFromMask(s1, m1, 8), msgFromMask(s2, m2, 8)}
			starts := []int{st1 % (9 - msgs[0].Fanout()), st2 % (9 - msgs[1].Fanout())}
			arb := UpperFirst
			if free {
				arb = Free
			}
			sys, err := NewSystem(b, msgs, Options{Arbitration: arb, Starts: starts})
			if err != nil {
				return false
			}
			r := explore(t, sys)
			f, err := NewFastLockstep(b, msgs, starts, arb)
			if err != nil {
				return false
			}
			got := f.Deadlocks()
			if got {
				deadlocks++
			}
			return got == (r.Verdict == checker.Violated)
		},
		gen.IntRange(0, 7), gen.IntRange(0, 7), gen.UInt64Range(1, 255), gen.UInt64Range(1, 255),
		gen.IntRange(0, 7), gen.IntRange(0, 7), gen.Bool(),
	))
	properties.TestingRun(t)
	if deadlocks == 0 {
		t.Fatal("no deadlock in the sample: the cross-check never exercised one")
	}
}

func TestNewSystemRefuses(t *testing.T) {
	b := mustBanyan(t, 16)
	msgs, _ := ParseMulticasts("1->5,6,7,8", 16)
	for _, opt := range []Options{{Starts: []int{13}}, {Starts: []int{1, 2}}, {Starts: []int{-1}}, {Flits: 3}, {Flits: 8, Timing: Async}} {
		if _, err := NewSystem(b, msgs, opt); err == nil {
			t.Errorf("%+v accepted", opt)
		}
	}
	if _, err := NewSystem(mustBanyan(t, 64), msgs, Options{}); err == nil {
		t.Error("N=64 accepted")
	}
}

func TestParseEnums(t *testing.T) {
	for _, s := range []string{"free", "upper-first"} {
		if a, err := ParseArbitration(s); err != nil || a.String() != s {
			t.Errorf("%s: %v %v", s, a, err)
		}
	}
	if _, err := ParseArbitration("lower-first"); err == nil {
		t.Error("lower-first accepted")
	}
	for _, s := range []string{"lockstep", "async"} {
		if v, err := ParseTiming(s); err != nil || v.String() != s {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
	for _, s := range []string{"atomic", "split"} {
		if v, err := ParseAcquire(s); err != nil || v.String() != s {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
	for _, s := range []string{"ascending", "descending", "any"} {
		if v, err := ParseOrder(s); err != nil || v.String() != s {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
	for _, s := range []string{"plain", "cyclic", "scattered"} {
		if v, err := ParseConcentration(s); err != nil || v.String() != s {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
}

// ExampleNewSystem finds the deadlock of 002 Fig. 4 with free arbitration and shows that
// upper-input-link-first avoids it in the lockstep timing.
func ExampleNewSystem() {
	b, _ := topology.NewBanyan(16)
	msgs, _ := ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	for _, arb := range []Arbitration{Free, UpperFirst} {
		sys, _ := NewSystem(b, msgs, Options{Arbitration: arb, Starts: []int{5, 7}})
		r, _ := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true})
		fmt.Println(arb, r.Verdict, r.Stats.States)
	}
	// Output:
	// free violated 14
	// upper-first holds 17
}

func TestParsePattern(t *testing.T) {
	p, err := ParsePattern("0->3, 1->5;2->4-7", 8)
	if err != nil || len(p) != 3 || p[2].Dest != (topology.Region{Min: 4, Max: 7}) || p[1].String() != "1->5" {
		t.Fatalf("%v %v", p, err)
	}
	for _, bad := range []string{"", "0", "0->8", "9->1", "0->5-4", "0->a"} {
		if _, err := ParsePattern(bad, 8); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"0->3,1->5,2->4-7", "", "1->1-1;2->0", "->", "0->-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePattern(s, 16)
		if err != nil {
			return
		}
		b, _ := topology.NewBanyan(16)
		if _, err := b.FirstConflict(p); err != nil {
			t.Fatalf("%q parsed into an invalid pattern: %v", s, err)
		}
	})
}

func TestTraceRecords(t *testing.T) {
	b := mustBanyan(t, 16)
	msgs, _ := ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	sys, _ := NewSystem(b, msgs, Options{Starts: []int{5, 7}})
	r := explore(t, sys)
	data, err := capture(TraceRecords(sys, r.Violation.Trace))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := capture(TraceRecords(sys, r.Violation.Trace))
	// 24-byte file header, then records of 16+12 bytes; the trace grants dozens of links.
	if !bytes.Equal(data, again) || len(data) < 24+10*28 {
		t.Fatalf("capture of %d bytes", len(data))
	}
}

func mustPathTable(t *testing.T, b *topology.Banyan) *PathTable {
	t.Helper()
	pt, err := NewPathTable(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

// TestPathTableSizeGuard: a banyan whose table cannot be held is refused with a message
// naming its size, never a crash (banyan:65536 panicked in makeslice, banyan:4096 ran
// out of memory); Property1ByPairs stops when its context ends.
func TestPathTableSizeGuard(t *testing.T) {
	for _, n := range []int{4096, 65536} {
		b := mustBanyan(t, n)
		if _, err := NewPathTable(b, 1<<30); err == nil || !strings.Contains(err.Error(), "path table needs") {
			t.Errorf("banyan:%d: %v", n, err)
		}
	}
	if size, ok := PathTableBytes(mustBanyan(t, 16)); !ok || size != 16*16*2*8 {
		t.Errorf("banyan:16 table: %d bytes, %v", size, ok)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Property1ByPairs(ctx, mustPathTable(t, mustBanyan(t, 16)), Ascending, Plain)
	if err == nil || r.Pairs != 0 {
		t.Errorf("a cancelled context: %d pairs, %v", r.Pairs, err)
	}
}

// TestPatternRecords: the capture of a blocking pattern has one record per link of each
// packet's tree, and the conflict's channel in two of them (banyan-route --pcap wrote
// nothing before).
func TestPatternRecords(t *testing.T) {
	b := mustBanyan(t, 8)
	pat, err := ParsePattern("0->5,3->5", 8)
	if err != nil {
		t.Fatal(err)
	}
	data, err := capture(PatternRecords(b, pat))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := b.FirstConflict(pat)
	want := 0
	for _, p := range pat {
		tree, _ := b.RegionTree(p.Source, p.Dest)
		want += len(tree)
	}
	r, err := pcapgo.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	records, shared := 0, 0
	for {
		rec, _, err := r.ReadPacketData()
		if err != nil {
			break
		}
		records++
		// The record ends with the packet (2 bytes) and the channel (4 bytes).
		if ch := binary.BigEndian.Uint32(rec[len(rec)-4:]); int(ch) == c.Channel {
			shared++
		}
	}
	if records != want || shared != 2 {
		t.Errorf("%d records (want %d), %d on the conflict's channel %s (want 2)", records, want, shared, c.Link)
	}
}

// capture writes records as a pcap file, as the command line does with a witness's.
func capture(recs []banyanwire.Record, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := banyanwire.WriteCapture(&buf, recs); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
