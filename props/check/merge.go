package check

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/props"
)

// MergeSchema tags merge's JSON object (docs/report.md, docs/schema/merge.schema.json).
const MergeSchema = "wormcheck-merge/1"

// Merged is the merge of the family results of disjoint shards of one run: the merged
// result (Result, format wormcheck-family/2: what `merge -o` writes and a later merge
// or resume reads), its verdict, the object `merge --json` prints and the summary for
// people.
type Merged struct {
	Result  []byte
	Verdict props.Verdict
	Report  MergeReport
	Text    string
}

// MergeReport is what merge --json prints: the schema tag every --json output has, the
// merged verdict, the shards present and the ones to resubmit (every missing shard), and
// the merged family result itself.
type MergeReport struct {
	Schema     string          `json:"schema"`
	Version    string          `json:"version"`
	Command    string          `json:"command"`
	Verdict    props.Verdict   `json:"verdict"`
	ShardCount int             `json:"shard_count"`
	Shards     []int           `json:"shards"`
	Resubmit   []int           `json:"resubmit"`
	Result     json.RawMessage `json:"result"`
}

// Merge joins the family results in files, read with read, that `check --family ...
// --shard i/n --result F` wrote for disjoint shards of one run (family.Merge): the
// registry entry whose families the results are of merges them (Algorithm.merge).
// Results of different algorithms, families, parameters or shard counts, and shards
// present twice, are refused as bad input naming the files.
func Merge(files []string, read func(string) ([]byte, error)) (*Merged, error) {
	if len(files) == 0 {
		return nil, badf("which results? usage: wormcheck merge F1.json F2.json ... [-o OUT.json]")
	}
	algo, err := resultsAlgorithm(files, read)
	if err != nil {
		return nil, err
	}
	for _, a := range registry() {
		if a.merge != nil && a.resultsName() == algo {
			return a.merge(files, read)
		}
	}
	var can []string
	for _, a := range registry() {
		if a.merge != nil {
			can = append(can, a.resultsName())
		}
	}
	return nil, badf("%s: family results of algorithm %s cannot be merged (%s can)", files[0], algo, strings.Join(can, ", "))
}

// resultsName is the algorithm name a's family results carry.
func (a Algorithm) resultsName() string {
	if a.results != "" {
		return a.results
	}
	return a.Name
}

// resultsAlgorithm reads the algorithm of every family result file and returns the one
// they share; results of different algorithms are refused, naming both.
func resultsAlgorithm(files []string, read func(string) ([]byte, error)) (string, error) {
	var first string
	for i, f := range files {
		data, err := read(f)
		if err != nil {
			return "", badf("%v", err)
		}
		algo, err := family.ResultAlgorithm(data)
		if err != nil {
			return "", badf("%s: %v", f, err)
		}
		if i == 0 {
			first = algo
		} else if algo != first {
			return "", badf("result %d (%s) is a %s family; result 1 (%s) is %s", i+1, f, algo, files[0], first)
		}
	}
	return first, nil
}

// merger returns the merge of an algorithm whose family results have parameters P:
// describe says how the summary names the parameters and what the members cover beside
// their count.
func merger[P any](algo string, describe func(*family.Result[P]) (desc, covered string)) func([]string, func(string) ([]byte, error)) (*Merged, error) {
	return func(files []string, read func(string) ([]byte, error)) (*Merged, error) {
		m, err := family.MergeFiles[P](files, read, algo)
		if err != nil {
			return nil, badf("%v", err)
		}
		b, err := m.Marshal()
		if err != nil {
			return nil, internalf("%v", err)
		}
		desc, covered := describe(m)
		return &Merged{Result: b, Verdict: m.Verdict, Text: familyText(m, desc, covered),
			Report: MergeReport{Schema: MergeSchema, Command: "merge", Verdict: m.Verdict, ShardCount: m.Shard.Count,
				Shards: append([]int{}, m.Shards...), Resubmit: append([]int{}, m.Missing...), Result: b}}, nil
	}
}

