package proofs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

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
// where the algorithm has it (check.Options.ReducedOnly), and Record, when set, sees every report. A catalogue run carries
// none: local deadlock, unreduced.
type deadlockNotion struct {
	Global, Reduction bool
	Record            func(in check.Instance, prop string, rep *props.Report)
}

type notionKey struct{}

// withNotion returns ctx carrying n for runCheck.
func withNotion(ctx context.Context, n *deadlockNotion) context.Context {
	return context.WithValue(ctx, notionKey{}, n)
}

// runCheck is check.Run for the flit deadlock checks of the WH, TM, RT and MN claims,
// under the deadlock notion ctx carries (deadlockNotion), if any.
func runCheck(ctx context.Context, in check.Instance, prop string, opt check.Options) (*props.Report, error) {
	n, _ := ctx.Value(notionKey{}).(*deadlockNotion)
	if n == nil {
		return check.Run(ctx, in, prop, opt)
	}
	switch in.Algorithm {
	case "unicast", "tree-mcast", "two-phase":
		if n.Global && prop == props.PropDeadlock {
			prop = props.PropGlobalDeadlock
		}
		opt.Reduction, opt.ReducedOnly = n.Reduction, n.Reduction
	}
	rep, err := check.Run(ctx, in, prop, opt)
	if err == nil && n.Record != nil {
		n.Record(in, prop, rep)
	}
	return rep, err
}

// unicastMember checks one worm placement for deadlock (and the model's invariants)
// with check.Run, bounded by maxStates (0 = none). As for treeMember, a member under a
// relation other than dimension order is refused.
func unicastMember(maxStates int64) func(ctx context.Context, sp unicast.Spec) (unicast.Result, error) {
	return func(ctx context.Context, sp unicast.Spec) (unicast.Result, error) {
		if sp.Routing != nil {
			return unicast.Result{}, fmt.Errorf("unicast member on %s: routing %s cannot be named through the entry", sp.Topology, sp.Routing.Name())
		}
		p := unicast.ParamsOf(sp)
		rep, err := runCheck(ctx, check.Instance{Algorithm: "unicast", Topology: sp.Topology, Params: map[string]string{
			"msgs": p.Msgs, "length": strconv.Itoa(p.Length), "buffers": strconv.Itoa(p.Buffers),
			"vcs": strconv.Itoa(p.VCs), "dateline": p.Dateline, "ports": p.Ports,
		}}, "deadlock", check.Options{MaxStates: maxStates, ViolationPicturesOnly: true})
		if err != nil {
			return unicast.Result{}, err
		}
		r := unicast.Result{Property: rep.Property, Verdict: rep.Verdict, States: rep.Stats.States, Transitions: rep.Stats.Transitions,
			Depth: rep.Stats.Depth, Seconds: rep.Stats.Seconds, Violation: rep.Reason,
			Certificate: rep.Certificate, CollisionBound: rep.Stats.CollisionBound}
		if rep.Verdict == props.Violated {
			if rep.Trace == nil {
				return r, fmt.Errorf("unicast %s on %s: violated without a trace", p.Msgs, sp.Topology)
			}
			for _, a := range rep.Trace.Actions {
				r.Actions = append(r.Actions, checker.Action(a))
			}
			r.Labels, r.Violation = rep.Trace.Labels, rep.Trace.Violation
		}
		return r, nil
	}
}

// treeMember checks one pair of multicasts for prop with check.Run, bounded by
// memberStates. The entry names instances by strings, so a member under a routing
// relation other than dimension order is refused rather than checked under DOR.
func treeMember(ctx context.Context, in treemcast.Instance, prop string) (treemcast.MemberResult, error) {
	if in.Routing != nil {
		return treemcast.MemberResult{}, fmt.Errorf("tree-mcast member %s: routing %s cannot be named through the entry", in, in.Routing.Name())
	}
	tp := in.TraceParams()
	rep, err := runCheck(ctx, check.Instance{Algorithm: "tree-mcast", Topology: in.Grid.Spec(), Params: map[string]string{
		"msgs": tp.Msgs, "pruning": tp.Pruning, "length": strconv.Itoa(tp.Length), "buffers": strconv.Itoa(tp.Buffers),
		"ports": strings.TrimSuffix(tp.Ports, "-port"),
	}}, prop, check.Options{MaxStates: memberStates, ViolationPicturesOnly: true})
	if err != nil {
		return treemcast.MemberResult{}, err
	}
	return treemcast.MemberResult{Verdict: rep.Verdict, States: rep.Stats.States, Transitions: rep.Stats.Transitions,
		CollisionBound: rep.Stats.CollisionBound, Certificate: rep.Certificate, Trace: rep.Trace}, nil
}
