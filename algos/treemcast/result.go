package treemcast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
)

// FamilyFormat is the format tag of family result files.
const FamilyFormat = "wormcheck-family/1"

// FamilyParams are the parameters every shard of one family run must share.
type FamilyParams struct {
	Pruning  string `json:"pruning"`
	Length   int    `json:"length"`
	Buffers  int    `json:"buffers"`
	Ports    string `json:"ports"`
	Prop     string `json:"property"`
	Symmetry bool   `json:"symmetry"`
	// Store is "fingerprint" for a run in fingerprint mode, empty for the exact store.
	Store string `json:"store,omitempty"`
}

// FamilyWitness is a violating member with its shortest trace.
type FamilyWitness struct {
	Index  int             `json:"index"`
	Msgs   string          `json:"msgs"`
	Length int             `json:"length"`
	Trace  *tracefile.File `json:"trace"`
}

// less orders witnesses: shorter trace first, then lower member index.
func (w *FamilyWitness) less(v *FamilyWitness) bool {
	return w.Length < v.Length || w.Length == v.Length && w.Index < v.Index
}

// FamilyResult is the result of checking one or more shards of a family; `wormcheck
// merge` joins the results of disjoint shards.
//
// Verdict is violated if any member violated the property; holds if every member of
// every shard was checked and held; inconclusive otherwise (a member hit a bound, a shard
// stopped early, or, after a merge, shards are missing).
type FamilyResult struct {
	Format   string       `json:"format"`
	Family   string       `json:"family"`
	Topology string       `json:"topology"`
	Params   FamilyParams `json:"parameters"`
	// Members is the size of the whole family (all shards).
	Members int `json:"members"`
	// Shard is the shard this result covers; after a merge, Shards lists them all.
	Shard        Shard           `json:"shard"`
	Shards       []int           `json:"shards,omitempty"`
	Instances    int             `json:"instances"` // members checked
	Covered      int64           `json:"covered"`   // pairs of the unreduced family they stand for
	States       int64           `json:"states"`
	Transitions  int64           `json:"transitions"`
	Seconds      float64         `json:"seconds"`
	Violated     int             `json:"violated"`     // members that violated the property
	Inconclusive []int           `json:"inconclusive"` // members that hit a bound
	Partial      bool            `json:"partial"`      // the shard stopped before its last member
	Verdict      checker.Verdict `json:"verdict"`
	Missing      []int           `json:"missing_shards,omitempty"`
	Witness      *FamilyWitness  `json:"witness"`
	// CollisionBound is, in fingerprint mode, the sum over members of their fingerprint
	// collision bounds: a union bound on the probability that any member missed states.
	CollisionBound float64 `json:"fingerprint_collision_bound,omitempty"`
	// Certificates counts how the members' verdicts establish delivery (absent in
	// results written before certificates existed).
	Certificates checker.Tally `json:"certificates,omitzero"`
	// Checked lists every member checked, by index: what a resumed run skips, and what
	// lets two runs be compared member by member. Results written before it existed
	// lack it; they merge but cannot be resumed.
	Checked []MemberOutcome `json:"checked,omitempty"`
}

// MemberOutcome is the verdict and search size of one checked member.
type MemberOutcome struct {
	Index       int             `json:"i"`
	Verdict     checker.Verdict `json:"v"`
	States      int64           `json:"s"`
	Transitions int64           `json:"t"`
}

