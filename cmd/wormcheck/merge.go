package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
)

// mergeHelp documents `wormcheck merge`.
const mergeHelp = `wormcheck merge F1.json F2.json ... [-o OUT.json]

Joins the family results that 'check --family ... --shard i/n --result F.json' wrote for
disjoint shards of one family run, of tree-mcast (pairs:K), unicast
(all-placements:K) or partition (sizes:LO-HI), or that the library's banyan pair
sweeps (banyan.PairFamily) kept: it sums members checked, pairs covered (tree-mcast),
states, transitions and seconds, keeps the shortest violation witness (a flit-level
trace replays with 'wormcheck replay'; a partition or banyan-pairs witness names its
member), and lists the shards present and missing. Results are in format
wormcheck-family/2, which names the algorithm; tree-mcast results of the earlier
wormcheck-family/1 are read too, and written back as /2. --json prints one object of
schema wormcheck-merge/1: the merged verdict, the shards present, the shards to
resubmit and the merged result (docs/report.md).

It refuses, with a one-line message, results of different algorithms, families,
topologies, parameters (tree-mcast: pruning, length, buffers, ports, property,
symmetry, routing; unicast: lengths and buffers, vcs, dateline, ports, routing,
property; partition: types, property; banyan-pairs: arbitration, timing),
family sizes or shard counts, and results that overlap (a shard present twice).

The merged verdict is violated if any shard found a violation, holds if every shard is
present and held, inconclusive otherwise (missing shards, a member that hit a bound).
--max-memory MiB and --time-limit D stop a merge (of very large results) when the
process outgrows MiB (default 3/4 of the memory available) or after D, as Ctrl-C and
SIGTERM do: nothing is written and the exit code is 3.
Exit codes: 0 holds, 1 violated, 3 inconclusive or stopped, 2 bad input.

Example:
  wormcheck check --algo tree-mcast --prop deadlock --topo mesh:3x3 --family pairs:3 --symmetry --shard 0/2 --result s0.json
  wormcheck check --algo tree-mcast --prop deadlock --topo mesh:3x3 --family pairs:3 --symmetry --shard 1/2 --result s1.json
  wormcheck merge s0.json s1.json -o family.json
  wormcheck check --algo unicast --topo mesh:3x3 --family all-placements:2 --shard 0/2 --result u0.json
  wormcheck check --algo unicast --topo mesh:3x3 --family all-placements:2 --shard 1/2 --result u1.json
  wormcheck merge u0.json u1.json
  wormcheck check --algo partition --prop connected --topo mesh --family sizes:2-8 --shard 0/2 --result p0.json
  wormcheck check --algo partition --prop connected --topo mesh --family sizes:2-8 --shard 1/2 --result p1.json
  wormcheck merge p0.json p1.json
`

// runMerge is `wormcheck merge`: it reads family result files, merges them
// (mergeFiles), prints a summary (or, with --json, the merged result in a
// wormcheck-merge/1 object that names the shards to resubmit) and writes the merged
// result to -o.
func runMerge(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("merge")
	out := fs.String("o", "", "write the merged family result (JSON) to this file")
	asJSON := fs.Bool("json", false, "print the merged result and the shards to resubmit as one JSON object (wormcheck-merge/1)")
	bud := defineBudget(fs)
	var files []string
	var flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "--o" || a == "-max-memory" || a == "--max-memory" || a == "-time-limit" || a == "--time-limit":
			flags = append(flags, a)
			if i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		case len(a) > 0 && a[0] == '-':
			flags = append(flags, a)
		default:
			files = append(files, a)
		}
	}
	if code, done, err := parseOrHelp(e, fs, flags, mergeHelp, false); done {
		return code, err
	}
	if len(files) == 0 {
		return 0, usagef("which results? usage: wormcheck merge F1.json F2.json ... [-o OUT.json]")
	}
	algo, err := resultsAlgorithm(files)
	if err != nil {
		return 0, usagef("%v", err)
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	m, err := budgeted(ctx, func() (merged, error) { return mergeFiles(files, algo) })
	if errors.Is(err, errStopped) || (err == nil && ctx.Err() != nil) {
		return stoppedWithout(ctx, e, "merge", "the merged result")
	}
	if err != nil {
		return 0, err
	}
	b := append(m.json, '\n')
	if *out != "" {
		if err := writeOutput(*out, b, 0o644); err != nil {
			return 0, fmt.Errorf("writing -o: %v", err)
		}
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, m.report); err != nil {
			return 0, err
		}
	} else {
		m.summary(e.Stdout)
	}
	return m.verdict.ExitCode(), nil
}

