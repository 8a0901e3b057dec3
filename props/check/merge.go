package check

import (
	"fmt"
	"io"

	"github.com/wormcheck/wormcheck/algos/treemcast"
)

// MergeFamily joins the family results that `check --family ... --shard i/n --result F`
// wrote for disjoint shards of one run (treemcast.Merge): members, pairs, states and
// seconds summed, the shortest violation kept, the shards present and missing listed.
// Its verdict is violated if any shard found a violation, holds if every shard is present
// and held, inconclusive otherwise. Results of different runs, and overlapping shards,
// are refused. The files are read with read, in order; every error is bad input, naming
// the file where one is at fault.
func MergeFamily(files []string, read func(string) ([]byte, error)) (*treemcast.FamilyResult, error) {
	rs := make([]*treemcast.FamilyResult, 0, len(files))
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, badf("%v", err)
		}
		r, err := treemcast.ParseFamilyResult(data)
		if err != nil {
			return nil, badf("%s: %v", f, err)
		}
		rs = append(rs, r)
	}
	m, err := treemcast.Merge(rs)
	if err != nil {
		return nil, badf("%v", err)
	}
	return m, nil
}

// WriteFamily writes a (merged) family result for people: family, topology, property,
// pruning and buffers with the verdict; the shards present and missing; the members
// checked, pairs covered, states, violations, inconclusive members and seconds; and the
// shortest witness.
func WriteFamily(w io.Writer, m *treemcast.FamilyResult) {
	fmt.Fprintf(w, "%s on %s (%s, %s pruning, B=%d): %s\n", m.Family, m.Topology, m.Params.Prop, m.Params.Pruning, m.Params.Buffers, m.Verdict)
	fmt.Fprintf(w, "  shards %v of %d present, missing %v\n", m.Shards, m.Shard.Count, m.Missing)
	fmt.Fprintf(w, "  %d of %d members checked (%d pairs), %d states, %d violated, %d inconclusive, %.1fs\n",
		m.Instances, m.Members, m.Covered, m.States, m.Violated, len(m.Inconclusive), m.Seconds)
	if m.Witness != nil {
		fmt.Fprintf(w, "  shortest witness: member %d %s (%d steps): %s\n", m.Witness.Index, m.Witness.Msgs, m.Witness.Length, m.Witness.Trace.Violation)
	}
}
