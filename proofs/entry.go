package proofs

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The family members of the flit claims (WH, TM) are checked through the one entry,
// props/check.Run, as a user's test or `wormcheck check` would check them: the family
// sweeps of algos enumerate the members and run them on the pool, and call these
// adapters (algos may not import the entry) for each member.

// memberStates bounds each member's search; a member that reaches it is inconclusive.
const memberStates = 2_000_000

// deadlockNotion is how the catalogue's flit deadlock checks run, carried by the context
// so that the soundness test (TestDeadlockNotionsAgree) can run the same claims with
// the other notions and compare: Global checks "deadlock" as "global-deadlock" (a state
// where nothing moves), Reduction explores every instance with partial-order reduction
// where the algorithm has it (check.Options.ReducedOnly), and Record, when set, sees
// every report (the instance it checked is rep.Instance). A catalogue run carries none:
// local deadlock, unreduced.
type deadlockNotion struct {
	Global, Reduction bool
	Record            func(prop string, rep *props.Report)
}

type notionKey struct{}

// withNotion returns ctx carrying n for runCheck.
func withNotion(ctx context.Context, n *deadlockNotion) context.Context {
	return context.WithValue(ctx, notionKey{}, n)
}

// flitRequest is a typed request of the entry in the flit semantics: check.Unicast,
// check.TreeMulticast or check.TwoPhase.
type flitRequest interface {
	Check(ctx context.Context, property string, opt check.Options) (*props.Report, error)
}

// runCheck checks req for prop, as a flit deadlock check of the WH, TM, RT and MN
// claims, under the deadlock notion ctx carries (deadlockNotion), if any.
func runCheck(ctx context.Context, req flitRequest, prop string, opt check.Options) (*props.Report, error) {
	n, _ := ctx.Value(notionKey{}).(*deadlockNotion)
	if n == nil {
		return req.Check(ctx, prop, opt)
	}
	if n.Global && prop == props.PropDeadlock {
		prop = props.PropGlobalDeadlock
	}
	opt.Reduction, opt.ReducedOnly = n.Reduction, n.Reduction
	rep, err := req.Check(ctx, prop, opt)
	if err == nil && n.Record != nil {
		n.Record(prop, rep)
	}
	return rep, err
}

// unicastMember checks one worm placement for deadlock (and the model's invariants)
// with the entry's typed unicast request, bounded by maxStates (0 = none).
func unicastMember(maxStates int64) func(ctx context.Context, sp unicast.Spec) (unicast.Result, error) {
	return func(ctx context.Context, sp unicast.Spec) (unicast.Result, error) {
		g, err := sp.Grid()
		if err != nil {
			return unicast.Result{}, err
		}
		rep, err := runCheck(ctx, check.Unicast{Grid: g, Spec: sp}, props.PropDeadlock,
			check.Options{MaxStates: maxStates, ViolationPicturesOnly: true})
		if err != nil {
			return unicast.Result{}, err
		}
		r := unicast.Result{Property: rep.Property, Verdict: rep.Verdict, States: rep.Stats.States, Transitions: rep.Stats.Transitions,
			Depth: rep.Stats.Depth, Seconds: rep.Stats.Seconds, Violation: rep.Reason,
			Certificate: rep.Certificate, CollisionBound: rep.Stats.CollisionBound}
		if rep.Verdict == props.Violated {
			if rep.Trace == nil {
				return r, fmt.Errorf("unicast %s on %s: violated without a trace", sp.Worms(), sp.Topology)
			}
			for _, a := range rep.Trace.Actions {
				r.Actions = append(r.Actions, checker.Action(a))
			}
			r.Labels, r.Violation = rep.Trace.Labels, rep.Trace.Violation
		}
		return r, nil
	}
}

// treeMember checks one pair of multicasts for prop with the entry's typed tree-multicast
// request, bounded by memberStates.
func treeMember(ctx context.Context, in treemcast.Instance, prop string) (treemcast.MemberResult, error) {
	rep, err := runCheck(ctx, check.TreeMulticast{Instance: in}, prop, check.Options{MaxStates: memberStates, ViolationPicturesOnly: true})
	if err != nil {
		return treemcast.MemberResult{}, err
	}
	return treemcast.MemberResult{Verdict: rep.Verdict, States: rep.Stats.States, Transitions: rep.Stats.Transitions,
		CollisionBound: rep.Stats.CollisionBound, Certificate: rep.Certificate, Trace: rep.Trace}, nil
}
