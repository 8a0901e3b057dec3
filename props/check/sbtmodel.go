package check

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// prepareDistributions is the distributions check of an SBT schedule on a hypercube.
func prepareDistributions(s *model.Schedule, r *request) (job, error) {
	g, _ := s.Grid()
	if g.Kind() != topology.Hypercube {
		return nil, badf("--topo %s: the distributions of 003's model are of a hypercube broadcast", r.topology)
	}
	return func(context.Context) (*props.Report, error) {
		rep := r.report(r.topology, map[string]any{"source": s.Topology.NodeName(s.Sources[0]), "unicasts": len(s.Unicasts), "steps": s.Steps()})
		rep.Command = "check"
		judgeDistributions(s, g.Dims(), rep)
		return rep, nil
	}, nil
}

// judgeDistributions compares a one-source broadcast schedule s on the binary n-cube with
// the distributions 003's analytical model assumes, as exact rationals counted on the
// schedule's tree (a node's depth is its step, its replication count the unicasts it
// sends):
//   - eq. (5): the fraction of non-source nodes at depth i is C(n,i)/(2^n-1), i = 1..n;
//   - eq. (6): their mean depth is n/2·N/(N-1);
//   - eq. (9): the fraction of non-source nodes that send i copies is 2^(n-i-1)/(2^n-1),
//     i = 0..n-1;
//   - eq. (10): its mean is (2^n-1-n)/(2^n-1);
//   - before eq. (3): the fraction that replicates at all is (2^(n-1)-1)/(2^n-1).
//
// It fills rep (verdict, stats counting the equalities checked, the figure
// mean_replications) and returns it; the first equation that fails is an instance
// witness naming it with both values. A schedule of more than n steps, or one in which
// a node sends n or more copies, has no place in the model and is violated at once.
// Reference: 003 §3.1, eqs. (3), (5), (6), (9), (10).
func judgeDistributions(s *model.Schedule, n int, rep *props.Report) *props.Report {
	start := time.Now()
	defer func() { rep.Stats.Seconds = time.Since(start).Seconds() }()
	rep.Verdict, rep.Stats.Unit = props.Holds, "equations"
	fail := func(eq string, tree, model string) *props.Report {
		rep.Verdict = props.Violated
		rep.Reason = fmt.Sprintf("n=%d %s: tree %s, model %s", n, eq, tree, model)
		rep.Witness = &props.Witness{Kind: props.WitnessInstance, Violation: rep.Reason,
			Detail: map[string]any{"n": n, "equation": eq, "tree": tree, "model": model}}
		rep.Text = rep.Reason
		return rep
	}
	if n < 1 || n > 30 {
		return fail("the cube", fmt.Sprintf("dimension %d", n), "dimension 1..30")
	}
	if k := s.Steps(); k > n {
		return fail("depth", fmt.Sprintf("%d steps", k), fmt.Sprintf("at most %d", n))
	}
	sent := map[topology.NodeID]int{}
	for _, u := range s.Unicasts {
		sent[u.From]++
	}
	for v, c := range sent {
		if c >= n && v != s.Sources[0] {
			return fail("eq. (9)", fmt.Sprintf("node %s sends %d copies", s.Topology.NodeName(v), c), fmt.Sprintf("at most %d", n-1))
		}
	}
	d := sbt.Count(s, n)
	tot := big.NewInt(1<<n - 1)
	frac := func(c int64) *big.Rat { return new(big.Rat).SetFrac(big.NewInt(c), tot) }
	check := func(eq string, tree, model *big.Rat) bool {
		rep.Stats.Checked++
		if tree.Cmp(model) != 0 {
			fail(eq, tree.RatString(), model.RatString())
			return false
		}
		return true
	}
	mean := new(big.Rat)
	for i := 1; i <= n; i++ {
		if !check(fmt.Sprintf("eq. (5) i=%d", i), frac(d.Depth[i]), sbt.Eq5(n, i)) {
			return rep
		}
		mean.Add(mean, new(big.Rat).Mul(big.NewRat(int64(i), 1), frac(d.Depth[i])))
	}
	if !check("eq. (6)", mean, sbt.Eq6(n)) {
		return rep
	}
	w, repl := new(big.Rat), int64(0)
	for i := 0; i < n; i++ {
		if !check(fmt.Sprintf("eq. (9) i=%d", i), frac(d.Replications[i]), sbt.Eq9(n, i)) {
			return rep
		}
		w.Add(w, new(big.Rat).Mul(big.NewRat(int64(i), 1), frac(d.Replications[i])))
		if i > 0 {
			repl += d.Replications[i]
		}
	}
	if !check("eq. (10)", w, sbt.Eq10(n)) || !check("before eq. (3)", frac(repl), sbt.Eq3Fraction(n)) {
		return rep
	}
	wf, _ := w.Float64()
	rep.Figures = map[string]float64{"mean_replications": wf}
	rep.Reason = fmt.Sprintf("n=%d: eqs. (5), (6), (9), (10) and the replicating fraction before eq. (3) equal the tree's, as exact rationals", n)
	return rep
}