// The merges of the registry's families, each naming its parameters as the summary
// shows them.
var (
	mergeTreeMcast = merger(treemcast.Algorithm, func(m *treemcast.FamilyResult) (string, string) {
		p := m.Params
		desc := fmt.Sprintf("%s, %s pruning, B=%d", p.Prop, p.Pruning, p.Buffers)
		if p.Routing != "" {
			desc += ", routing " + p.Routing
		} else if len(p.RoutingFile) > 0 {
			desc += ", a routing file"
		}
		return desc, fmt.Sprintf(" (%d pairs)", m.Covered)
	})
	mergeUnicast = merger(unicast.Algorithm, func(m *unicast.FamilyRecord) (string, string) {
		p := m.Params
		desc := string(p.Property)
		for _, lb := range p.Sizes {
			desc += fmt.Sprintf(", L=%d B=%d", lb[0], lb[1])
		}
		if p.Routing != "" {
			desc += ", routing " + p.Routing
		}
		return desc, ""
	})
	mergeBanyanPairs = merger(banyan.PairAlgorithm, func(m *banyan.PairRecord) (string, string) {
		return fmt.Sprintf("deadlock, %s arbitration, %s", m.Params.Arbitration, m.Params.Timing), ""
	})
	mergePartition = merger(partition.FamilyAlgorithm, func(m *partition.FamilyRecord) (string, string) {
		return fmt.Sprintf("%s, Types %s", m.Params.Property, strings.Join(m.Params.Types, ", ")), ""
	})
)

// familyText is a (merged) family result for people: family, topology, the parameters
// desc describes with the verdict; the shards present and missing; the members checked
// (and covered, what the algorithm's family counts beside them), states, violations,
// inconclusive members and seconds; and the shortest witness.
func familyText[P any](m *family.Result[P], desc, covered string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "%s on %s (%s): %s\n", m.Family, m.Topology, desc, m.Verdict)
	fmt.Fprintf(&w, "  shards %v of %d present, missing %v\n", m.Shards, m.Shard.Count, m.Missing)
	if len(m.Missing) > 0 {
		ids := make([]string, len(m.Missing))
		for i, s := range m.Missing {
			ids[i] = strconv.Itoa(s)
		}
		if len(ids) <= 16 {
			fmt.Fprintf(&w, "  resubmit shards %s: wormcheck slurm --dir D --only %s (or check ... --shard I/%d --resume F for each)\n", strings.Join(ids, ","), strings.Join(ids, ","), m.Shard.Count)
		} else {
			fmt.Fprintf(&w, "  resubmit the %d missing shards listed above: wormcheck slurm --dir D --only I,J,... (or check ... --shard I/%d --resume F for each)\n", len(ids), m.Shard.Count)
		}
	}
	switch {
	case m.Partial && m.Violated > 0:
		// A shard that stops at its first violation (unicast families, tree-mcast --stop)
		// is not continued by --resume: it has its verdict.
		fmt.Fprintln(&w, "  a shard stopped at a violation or before its last member: the members after it are unchecked")
	case m.Partial:
		fmt.Fprintln(&w, "  a shard stopped before its last member: rerun it with --resume on its result file")
	}
	fmt.Fprintf(&w, "  %d of %d members checked%s, %d states, %d violated, %d inconclusive, %.1fs\n",
		m.Instances, m.Members, covered, m.States, m.Violated, len(m.Inconclusive), m.Seconds)
	if wt := m.Witness; wt != nil && len(wt.Trace.Actions) > 0 {
		fmt.Fprintf(&w, "  shortest witness: member %d %s (%d steps): %s\n", wt.Index, wt.Msgs, wt.Length, wt.Trace.Violation)
	} else if wt != nil {
		// A static judgement, or a simulation that records no path: the member is the
		// witness.
		fmt.Fprintf(&w, "  first witness: member %d %s: %s\n", wt.Index, wt.Msgs, wt.Trace.Violation)
	}
	return w.String()
}

// MergeUsage is the help of `wormcheck merge`, which Merge does.
const MergeUsage = `wormcheck merge F1.json F2.json ... [-o OUT.json]

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
