package proofs

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The hypercube broadcast claims of Shahrabi & Ould-Khaoua (003): the SBT broadcast with
// rotating base dimension (§2.2) and the distributions its analytical model assumes
// (eqs. 3, 5, 6, 9, 10). The extracted equations are not garbled except for layout; each
// was re-derived on the tree: eq. (5) p_i = C(n,i)/(2^n-1) is the fraction of non-source
// nodes at depth (= Hamming distance = hops) i; eq. (6) is its mean, n/2·N/(N-1); eq. (9)
// P_ri = 2^(n-i-1)/(2^n-1) is the fraction of non-source nodes with i children (i =
// 0..n-1); eq. (10) is its mean, (2^n-1-n)/(2^n-1); the sentence before eq. (3) gives the
// fraction that replicates at all, (2^(n-1)-1)/(2^n-1). Note that §3.1's "each neighbour
// replicates the message (n-1) times" is loose: the source's neighbours replicate
// n-1, n-2, ..., 0 times (eq. 9 is right).
// runHB1 checks the SBT broadcast through the entry (the registry's sbt) on every
// hypercube of the size, from one source per cube and three base dimensions: validity,
// exactly-once, exactly n steps (steps-exact) and stepwise contention freedom.
func runHB1(ctx context.Context, env Env) Outcome {
	hi := pick(env.Size, 7, 10, 10)
	var out Outcome
	for n := 3; n <= hi; n++ {
		for _, base := range []int{0, n / 2, n - 1} {
			if err := ctx.Err(); err != nil {
				return Outcome{Verdict: Inconclusive, Err: err}
			}
			out.Instances++
			g, err := topology.NewHypercube(n)
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
			}
			in := check.Collective{Algorithm: "sbt", Grid: g, Source: topology.NodeID((n * 37) % (1 << n)), Base: base}
			for _, prop := range []checker.Property{checker.PropValidity, checker.PropExactlyOnce, checker.PropStepsExact, checker.PropStepwise} {
				r, err := in.Check(ctx, prop, check.Options{Steps: n})
				if err != nil {
					return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
				}
				if r.Verdict != props.Holds {
					out.Verdict = r.Verdict.String()
					out.Witness = reportWitness(r)
					out.Note = fmt.Sprintf("hypercube:%d base %d: %s: %s", n, base, r.Property, r.Reason)
					return out
				}
			}
		}
	}
	out.Verdict = Holds
	out.Note = fmt.Sprintf("hypercubes n = 3..%d, base dimensions 0, n/2, n-1, e-cube routing higher dimensions first: validity, exactly-once, n steps, stepwise contention-free", hi)
	return out
}

// runHB2 checks 003's model distributions against the SBT tree through the entry (sbt's
// distributions property) on every cube n = 2..12, source 0, base n/2.
func runHB2(ctx context.Context, env Env) Outcome {
	var out Outcome
	out.Figures = map[string]float64{}
	for n := 2; n <= 12; n++ {
		if err := ctx.Err(); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		g, err := topology.NewHypercube(n)
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
		}
		r, err := check.Collective{Algorithm: "sbt", Grid: g, Base: n / 2}.Check(ctx, checker.PropDistributions, check.Options{})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
		}
		out.Instances++
		if r.Verdict != props.Holds {
			return Outcome{Verdict: r.Verdict.String(), Instances: out.Instances, Witness: reportWitness(r), Note: r.Reason}
		}
		out.Figures[fmt.Sprintf("mean_replications_n%d", n)] = r.Figures["mean_replications"]
	}
	out.Verdict = Holds
	out.Note = "n = 2..12: depth (hop) distribution = eq. (5), its mean = eq. (6), replication distribution = eq. (9), its mean = eq. (10), replicating fraction = the rate before eq. (3), all as exact rationals counted on the SBT"
	return out
}