// resumable says why p cannot be continued by the run whose empty result is r: another
// family, topology, parameters, family size or shard, or no per-member record.
func (r *FamilyResult) resumable(p *FamilyResult) error {
	switch {
	case p.Family != r.Family || p.Topology != r.Topology:
		return fmt.Errorf("resume: the result is family %s on %s; this run is %s on %s", p.Family, p.Topology, r.Family, r.Topology)
	case p.Params != r.Params:
		return fmt.Errorf("resume: the result has parameters %+v; this run has %+v", p.Params, r.Params)
	case p.Members != r.Members:
		return fmt.Errorf("resume: the result counts %d members; this run counts %d (a different enumeration)", p.Members, r.Members)
	case p.Shard != r.Shard || len(p.Shards) > 0:
		return fmt.Errorf("resume: the result is shard %s; this run is shard %s (resume each shard from its own result, before merging)", p.Shard, r.Shard)
	case len(p.Checked) != p.Instances:
		return fmt.Errorf("resume: the result lists %d checked members but counts %d instances (written by an older wormcheck?)", len(p.Checked), p.Instances)
	}
	for _, c := range p.Checked {
		if !r.Shard.Has(c.Index) || c.Index < 0 || c.Index >= r.Members {
			return fmt.Errorf("resume: member %d is not in shard %s of %d members", c.Index, r.Shard, r.Members)
		}
	}
	return nil
}

func (r *FamilyResult) verdict() checker.Verdict {
	switch {
	case r.Violated > 0:
		return checker.Violated
	case len(r.Inconclusive) > 0 || r.Partial || len(r.Missing) > 0:
		return checker.Inconclusive
	}
	return checker.Holds
}

// Marshal renders r as indented JSON.
func (r *FamilyResult) Marshal() ([]byte, error) {
	if r.Inconclusive == nil {
		r.Inconclusive = []int{}
	}
	return json.MarshalIndent(r, "", "  ")
}

