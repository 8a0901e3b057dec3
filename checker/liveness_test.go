package checker_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// TestProgressCertificate: a Progressive model whose every transition increases its rank
// is certified on every transition the search generated, whatever the worker count.
func TestProgressCertificate(t *testing.T) {
	for _, w := range []int{1, 3} {
		m := checkertest.Counters{N: 3, K: 4}
		res, err := checker.Explore[checkertest.CountersState](m, checker.Options[checkertest.CountersState]{CheckDeadlock: true, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		// 3*(4-1)*4^2 = 144 transitions, all checked.
		if res.Progress == nil || res.Progress.Checked != 144 || res.Progress.Broken != nil || !res.Progress.Certified(res.Verdict) {
			t.Fatalf("workers %d: progress %+v, verdict %v; want 144 checked, unbroken, certified", w, res.Progress, res.Verdict)
		}
	}
	b := checkertest.Bouncer{N: 4, Budget: 1}
	res, err := checker.Explore[checkertest.BouncerState](b, checker.Options[checkertest.BouncerState]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Holds || res.Stats.States != 8 || res.Stats.Transitions != 8 || !res.Progress.Certified(res.Verdict) || res.Progress.Checked != 8 {
		t.Fatalf("bouncer with budget: %v, %d states, %d transitions, progress %+v; want holds, 8, 8, certified on 8", res.Verdict, res.Stats.States, res.Stats.Transitions, res.Progress)
	}
}

// TestProgressBreak: without a misroute budget the first backward move lowers the rank;
// the deadlock check still holds (nothing is stuck), but no delivery is certified, and
// the break comes with a trace that ends in the offending move.
func TestProgressBreak(t *testing.T) {
	for _, w := range []int{1, 2} {
		m := checkertest.Bouncer{N: 4, Budget: -1}
		res, err := checker.Explore[checkertest.BouncerState](m, checker.Options[checkertest.BouncerState]{CheckDeadlock: true, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != checker.Holds || res.Stats.States != 4 || res.Stats.Transitions != 5 {
			t.Fatalf("%v, %d states, %d transitions; want holds, 4, 5", res.Verdict, res.Stats.States, res.Stats.Transitions)
		}
		p := res.Progress
		if p == nil || p.Broken == nil || p.Certified(res.Verdict) || p.Checked != 5 {
			t.Fatalf("progress %+v; want 5 checked and a break", p)
		}
		tr := p.Broken.Trace
		if tr.Len() != 2 || tr.Steps[2].Action != 0 || tr.Steps[2].State.At != 0 || !strings.Contains(p.Broken.Message, "decreases") {
			t.Fatalf("break trace %q, message %q; want 0 -> 1 -> back to 0, decreasing", tr.String(), p.Broken.Message)
		}
	}
}

// TestLivenessLivelock: the unbudgeted bouncer livelocks; the lasso replays.
func TestLivenessLivelock(t *testing.T) {
	m := checkertest.Bouncer{N: 4, Budget: -1}
	res, err := checker.CheckLiveness[checkertest.BouncerState](m, checker.LivenessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.States != 4 || res.Transitions != 5 {
		t.Fatalf("%v, %d states, %d transitions; want violated, 4, 5", res.Verdict, res.States, res.Transitions)
	}
	v := res.Violation
	if v.Kind != checker.KindLivelock || v.CycleStart != 0 || v.Trace.Len() != 2 {
		t.Fatalf("kind %s, cycle start %d, trace %q; want a livelock 0 -> 1 -> 0 from the start", v.Kind, v.CycleStart, v.Trace.String())
	}
	_, f, err := checker.ReplayLasso[checkertest.BouncerState](m, 0, v.Trace.Actions(), v.CycleStart)
	if err != nil || f.Kind != checker.KindLivelock || f.Message != 0 {
		t.Fatalf("replay: %v, %+v", err, f)
	}
	// With a budget every run delivers.
	res, err = checker.CheckLiveness[checkertest.BouncerState](checkertest.Bouncer{N: 4, Budget: 1}, checker.LivenessOptions{})
	if err != nil || res.Verdict != checker.Holds || res.States != 8 || res.Transitions != 8 {
		t.Fatalf("budgeted: %v, %+v", err, res)
	}
}

// serverByAction hides the Server's Tasks (keeping its Pending), so weak fairness
// identifies transitions by Action id.
type serverByAction struct{ checkertest.Server }

func (serverByAction) Task() {} // shadows Server.Task with a method of another signature

// TestLivenessStarvation: weak fairness excludes the starvation of client 1 when its
// service stays enabled (judged by Task), not when the service is identified by Action
// id (it changes), nor when client 0 disables it half the time.
func TestLivenessStarvation(t *testing.T) {
	type S = checkertest.ServerState
	res, err := checker.CheckLiveness[S](checkertest.Server{}, checker.LivenessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Holds || res.States != 4 || res.Transitions != 6 {
		t.Fatalf("unshared: %v, %d states, %d transitions; want holds, 4, 6", res.Verdict, res.States, res.Transitions)
	}
	res, err = checker.CheckLiveness[S](serverByAction{}, checker.LivenessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.Violation.Kind != checker.KindStarvation {
		t.Fatalf("unshared by action id: %v %+v; want a starvation", res.Verdict, res.Violation)
	}
	shared := checkertest.Server{Shared: true}
	res, err = checker.CheckLiveness[S](shared, checker.LivenessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.States != 4 || res.Transitions != 5 {
		t.Fatalf("shared: %v, %d states, %d transitions; want violated, 4, 5", res.Verdict, res.States, res.Transitions)
	}
	v := res.Violation
	if v.Kind != checker.KindStarvation || v.CycleStart != 0 || v.Trace.Len() != 2 || !strings.Contains(v.Message, "message 1 is never delivered") {
		t.Fatalf("kind %s, cycle start %d, trace %q, message %q", v.Kind, v.CycleStart, v.Trace.String(), v.Message)
	}
	if _, f, err := checker.ReplayLasso[S](shared, 0, v.Trace.Actions(), v.CycleStart); err != nil || f.Kind != checker.KindStarvation || f.Message != 1 || f.Delivered != 1 {
		t.Fatalf("replay: %v, %+v", err, f)
	}
	// The same cycle is not a counterexample when the service stays enabled: ReplayLasso
	// refuses it as unfair.
	if _, _, err := checker.ReplayLasso[S](checkertest.Server{}, 0, v.Trace.Actions(), v.CycleStart); err == nil || !strings.Contains(err.Error(), "not weakly fair") {
		t.Fatalf("replaying the starving cycle on the unshared server: %v; want not weakly fair", err)
	}
}

// TestExploreCertificates: Options.CheckLiveness gives every Holds a certificate, by
// progress where the measure holds and by the liveness check where it breaks or is
// absent, and turns a livelock or starvation into Violated with its lasso.
func TestExploreCertificates(t *testing.T) {
	opt := func() checker.Options[checkertest.BouncerState] {
		return checker.Options[checkertest.BouncerState]{CheckDeadlock: true, CheckLiveness: true}
	}
	res, err := checker.Explore[checkertest.BouncerState](checkertest.Bouncer{N: 4, Budget: 2}, opt())
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Certificate(); res.Verdict != checker.Holds || c.Kind != checker.CertProgress || c.Transitions != res.Stats.Transitions || res.Liveness != nil {
		t.Fatalf("budgeted: %v, certificate %+v", res.Verdict, c)
	}
	res, err = checker.Explore[checkertest.BouncerState](checkertest.Bouncer{N: 4, Budget: -1}, opt())
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Certificate(); res.Verdict != checker.Violated || res.Violation.Kind != checker.KindLivelock || c != nil {
		t.Fatalf("unbudgeted: %v %+v, certificate %+v; want a livelock", res.Verdict, res.Violation, c)
	}
	// Without CheckLiveness the same search holds, but certifies nothing.
	res, err = checker.Explore[checkertest.BouncerState](checkertest.Bouncer{N: 4, Budget: -1}, checker.Options[checkertest.BouncerState]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Certificate(); res.Verdict != checker.Holds || c.Kind != checker.CertNone || !strings.Contains(c.Note, "liveness check was not run") {
		t.Fatalf("unbudgeted, deadlock only: %v, certificate %+v", res.Verdict, c)
	}
	type S = checkertest.ServerState
	sres, err := checker.Explore[S](checkertest.Server{}, checker.Options[S]{CheckDeadlock: true, CheckLiveness: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := sres.Certificate(); sres.Verdict != checker.Holds || c.Kind != checker.CertLiveness || c.Transitions != 6 {
		t.Fatalf("unshared server: %v, certificate %+v; want holds by the liveness check on 6 transitions", sres.Verdict, c)
	}
	sres, err = checker.Explore[S](checkertest.Server{Shared: true}, checker.Options[S]{CheckDeadlock: true, CheckLiveness: true})
	if err != nil {
		t.Fatal(err)
	}
	if sres.Verdict != checker.Violated || sres.Violation.Kind != checker.KindStarvation || sres.Violation.CycleStart != 0 {
		t.Fatalf("shared server: %v %+v; want a starvation lasso", sres.Verdict, sres.Violation)
	}
}

// rankedLazy is a Progressive SuccessorEncoder without ProgressEncoder: Explore must fall
// back to Successors to see every target.
type rankedLazy[S any] struct {
	lazy[S]
	rank func(S, []uint32) []uint32
}

func (r rankedLazy[S]) Progress(s S, buf []uint32) []uint32 { return r.rank(s, buf) }

// rankedEncoder also yields the ranks, so Explore keeps the encoded-successor path.
type rankedEncoder[S any] struct{ rankedLazy[S] }

func (r rankedEncoder[S]) EncodeSuccessorsProgress(s S, buf []byte, rbuf []uint32, yield func(checker.Action, []byte, []uint32)) ([]byte, []uint32) {
	for _, t := range r.Successors(s, nil) {
		buf = r.Encode(t.Next, buf[:0])
		rbuf = r.rank(t.Next, rbuf[:0])
		yield(t.Action, buf, rbuf)
	}
	return buf, rbuf
}

// TestProgressOnEveryPath: the plain path, the SuccessorEncoder fallback and the
// ProgressEncoder path check the same transitions and report the same break, for every
// worker count, and the ProgressEncoder path still builds only new states.
func TestProgressOnEveryPath(t *testing.T) {
	type S = checkertest.BouncerState
	for _, budget := range []int{-1, 2} {
		b := checkertest.Bouncer{N: 6, Budget: budget}
		var built int
		paths := map[string]checker.Model[S]{
			"plain":    b,
			"fallback": rankedLazy[S]{lazy[S]{Model: b}, b.Progress},
			"encoder":  rankedEncoder[S]{rankedLazy[S]{lazy[S]{Model: b, built: &built}, b.Progress}},
		}
		var want *checker.ProgressResult[S]
		for _, name := range []string{"plain", "fallback", "encoder"} {
			for _, w := range []int{1, 3} {
				m := paths[name]
				if w > 1 && name == "encoder" {
					m = rankedEncoder[S]{rankedLazy[S]{lazy[S]{Model: b}, b.Progress}}
				}
				built = 0
				res, err := checker.Explore(m, checker.Options[S]{CheckDeadlock: true, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				p := res.Progress
				if p == nil || p.Checked != res.Stats.Transitions || (p.Broken != nil) != (budget < 0) {
					t.Fatalf("budget %d %s workers %d: progress %+v over %d transitions", budget, name, w, p, res.Stats.Transitions)
				}
				if want == nil {
					want = p
				} else if p.Checked != want.Checked || (p.Broken != nil && !slices.Equal(p.Broken.Trace.Actions(), want.Broken.Trace.Actions())) {
					t.Fatalf("budget %d %s workers %d: %+v, plain %+v", budget, name, w, p, want)
				}
				if name == "encoder" && w == 1 && int64(built) != res.Stats.States-1 {
					t.Fatalf("budget %d: the ProgressEncoder path built %d states for %d stored", budget, built, res.Stats.States)
				}
			}
		}
	}
}

// TestLivenessBounds: a state or memory budget makes the liveness check inconclusive,
// never holds, and bad bounds are errors.
func TestLivenessBounds(t *testing.T) {
	type S = checkertest.CountersState
	m := checkertest.Counters{N: 4, K: 8}
	if r, err := checker.CheckLiveness[S](m, checker.LivenessOptions{MaxStates: 10}); err != nil || r.Verdict != checker.Inconclusive {
		t.Fatalf("state budget: %v %+v", err, r)
	}
	if r, err := checker.CheckLiveness[S](m, checker.LivenessOptions{MaxMemoryBytes: 1}); err != nil || r.Verdict != checker.Inconclusive || !strings.Contains(r.Reason, "memory budget") {
		t.Fatalf("memory budget: %v %+v", err, r)
	}
	if _, err := checker.CheckLiveness[S](m, checker.LivenessOptions{MaxStates: -1}); err == nil {
		t.Fatal("a negative state budget was accepted")
	}
	if r, err := checker.CheckLiveness[S](m, checker.LivenessOptions{}); err != nil || r.Verdict != checker.Holds || r.States != 4096 {
		t.Fatalf("unbounded: %v %+v; want holds on 8^4 states", err, r)
	}
}
