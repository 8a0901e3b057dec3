package proofs

import (
	"context"
	"fmt"
	"math/big"

	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
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
func init() {
	Register(Claim{ID: "HB1", Source: "003 §2.2",
		Statement: "SBT broadcast reaches every node exactly once in n steps",
		Semantics: "step", Expected: ExpectHolds, Families: one([3]string{"hypercubes n = 3..7", "hypercubes n = 3..10", "hypercubes n = 3..10"}, runHB1)})
	Register(Claim{ID: "HB2", Source: "003 eqs. 5-11",
		Statement: "the model's hop and replication distributions equal the tree's",
		Semantics: "static", Expected: ExpectHolds, Families: one([3]string{"n = 2..12", "n = 2..12", "n = 2..12"}, runHB2)})
}

func runHB1(ctx context.Context, env Env) Outcome {
	hi := pick(env.Size, 7, 10, 10)
	var out Outcome
	for n := 3; n <= hi; n++ {
		h, _ := model.NewHypercube(n)
		for _, base := range []int{0, n / 2, n - 1} {
			if err := ctx.Err(); err != nil {
				return Outcome{Verdict: Inconclusive, Err: err}
			}
			src := model.NodeID((n * 37) % (1 << n))
			s, err := sbt.Build(h, src, base)
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err}
			}
			out.Instances++
			for _, r := range []*props.Report{props.Validity(s), props.ExactlyOnce(s), props.StepCount(s, n), props.Stepwise(s)} {
				if r.Verdict != props.Holds {
					out.Verdict = r.Verdict.String()
					out.Witness = schedWitness(r)
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

func runHB2(ctx context.Context, env Env) Outcome {
	var out Outcome
	out.Figures = map[string]float64{}
	for n := 2; n <= 12; n++ {
		if err := ctx.Err(); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		h, _ := model.NewHypercube(n)
		s, _ := sbt.Build(h, 0, n/2)
		d := sbt.Count(s, n)
		out.Instances++
		tot := big.NewInt(1<<n - 1)
		frac := func(c int64) *big.Rat { return new(big.Rat).SetFrac(big.NewInt(c), tot) }
		fail := func(eq string, tree, model *big.Rat) Outcome {
			return Outcome{Verdict: Violated, Instances: out.Instances,
				Witness: map[string]any{"n": n, "equation": eq, "tree": tree.RatString(), "model": model.RatString()},
				Note:    fmt.Sprintf("n=%d %s: tree %s, model %s", n, eq, tree.RatString(), model.RatString())}
		}
		mean := new(big.Rat)
		for i := 1; i <= n; i++ {
			if f := frac(d.Depth[i]); f.Cmp(sbt.Eq5(n, i)) != 0 {
				return fail(fmt.Sprintf("eq. (5) i=%d", i), f, sbt.Eq5(n, i))
			}
			mean.Add(mean, new(big.Rat).Mul(big.NewRat(int64(i), 1), frac(d.Depth[i])))
		}
		if mean.Cmp(sbt.Eq6(n)) != 0 {
			return fail("eq. (6)", mean, sbt.Eq6(n))
		}
		w, repl := new(big.Rat), int64(0)
		for i := 0; i < n; i++ {
			if f := frac(d.Replications[i]); f.Cmp(sbt.Eq9(n, i)) != 0 {
				return fail(fmt.Sprintf("eq. (9) i=%d", i), f, sbt.Eq9(n, i))
			}
			w.Add(w, new(big.Rat).Mul(big.NewRat(int64(i), 1), frac(d.Replications[i])))
			if i > 0 {
				repl += d.Replications[i]
			}
		}
		if w.Cmp(sbt.Eq10(n)) != 0 {
			return fail("eq. (10)", w, sbt.Eq10(n))
		}
		if f := frac(repl); f.Cmp(sbt.Eq3Fraction(n)) != 0 {
			return fail("before eq. (3)", f, sbt.Eq3Fraction(n))
		}
		wf, _ := w.Float64()
		out.Figures[fmt.Sprintf("mean_replications_n%d", n)] = wf
	}
	out.Verdict = Holds
	out.Note = "n = 2..12: depth (hop) distribution = eq. (5), its mean = eq. (6), replication distribution = eq. (9), its mean = eq. (10), replicating fraction = the rate before eq. (3), all as exact rationals counted on the SBT"
	return out
}