// ParseFamilyResult decodes a family result file and checks its format.
func ParseFamilyResult(data []byte) (*FamilyResult, error) {
	if err := tracefile.WrongFile(data, FamilyFormat); err != nil {
		return nil, err
	}
	var r FamilyResult
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("family result is not valid JSON: %s", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	switch {
	case r.Format != FamilyFormat:
		return nil, fmt.Errorf("family result field \"format\" is %q; want %q", r.Format, FamilyFormat)
	case r.Shard.Count < 1 || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Count:
		return nil, fmt.Errorf("family result field \"shard\" is %d/%d; want i/n with 0 <= i < n", r.Shard.Index, r.Shard.Count)
	case r.Members < 0 || r.Instances < 0 || r.Instances > r.Members:
		return nil, fmt.Errorf("family result covers %d of %d members", r.Instances, r.Members)
	}
	for i, c := range r.Checked {
		if c.Index < 0 || c.Index >= r.Members || i > 0 && c.Index <= r.Checked[i-1].Index {
			return nil, fmt.Errorf("family result field \"checked\": entry %d is member %d; want increasing indices below %d", i, c.Index, r.Members)
		}
	}
	return &r, nil
}

// checkMembers checks that every member result i (0-based) lists belongs to one of its
// shards (member m is in shard m mod Count), lies in the family, and was listed by no
// earlier result (owner records who listed each); that its witness and inconclusive
// members are among them; and that it lists as many members as it counts. A result
// edited by hand, or written by a different enumeration, would otherwise be counted as
// covering members it never checked.
func (r *FamilyResult) checkMembers(i int, shards []int, owner map[int]int) error {
	in := make(map[int]bool, len(shards))
	for _, s := range shards {
		in[s] = true
	}
	count := max(1, r.Shard.Count)
	for _, c := range r.Checked {
		switch {
		case c.Index < 0 || c.Index >= r.Members:
			return fmt.Errorf("merge: result %d lists member %d of a %d-member family", i+1, c.Index, r.Members)
		case !in[c.Index%count]:
			return fmt.Errorf("merge: result %d lists member %d, which belongs to shard %d/%d, not to its shards %v", i+1, c.Index, c.Index%count, count, shards)
		}
		if j, dup := owner[c.Index]; dup {
			return fmt.Errorf("merge: member %d is listed by result %d and result %d", c.Index, j+1, i+1)
		}
		owner[c.Index] = i
	}
	if len(r.Checked) == 0 {
		return nil // a result written before members were listed
	}
	if len(r.Checked) != r.Instances {
		return fmt.Errorf("merge: result %d counts %d members checked but lists %d", i+1, r.Instances, len(r.Checked))
	}
	listed := func(m int) bool { j, ok := owner[m]; return ok && j == i }
	for _, m := range r.Inconclusive {
		if !listed(m) {
			return fmt.Errorf("merge: result %d has member %d inconclusive but does not list it as checked", i+1, m)
		}
	}
	if r.Witness != nil && !listed(r.Witness.Index) {
		return fmt.Errorf("merge: result %d's witness is member %d, which it does not list as checked", i+1, r.Witness.Index)
	}
	return nil
}

// Merge joins the results of disjoint shards of one family run. It refuses results of
// different families, topologies, parameters, family sizes or shard counts, and shards
// that overlap (the same shard twice, or a result that is itself a merge sharing a shard
// with another). Missing shards make the merged verdict inconclusive (unless a shard
// found a violation) and are listed.
func Merge(rs []*FamilyResult) (*FamilyResult, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("merge: no family results")
	}
	first := rs[0]
	out := &FamilyResult{
		Format: FamilyFormat, Family: first.Family, Topology: first.Topology, Params: first.Params,
		Members: first.Members, Shard: Shard{Index: 0, Count: first.Shard.Count}, Inconclusive: []int{},
	}
	seen := map[int]int{}
	owner := map[int]int{} // member index -> the result that checked it
	for i, r := range rs {
		switch {
		case r.Family != first.Family || r.Topology != first.Topology:
			return nil, fmt.Errorf("merge: result %d is family %s on %s; result 1 is %s on %s", i+1, r.Family, r.Topology, first.Family, first.Topology)
		case r.Params != first.Params:
			return nil, fmt.Errorf("merge: result %d has parameters %+v; result 1 has %+v", i+1, r.Params, first.Params)
		case r.Members != first.Members:
			return nil, fmt.Errorf("merge: result %d counts %d members; result 1 counts %d (different enumerations)", i+1, r.Members, first.Members)
		case r.Shard.Count != first.Shard.Count:
			return nil, fmt.Errorf("merge: result %d is split in %d shards; result 1 in %d", i+1, r.Shard.Count, first.Shard.Count)
		}
		shards := r.Shards
		if len(shards) == 0 {
			shards = []int{r.Shard.Index}
		}
		for _, s := range shards {
			if j, dup := seen[s]; dup {
				return nil, fmt.Errorf("merge: shard %d/%d is in result %d and result %d (overlapping shards)", s, r.Shard.Count, j+1, i+1)
			}
			seen[s] = i
			out.Shards = append(out.Shards, s)
		}
		if err := r.checkMembers(i, shards, owner); err != nil {
			return nil, err
		}
		out.Instances += r.Instances
		out.Covered += r.Covered
		out.States += r.States
		out.Transitions += r.Transitions
		out.Seconds += r.Seconds
		out.Violated += r.Violated
		out.Inconclusive = append(out.Inconclusive, r.Inconclusive...)
		out.Partial = out.Partial || r.Partial
		out.Checked = append(out.Checked, r.Checked...)
		out.CollisionBound += r.CollisionBound
		out.Certificates.Merge(r.Certificates)
		if r.Witness != nil && (out.Witness == nil || r.Witness.less(out.Witness)) {
			out.Witness = r.Witness
		}
	}
	sort.Ints(out.Shards)
	sort.Ints(out.Inconclusive)
	sort.Slice(out.Checked, func(a, b int) bool { return out.Checked[a].Index < out.Checked[b].Index })
	for s := 0; s < first.Shard.Count; s++ {
		if _, ok := seen[s]; !ok {
			out.Missing = append(out.Missing, s)
		}
	}
	if out.Instances > out.Members {
		return nil, fmt.Errorf("merge: the results cover %d instances of a %d-member family", out.Instances, out.Members)
	}
	out.Verdict = out.verdict()
	return out, nil
}

// MergeFiles reads the family results that `check --family ... --shard i/n --result F`
// wrote for disjoint shards of one run, with read, in order, and merges them (Merge);
// an error names the file at fault.
func MergeFiles(files []string, read func(string) ([]byte, error)) (*FamilyResult, error) {
	rs := make([]*FamilyResult, 0, len(files))
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		r, err := ParseFamilyResult(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		rs = append(rs, r)
	}
	return Merge(rs)
}