// merged is a merged family result, whatever its algorithm: its JSON, verdict, summary
// for people and what merge --json prints.
type merged struct {
	json    []byte
	verdict checker.Verdict
	summary func(io.Writer)
	report  mergeReport
}

// mergeSchema tags merge's JSON object (docs/report.md, docs/schema/merge.schema.json).
const mergeSchema = "wormcheck-merge/1"

// mergeReport is what merge --json prints: the schema tag every --json output has, the
// merged verdict, the shards present and the ones to resubmit (every missing shard), and
// the merged family result itself, the file -o writes (format wormcheck-family/2).
type mergeReport struct {
	Schema     string          `json:"schema"`
	Version    string          `json:"version"`
	Command    string          `json:"command"`
	Verdict    checker.Verdict `json:"verdict"`
	ShardCount int             `json:"shard_count"`
	Shards     []int           `json:"shards"`
	Resubmit   []int           `json:"resubmit"`
	Result     json.RawMessage `json:"result"`
}

// mergeFiles merges the family results of algorithm algo in files; every algorithm
// with family results is one case, naming its parameters' type and how its summary
// describes them.
func mergeFiles(files []string, algo string) (merged, error) {
	switch algo {
	case treemcast.Algorithm:
		return mergeFamily(files, algo, func(m *treemcast.FamilyResult) (string, string) {
			p := m.Params
			desc := fmt.Sprintf("%s, %s pruning, B=%d", p.Prop, p.Pruning, p.Buffers)
			if p.Routing != "" {
				desc += ", routing " + p.Routing
			} else if len(p.RoutingFile) > 0 {
				desc += ", a routing file"
			}
			return desc, fmt.Sprintf(" (%d pairs)", m.Covered)
		})
	case unicast.Algorithm:
		return mergeFamily(files, algo, func(m *unicast.FamilyRecord) (string, string) {
			p := m.Params
			desc := p.Property
			for _, lb := range p.Sizes {
				desc += fmt.Sprintf(", L=%d B=%d", lb[0], lb[1])
			}
			if p.Routing != "" {
				desc += ", routing " + p.Routing
			}
			return desc, ""
		})
	case banyan.PairAlgorithm:
		return mergeFamily(files, algo, func(m *banyan.PairRecord) (string, string) {
			return fmt.Sprintf("deadlock, %s arbitration, %s", m.Params.Arbitration, m.Params.Timing), ""
		})
	case partition.FamilyAlgorithm:
		return mergeFamily(files, algo, func(m *partition.FamilyRecord) (string, string) {
			return fmt.Sprintf("%s, Types %s", m.Params.Property, strings.Join(m.Params.Types, ", ")), ""
		})
	}
	return merged{}, usagef("%s: family results of algorithm %s cannot be merged (tree-mcast, unicast, banyan-pairs and partition can)", files[0], algo)
}

