package family

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
)

// The format tags of family result files. ResultFormat is what Result.Marshal writes;
// ResultFormatV1 files, written before the format named its algorithm, were written
// only by tree multicast and are read as such (ResultAlgorithm).
const (
	ResultFormat   = "wormcheck-family/2"
	ResultFormatV1 = "wormcheck-family/1"
)

// v1Algorithm is the algorithm of every ResultFormatV1 file.
const v1Algorithm = "tree-mcast"

// Witness is a violating member with its shortest trace.
type Witness struct {
	Index int `json:"index"`
	// Msgs is the member's messages as its algorithm's --msgs reads them.
	Msgs   string          `json:"msgs"`
	Length int             `json:"length"`
	Trace  *tracefile.File `json:"trace"`
}

// less orders witnesses: shorter trace first, then lower member index.
func (w *Witness) less(v *Witness) bool {
	return w.Length < v.Length || w.Length == v.Length && w.Index < v.Index
}

// MemberOutcome is the verdict and search size of one checked member.
type MemberOutcome struct {
	Index       int             `json:"i"`
	Verdict     checker.Verdict `json:"v"`
	States      int64           `json:"s"`
	Transitions int64           `json:"t"`
}

// Result is the result of checking one or more shards of a family, of any algorithm:
// what Keep writes as members finish, what a resumed run continues, and what Merge joins
// for disjoint shards. P is the algorithm's family parameters, which every shard of one
// run must share (compared as JSON, the form the files keep).
//
// Verdict is violated if any member violated the property; holds if every member of
// every shard was checked and held; inconclusive otherwise (a member hit a bound, a shard
// stopped early, or, after a merge, shards are missing).
type Result[P any] struct {
	Format    string `json:"format"`
	Algorithm string `json:"algorithm"`
	Family    string `json:"family"`
	Topology  string `json:"topology"`
	Params    P      `json:"parameters"`
	// Members is the size of the whole family (all shards).
	Members int `json:"members"`
	// Shard is the shard this result covers; after a merge, Shards lists them all.
	Shard     Shard `json:"shard"`
	Shards    []int `json:"shards,omitempty"`
	Instances int   `json:"instances"` // members checked
	// Covered is how many members of the unreduced family the checked ones stand for,
	// where the family keeps one member per symmetry orbit and counts orbits (tree
	// multicast); absent where it does not.
	Covered      int64           `json:"covered,omitempty"`
	States       int64           `json:"states"`
	Transitions  int64           `json:"transitions"`
	Seconds      float64         `json:"seconds"`
	Violated     int             `json:"violated"`     // members that violated the property
	Inconclusive []int           `json:"inconclusive"` // members that hit a bound
	Partial      bool            `json:"partial"`      // the shard stopped before its last member
	Verdict      checker.Verdict `json:"verdict"`
	Missing      []int           `json:"missing_shards,omitempty"`
	// Witness is the violating member with the shortest trace (then the lowest index).
	Witness *Witness `json:"witness"`
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

// Summary is a result's figures without its parameters (any algorithm's alike): the
// members checked and their sums, the verdict, the kept witness and, by index, every
// member checked (Checked, shared with the result).
type Summary struct {
	Family, Topology    string
	Members, Instances  int
	Covered             int64
	States, Transitions int64
	Seconds             float64
	Violated            int
	Inconclusive        []int
	Partial             bool
	Verdict             checker.Verdict
	Witness             *Witness
	CollisionBound      float64
	Certificates        checker.Tally
	Checked             []MemberOutcome
}

// Summary returns r's figures (Summary).
func (r *Result[P]) Summary() *Summary {
	return &Summary{Family: r.Family, Topology: r.Topology, Members: r.Members, Instances: r.Instances, Covered: r.Covered,
		States: r.States, Transitions: r.Transitions, Seconds: r.Seconds, Violated: r.Violated, Inconclusive: r.Inconclusive,
		Partial: r.Partial, Verdict: r.Verdict, Witness: r.Witness, CollisionBound: r.CollisionBound, Certificates: r.Certificates, Checked: r.Checked}
}

// NewResult is the empty result of shard sh (the zero Shard: all) of a family of
// members members, of algorithm algo, named family on topology with parameters params:
// what Keep fills.
func NewResult[P any](algo, family, topology string, params P, members int, sh Shard) *Result[P] {
	if sh.Count == 0 {
		sh = Shard{Index: 0, Count: 1}
	}
	return &Result[P]{Format: ResultFormat, Algorithm: algo, Family: family, Topology: topology, Params: params,
		Members: members, Shard: sh, Verdict: checker.Holds, Checked: []MemberOutcome{}, Inconclusive: []int{}}
}

// resumable says why p cannot be continued by the run whose empty result is r: another
// algorithm, family, topology, parameters, family size or shard, or no per-member record.
func (r *Result[P]) resumable(p *Result[P]) error {
	switch {
	case p.Algorithm != r.Algorithm:
		return fmt.Errorf("resume: the result is a %s family; this run is %s", p.Algorithm, r.Algorithm)
	case p.Family != r.Family || p.Topology != r.Topology:
		return fmt.Errorf("resume: the result is family %s on %s; this run is %s on %s", p.Family, p.Topology, r.Family, r.Topology)
	case !sameParams(p.Params, r.Params):
		return fmt.Errorf("resume: the result was checked with other parameters than this run: %s", paramsDiff(p.Params, r.Params, "this run"))
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

// sameParams says whether two results' parameters are the same: equal as JSON, which is
// what the files hold (a json.RawMessage field reads back re-indented, so the values
// themselves may differ in layout), or deeply equal when they do not encode.
func sameParams[P any](a, b P) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	if erra != nil || errb != nil {
		return reflect.DeepEqual(a, b)
	}
	return bytes.Equal(ja, jb)
}

// paramsText writes family parameters as the files keep them (compact JSON), for
// errors a person reads.
func paramsText[P any](p P) string {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Sprint(p)
	}
	return string(data)
}

// paramsDiff says in words how parameters a differ from b (which other names): "buffers
// 2 where result 1 has 1, length 3 where result 1 has none", by their JSON fields; the
// whole of both as JSON when they are not JSON objects.
func paramsDiff[P any](a, b P, other string) string {
	var ma, mb map[string]any
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	if erra != nil || errb != nil || json.Unmarshal(ja, &ma) != nil || json.Unmarshal(jb, &mb) != nil {
		return fmt.Sprintf("%s where %s has %s", paramsText(a), other, paramsText(b))
	}
	all := maps.Clone(ma)
	maps.Copy(all, mb)
	keys := slices.Sorted(maps.Keys(all))
	value := func(m map[string]any, k string) string {
		v, ok := m[k]
		if !ok {
			return "none"
		}
		data, _ := json.Marshal(v)
		return strings.Trim(string(data), `"`)
	}
	var diffs []string
	for _, k := range keys {
		if va, vb := value(ma, k), value(mb, k); va != vb {
			diffs = append(diffs, fmt.Sprintf("%s %s where %s has %s", k, va, other, vb))
		}
	}
	return strings.Join(diffs, ", ")
}

// consistentShards checks the shards a merged result lists: "shards" and
// "missing_shards" in increasing order, below the shard count, and together every shard
// once; a result of one shard lists neither.
func (r *Result[P]) consistentShards() error {
	increasing := func(field string, xs []int) error {
		for i, s := range xs {
			if s < 0 || s >= r.Shard.Count || i > 0 && s <= xs[i-1] {
				return fmt.Errorf("family result field %q: entry %d is shard %d; want increasing shards below the count %d", field, i, s, r.Shard.Count)
			}
		}
		return nil
	}
	if err := increasing("shards", r.Shards); err != nil {
		return err
	}
	if err := increasing("missing_shards", r.Missing); err != nil {
		return err
	}
	switch {
	case len(r.Shards) == 0 && len(r.Missing) > 0:
		return fmt.Errorf("family result field \"missing_shards\" lists %d shards but \"shards\" is empty (a result of one shard misses none)", len(r.Missing))
	case len(r.Shards) > 0 && len(r.Shards)+len(r.Missing) != r.Shard.Count:
		return fmt.Errorf("family result fields \"shards\" and \"missing_shards\" list %d and %d shards; the count is %d", len(r.Shards), len(r.Missing), r.Shard.Count)
	}
	for i, j := 0, 0; i < len(r.Shards) && j < len(r.Missing); {
		switch {
		case r.Shards[i] == r.Missing[j]:
			return fmt.Errorf("family result fields \"shards\" and \"missing_shards\" both list shard %d", r.Shards[i])
		case r.Shards[i] < r.Missing[j]:
			i++
		default:
			j++
		}
	}
	return nil
}

// consistent checks that the fields a result states twice agree: its verdict with its
// counts, its witness with its count of violated members, and its counts with the
// members it lists. A file whose fields disagree (edited by hand, truncated, written by
// another tool) is refused, naming the fields, rather than merged on one of them.
func (r *Result[P]) consistent() error {
	switch {
	case r.Violated < 0 || r.Violated > r.Instances:
		return fmt.Errorf("family result field \"violated\" is %d of %d members checked (\"instances\")", r.Violated, r.Instances)
	case len(r.Inconclusive) > r.Instances:
		return fmt.Errorf("family result field \"inconclusive\" lists %d members of %d checked (\"instances\")", len(r.Inconclusive), r.Instances)
	case r.Violated > 0 && r.Witness == nil:
		return fmt.Errorf("family result field \"violated\" is %d but \"witness\" is null", r.Violated)
	case r.Violated == 0 && r.Witness != nil:
		return fmt.Errorf("family result field \"witness\" is member %d but \"violated\" is 0", r.Witness.Index)
	case r.Witness != nil && r.Witness.Trace == nil:
		return fmt.Errorf("family result field \"witness\" (member %d) has no trace", r.Witness.Index)
	}
	if len(r.Checked) > 0 {
		var violated, inconclusive int
		var states, transitions int64
		for _, c := range r.Checked {
			switch c.Verdict {
			case checker.Violated:
				violated++
			case checker.Inconclusive:
				inconclusive++
			}
			states += c.States
			transitions += c.Transitions
		}
		switch {
		case violated != r.Violated:
			return fmt.Errorf("family result field \"violated\" is %d but \"checked\" lists %d violated members", r.Violated, violated)
		case inconclusive != len(r.Inconclusive):
			return fmt.Errorf("family result field \"inconclusive\" lists %d members but \"checked\" has %d inconclusive", len(r.Inconclusive), inconclusive)
		case states != r.States || transitions != r.Transitions:
			return fmt.Errorf("family result fields \"states\" and \"transitions\" are %d and %d but the members in \"checked\" sum to %d and %d", r.States, r.Transitions, states, transitions)
		}
	}
	if want := r.verdict(); r.Verdict != want {
		return fmt.Errorf("family result field \"verdict\" is %s but its counts say %s (violated %d, inconclusive %d, partial %t, missing shards %d)",
			r.Verdict, want, r.Violated, len(r.Inconclusive), r.Partial, len(r.Missing))
	}
	return nil
}

func (r *Result[P]) verdict() checker.Verdict {
	switch {
	case r.Violated > 0:
		return checker.Violated
	case len(r.Inconclusive) > 0 || r.Partial || len(r.Missing) > 0:
		return checker.Inconclusive
	}
	return checker.Holds
}

// Marshal renders r as indented JSON, in format ResultFormat.
func (r *Result[P]) Marshal() ([]byte, error) {
	if r.Inconclusive == nil {
		r.Inconclusive = []int{}
	}
	r.Format = ResultFormat
	return json.MarshalIndent(r, "", "  ")
}

// header is what every family result file begins with, whatever its parameters.
type header struct {
	Format    string `json:"format"`
	Algorithm string `json:"algorithm"`
}

// ResultAlgorithm reads the algorithm of a family result file (a ResultFormatV1 file's
// is tree multicast's, "tree-mcast"), so that a reader can choose its parameters' type;
// a file of another kind or format is an error naming it.
func ResultAlgorithm(data []byte) (string, error) {
	if err := tracefile.WrongFile(data, ResultFormat); err != nil {
		if tracefile.WrongFile(data, ResultFormatV1) != nil {
			return "", err
		}
	}
	var h header
	if err := json.Unmarshal(data, &h); err != nil {
		return "", fmt.Errorf("family result is not valid JSON: %s", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	switch h.Format {
	case ResultFormatV1:
		if h.Algorithm != "" {
			return "", fmt.Errorf("family result of format %q has field \"algorithm\"; that format has none", ResultFormatV1)
		}
		return v1Algorithm, nil
	case ResultFormat:
		if h.Algorithm == "" {
			return "", fmt.Errorf("family result field \"algorithm\" is missing")
		}
		return h.Algorithm, nil
	}
	return "", fmt.Errorf("family result field \"format\" is %q; want %q (or %q)", h.Format, ResultFormat, ResultFormatV1)
}

// ParseResult decodes a family result file of algorithm algo, checks its format and
// that its members are consistent. A ResultFormatV1 file is read as tree multicast's.
func ParseResult[P any](data []byte, algo string) (*Result[P], error) {
	got, err := ResultAlgorithm(data)
	if err != nil {
		return nil, err
	}
	if got != algo {
		return nil, fmt.Errorf("family result is of algorithm %s, not %s", got, algo)
	}
	var r Result[P]
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("family result is not valid JSON: %s", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	r.Algorithm = got
	switch {
	case r.Shard.Count < 1 || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Count || r.Shard.Count > MaxShards:
		return nil, fmt.Errorf("family result field \"shard\" is %d/%d; want i/n with 0 <= i < n <= %d", r.Shard.Index, r.Shard.Count, MaxShards)
	case r.Members < 0 || r.Instances < 0 || r.Instances > r.Members:
		return nil, fmt.Errorf("family result covers %d of %d members", r.Instances, r.Members)
	}
	for i, c := range r.Checked {
		if c.Index < 0 || c.Index >= r.Members || i > 0 && c.Index <= r.Checked[i-1].Index {
			return nil, fmt.Errorf("family result field \"checked\": entry %d is member %d; want increasing indices below %d", i, c.Index, r.Members)
		}
	}
	if err := r.consistentShards(); err != nil {
		return nil, err
	}
	if err := r.consistent(); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkMembers checks that every member result i (0-based) lists belongs to one of its
// shards (member m is in shard m mod Count), lies in the family, and was listed by no
// earlier result (owner records who listed each); that its witness and inconclusive
// members are among them; and that it lists as many members as it counts. A result
// edited by hand, or written by a different enumeration, would otherwise be counted as
// covering members it never checked.
func (r *Result[P]) checkMembers(i int, shards []int, owner map[int]int) error {
	in := make(map[int]bool, len(shards))
	for _, s := range shards {
		in[s] = true
	}
	count := max(1, r.Shard.Count)
	for _, c := range r.Checked {
		switch {
		case c.Index < 0 || c.Index >= r.Members:
			return fmt.Errorf("result %d lists member %d of a %d-member family", i+1, c.Index, r.Members)
		case !in[c.Index%count]:
			return fmt.Errorf("result %d lists member %d, which belongs to shard %d/%d, not to its shards %v", i+1, c.Index, c.Index%count, count, shards)
		}
		if j, dup := owner[c.Index]; dup {
			return fmt.Errorf("member %d is listed by result %d and result %d", c.Index, j+1, i+1)
		}
		owner[c.Index] = i
	}
	if len(r.Checked) == 0 {
		return nil // a result written before members were listed
	}
	if len(r.Checked) != r.Instances {
		return fmt.Errorf("result %d counts %d members checked but lists %d", i+1, r.Instances, len(r.Checked))
	}
	listed := func(m int) bool { j, ok := owner[m]; return ok && j == i }
	for _, m := range r.Inconclusive {
		if !listed(m) {
			return fmt.Errorf("result %d has member %d inconclusive but does not list it as checked", i+1, m)
		}
	}
	if r.Witness != nil && !listed(r.Witness.Index) {
		return fmt.Errorf("result %d's witness is member %d, which it does not list as checked", i+1, r.Witness.Index)
	}
	return nil
}

// Merge joins the results of disjoint shards of one family run. It refuses results of
// different algorithms, families, topologies, parameters, family sizes or shard counts,
// and shards that overlap (the same shard twice, or a result that is itself a merge
// sharing a shard with another). Missing shards make the merged verdict inconclusive
// (unless a shard found a violation) and are listed.
func Merge[P any](rs []*Result[P]) (*Result[P], error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("no family results")
	}
	first := rs[0]
	out := &Result[P]{
		Format: ResultFormat, Algorithm: first.Algorithm, Family: first.Family, Topology: first.Topology, Params: first.Params,
		Members: first.Members, Shard: Shard{Index: 0, Count: first.Shard.Count}, Inconclusive: []int{},
	}
	seen := map[int]int{}
	owner := map[int]int{} // member index -> the result that checked it
	for i, r := range rs {
		switch {
		case r.Algorithm != first.Algorithm:
			return nil, fmt.Errorf("result %d is a %s family; result 1 is %s", i+1, r.Algorithm, first.Algorithm)
		case r.Family != first.Family || r.Topology != first.Topology:
			return nil, fmt.Errorf("result %d is family %s on %s; result 1 is %s on %s", i+1, r.Family, r.Topology, first.Family, first.Topology)
		case !sameParams(r.Params, first.Params):
			return nil, fmt.Errorf("result %d was checked with other parameters than result 1: %s", i+1, paramsDiff(r.Params, first.Params, "result 1"))
		case r.Members != first.Members:
			return nil, fmt.Errorf("result %d counts %d members; result 1 counts %d (different enumerations)", i+1, r.Members, first.Members)
		case r.Shard.Count != first.Shard.Count:
			return nil, fmt.Errorf("result %d is split in %d shards; result 1 in %d", i+1, r.Shard.Count, first.Shard.Count)
		}
		shards := r.Shards
		if len(shards) == 0 {
			shards = []int{r.Shard.Index}
		}
		for _, s := range shards {
			if j, dup := seen[s]; dup {
				return nil, fmt.Errorf("shard %d/%d is in result %d and result %d (overlapping shards)", s, r.Shard.Count, j+1, i+1)
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
		return nil, fmt.Errorf("the results cover %d instances of a %d-member family", out.Instances, out.Members)
	}
	out.Verdict = out.verdict()
	return out, nil
}

// MergeFiles reads the family results of algorithm algo that `check --family ... --shard
// i/n --result F` wrote for disjoint shards of one run, with read, in order, and merges
// them (Merge); an error names the file at fault.
func MergeFiles[P any](files []string, read func(string) ([]byte, error), algo string) (*Result[P], error) {
	rs := make([]*Result[P], 0, len(files))
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		r, err := ParseResult[P](data, algo)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		rs = append(rs, r)
	}
	return Merge(rs)
}

// Member is what checking one member gives to a kept result: its verdict and counts,
// how many members of the unreduced family it stands for (0 where the family does not
// count orbits), its fingerprint collision bound and delivery certificate, and, for a
// violation, its messages and shortest trace.
type Member struct {
	Outcome
	Covered        int64
	CollisionBound float64
	Certificate    *checker.Certificate // nil for a violation
	Msgs           string
	Trace          *tracefile.File // not nil when Verdict is Violated
}

// KeepOptions configure Keep; Options.Shard, Done and Checkpoint are Keep's own.
type KeepOptions[P any] struct {
	Options
	// Resume is the result of an earlier run of the same family, parameters and shard:
	// the members it lists as checked are not checked again and its figures are carried
	// over, so that the finished result equals that of an uninterrupted run.
	Resume *Result[P]
	// Checkpoint, if set, receives the result so far (Partial) after a member when
	// CheckpointEvery (or twenty times the last call's duration, if longer) has passed
	// since the last call, and the final result at the end; an error from it ends the
	// run with that error. A caller that writes each to disk atomically leaves a
	// resumable file whenever the process is killed.
	Checkpoint func(*Result[P]) error
}

// Keep checks the members of r's shard (r, from NewResult, says the family's size and
// the shard) as Run does and records each in r, in member order: check(ctx, w, i)
// checks member i on pool worker w; an error from it ends the run with that error,
// naming the member (and its Msgs, if the Member returned with the error has them). With opt.StopAtFirst the run ends after a member once r counts a
// violation. A cancelled ctx ends the run after the members being checked, whose
// interrupted searches are discarded: r is then Partial and a run resumed from it
// continues it.
func Keep[P, R any](ctx context.Context, r *Result[P], opt KeepOptions[P], check func(ctx context.Context, w, i int) (R, Member, error), visit func(i int, x R)) (Stats, error) {
	start := time.Now()
	done := map[int]bool{}
	prior := 0.0
	if p := opt.Resume; p != nil {
		if err := r.resumable(p); err != nil {
			return Stats{}, err
		}
		for _, c := range p.Checked {
			done[c.Index] = true
		}
		r.Instances, r.Covered, r.States, r.Transitions = p.Instances, p.Covered, p.States, p.Transitions
		r.Violated, r.Witness = p.Violated, p.Witness
		r.CollisionBound = p.CollisionBound
		r.Certificates.Merge(p.Certificates)
		r.Inconclusive = append(r.Inconclusive, p.Inconclusive...)
		r.Checked = append(r.Checked, p.Checked...)
		prior = p.Seconds
	}
	finish := func(partial bool) *Result[P] {
		r.Partial = partial
		r.Seconds = prior + time.Since(start).Seconds()
		sort.Slice(r.Checked, func(a, b int) bool { return r.Checked[a].Index < r.Checked[b].Index })
		sort.Ints(r.Inconclusive)
		r.Verdict = r.verdict()
		return r
	}
	fo := opt.Options
	fo.Shard, fo.PriorStates, fo.StopAtFirst = r.Shard, r.States, false
	fo.Done = func(i int) bool { return done[i] }
	fo.Checkpoint = nil
	if opt.Checkpoint != nil {
		fo.Checkpoint = func() error { return opt.Checkpoint(finish(true)) }
	}
	if opt.StopAtFirst && r.Violated > 0 {
		finish(true)
		if opt.Checkpoint != nil {
			return Stats{Partial: true}, opt.Checkpoint(r)
		}
		return Stats{Partial: true}, nil
	}
	type checked struct {
		x   R
		m   Member
		err error
	}
	st, err := Run(ctx, r.Members, fo, func(ctx context.Context, w, i int) (checked, Outcome) {
		x, m, err := check(ctx, w, i)
		if err != nil {
			// An error is no verdict: reported by visit, never taken for an interruption.
			return checked{m: m, err: err}, Outcome{Verdict: checker.Holds}
		}
		return checked{x: x, m: m}, m.Outcome
	}, func(i int, c checked, _ Outcome) error {
		if c.err != nil && c.m.Msgs != "" {
			return fmt.Errorf("member %d (%s): %w", i, c.m.Msgs, c.err)
		} else if c.err != nil {
			return fmt.Errorf("member %d: %w", i, c.err)
		}
		m := c.m
		if m.Verdict == checker.Violated && m.Trace == nil {
			return fmt.Errorf("member %d (%s): violated without a trace", i, m.Msgs)
		}
		r.Instances++
		r.Covered += m.Covered
		r.States += m.States
		r.Transitions += m.Transitions
		r.CollisionBound += m.CollisionBound
		r.Certificates.Add(m.Certificate)
		r.Checked = append(r.Checked, MemberOutcome{Index: i, Verdict: m.Verdict, States: m.States, Transitions: m.Transitions})
		switch m.Verdict {
		case checker.Violated:
			r.Violated++
			w := &Witness{Index: i, Msgs: m.Msgs, Length: len(m.Trace.Actions), Trace: m.Trace}
			if r.Witness == nil || w.less(r.Witness) {
				r.Witness = w
			}
		case checker.Inconclusive:
			r.Inconclusive = append(r.Inconclusive, i)
		}
		if visit != nil {
			visit(i, c.x)
		}
		if r.Violated > 0 && opt.StopAtFirst {
			return Stop
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	finish(st.Partial)
	if opt.Checkpoint != nil {
		return st, opt.Checkpoint(r)
	}
	return st, nil
}