// mergeFamily merges the family results in files, of algorithm algo with parameters P
// (family.MergeFiles); describe says how the summary names the parameters and what the
// members cover beside their count.
func mergeFamily[P any](files []string, algo string, describe func(*family.Result[P]) (desc, covered string)) (merged, error) {
	m, err := family.MergeFiles[P](files, os.ReadFile, algo)
	if err != nil {
		return merged{}, usagef("%v", err)
	}
	b, err := m.Marshal()
	if err != nil {
		return merged{}, err
	}
	desc, covered := describe(m)
	report := mergeReport{Schema: mergeSchema, Version: toolVersion(), Command: "merge", Verdict: m.Verdict,
		ShardCount: m.Shard.Count, Shards: append([]int{}, m.Shards...), Resubmit: append([]int{}, m.Missing...), Result: b}
	return merged{json: b, verdict: m.Verdict, summary: func(w io.Writer) { writeFamily(w, m, desc, covered) }, report: report}, nil
}

// resultsAlgorithm reads the algorithm of every family result file and returns the one
// they share; results of different algorithms are refused, naming both.
func resultsAlgorithm(files []string) (string, error) {
	var first string
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		algo, err := family.ResultAlgorithm(data)
		if err != nil {
			return "", fmt.Errorf("%s: %v", f, err)
		}
		if i == 0 {
			first = algo
		} else if algo != first {
			return "", fmt.Errorf("result %d (%s) is a %s family; result 1 (%s) is %s", i+1, f, algo, files[0], first)
		}
	}
	return first, nil
}

// writeFamily writes a (merged) family result for people: family, topology, the
// parameters desc describes with the verdict; the shards present and missing; the
// members checked (and covered, what the algorithm's family counts beside them), states,
// violations, inconclusive members and seconds; and the shortest witness.
func writeFamily[P any](w io.Writer, m *family.Result[P], desc, covered string) {
	fmt.Fprintf(w, "%s on %s (%s): %s\n", m.Family, m.Topology, desc, m.Verdict)
	fmt.Fprintf(w, "  shards %v of %d present, missing %v\n", m.Shards, m.Shard.Count, m.Missing)
	if len(m.Missing) > 0 {
		ids := make([]string, len(m.Missing))
		for i, s := range m.Missing {
			ids[i] = strconv.Itoa(s)
		}
		if len(ids) <= 16 {
			fmt.Fprintf(w, "  resubmit shards %s: wormcheck slurm --dir D --only %s (or check ... --shard I/%d --resume F for each)\n", strings.Join(ids, ","), strings.Join(ids, ","), m.Shard.Count)
		} else {
			fmt.Fprintf(w, "  resubmit the %d missing shards listed above: wormcheck slurm --dir D --only I,J,... (or check ... --shard I/%d --resume F for each)\n", len(ids), m.Shard.Count)
		}
	}
	switch {
	case m.Partial && m.Violated > 0:
		// A shard that stops at its first violation (unicast families, tree-mcast --stop)
		// is not continued by --resume: it has its verdict.
		fmt.Fprintln(w, "  a shard stopped at a violation or before its last member: the members after it are unchecked")
	case m.Partial:
		fmt.Fprintln(w, "  a shard stopped before its last member: rerun it with --resume on its result file")
	}
	fmt.Fprintf(w, "  %d of %d members checked%s, %d states, %d violated, %d inconclusive, %.1fs\n",
		m.Instances, m.Members, covered, m.States, m.Violated, len(m.Inconclusive), m.Seconds)
	if wt := m.Witness; wt != nil && len(wt.Trace.Actions) > 0 {
		fmt.Fprintf(w, "  shortest witness: member %d %s (%d steps): %s\n", wt.Index, wt.Msgs, wt.Length, wt.Trace.Violation)
	} else if wt != nil {
		// A static judgement, or a simulation that records no path: the member is the
		// witness.
		fmt.Fprintf(w, "  first witness: member %d %s: %s\n", wt.Index, wt.Msgs, wt.Trace.Violation)
	}
}

func init() {
	registerCommand(&command{Name: "merge", Summary: "join the JSON results of family shards (check --shard i/n --result F)", Help: mergeHelp, Run: runMerge})
}
