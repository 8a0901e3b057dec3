package family

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
)

type toyParams struct {
	K int `json:"k"`
}

// toyMember checks member i as toy does, with a one-action trace for a violation.
func toyMember(ctx context.Context, w, i int) (int, Member, error) {
	x, o := toy(ctx, w, i)
	m := Member{Outcome: o, Msgs: "m" + string(rune('a'+i%26))}
	if o.Verdict == checker.Violated {
		m.Trace = &tracefile.File{Format: tracefile.Format, Actions: make([]uint64, 1+i%3)}
	}
	return x, m, nil
}

// TestKeepResumeMerge: a kept run cut by Limit and resumed through its marshalled
// result equals the whole run member by member, on a pool of 2; shards merged equal the
// whole; the shortest witness wins; merge refuses other parameters and overlaps.
func TestKeepResumeMerge(t *testing.T) {
	const n = 40
	keep := func(sh Shard, opt KeepOptions[toyParams], p toyParams) *Result[toyParams] {
		r := NewResult("toy", "toy:40", "none", p, n, sh)
		opt.Pool = 2
		visited := 0
		if _, err := Keep(context.Background(), r, opt, toyMember, func(i, x int) {
			if x != 10*i {
				t.Fatalf("member %d visited with %d", i, x)
			}
			visited++
		}); err != nil {
			t.Fatal(err)
		}
		if got := r.Instances; opt.Resume == nil && visited != got {
			t.Fatalf("%d members visited, %d recorded", visited, got)
		}
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseResult[toyParams](b, "toy")
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		return back
	}
	whole := keep(Shard{}, KeepOptions[toyParams]{}, toyParams{1})
	if whole.Instances != n || whole.Violated != 5 || whole.Witness == nil || whole.Witness.Index != 21 || whole.Verdict != checker.Violated {
		t.Fatalf("whole: %d members, %d violated, witness %+v, %v", whole.Instances, whole.Violated, whole.Witness, whole.Verdict)
	}
	var prev *Result[toyParams]
	for step := 1; ; step++ {
		prev = keep(Shard{}, KeepOptions[toyParams]{Options: Options{Limit: 9 * step}, Resume: prev}, toyParams{1})
		if !prev.Partial {
			break
		}
	}
	prev.Seconds, whole.Seconds = 0, 0
	if !reflect.DeepEqual(prev, whole) {
		t.Fatalf("resumed:\n%+v\nwhole:\n%+v", prev, whole)
	}
	var shards []*Result[toyParams]
	for i := range 3 {
		shards = append(shards, keep(Shard{Index: i, Count: 3}, KeepOptions[toyParams]{}, toyParams{1}))
	}
	m, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	m.Seconds, m.Shards, m.Shard = 0, nil, whole.Shard
	if !reflect.DeepEqual(m, whole) {
		t.Fatalf("merged:\n%+v\nwhole:\n%+v", m, whole)
	}
	other := keep(Shard{Index: 2, Count: 3}, KeepOptions[toyParams]{}, toyParams{2})
	for _, c := range []struct {
		rs   []*Result[toyParams]
		says string
	}{{[]*Result[toyParams]{shards[0], shards[1], other}, "parameters"}, {[]*Result[toyParams]{shards[0], shards[0]}, "overlapping"}} {
		if _, err := Merge(c.rs); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("merge: %v; want an error naming %q", err, c.says)
		}
	}
	// A resumed result that already counts a violation is returned as it is when the
	// run stops at the first.
	stopped := keep(Shard{}, KeepOptions[toyParams]{Options: Options{StopAtFirst: true}}, toyParams{1})
	again := keep(Shard{}, KeepOptions[toyParams]{Options: Options{StopAtFirst: true}, Resume: stopped}, toyParams{1})
	if stopped.Instances != 8 || !stopped.Partial || !reflect.DeepEqual(again.Checked, stopped.Checked) {
		t.Errorf("stopped at %d members (partial %v); resumed %d", stopped.Instances, stopped.Partial, again.Instances)
	}
}

// TestResultAlgorithm: a /2 file names its algorithm, a /1 file is tree multicast's, and
// other files are refused naming what is wrong.
func TestResultAlgorithm(t *testing.T) {
	for _, c := range []struct{ data, algo, err string }{
		{`{"format": "wormcheck-family/2", "algorithm": "unicast"}`, "unicast", ""},
		{`{"format": "wormcheck-family/1", "family": "pairs:1"}`, "tree-mcast", ""},
		{`{"format": "wormcheck-family/2"}`, "", `"algorithm" is missing`},
		{`{"format": "wormcheck-family/1", "algorithm": "unicast"}`, "", "has none"},
		{`{"format": "wormcheck-family/3", "algorithm": "unicast"}`, "", "wormcheck-family/3"},
		{`{"format": "wormcheck-trace/1"}`, "", "trace"},
	} {
		algo, err := ResultAlgorithm([]byte(c.data))
		if algo != c.algo || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %q, %v; want %q, an error with %q", c.data, algo, err, c.algo, c.err)
		}
	}
}

// TestParseResultRefusesDisagreeingFields: a result whose fields contradict each other
// (a verdict its counts do not give, a violated count without a witness, counts that are
// not the members listed) is refused, naming the fields, instead of being merged on one
// of them; and parameters that differ are named in words, field by field, not in Go
// syntax.
func TestParseResultRefusesDisagreeingFields(t *testing.T) {
	r := NewResult("toy", "toy:40", "none", toyParams{1}, 40, Shard{})
	if _, err := Keep(context.Background(), r, KeepOptions[toyParams]{}, toyMember, nil); err != nil {
		t.Fatal(err)
	}
	good, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseResult[toyParams](good, "toy"); err != nil {
		t.Fatalf("a result as Keep wrote it is refused: %v", err)
	}
	for _, c := range []struct {
		edit  func(*Result[toyParams])
		names string
	}{
		{func(r *Result[toyParams]) { r.Violated, r.Witness = 0, nil }, `"violated" is 0 but "checked" lists 5`},
		{func(r *Result[toyParams]) { r.Witness = nil }, `"violated" is 5 but "witness" is null`},
		{func(r *Result[toyParams]) { r.Verdict = checker.Holds }, `"verdict" is holds but its counts say violated`},
		{func(r *Result[toyParams]) { r.States++ }, `"states" and "transitions"`},
		{func(r *Result[toyParams]) { r.Inconclusive = []int{3} }, `"inconclusive" lists 1 members but "checked" has 0`},
		{func(r *Result[toyParams]) { r.Violated = r.Instances + 1 }, `"violated" is 41 of 40`},
		{func(r *Result[toyParams]) { r.Checked, r.Violated, r.Witness = nil, 0, nil }, `"verdict" is violated but its counts say holds`},
		{func(r *Result[toyParams]) { r.Shard.Count, r.Missing = 2, []int{1} }, `"missing_shards" lists 1 shards but "shards" is empty`},
		{func(r *Result[toyParams]) { r.Shard.Count, r.Shards, r.Missing = 3, []int{0}, []int{2} }, `list 1 and 1 shards; the count is 3`},
		{func(r *Result[toyParams]) { r.Shard.Count, r.Shards, r.Missing = 2, []int{0}, []int{0} }, `both list shard 0`},
		{func(r *Result[toyParams]) { r.Shard.Count, r.Shards = 2, []int{1, 0} }, `"shards": entry 1 is shard 0`},
		{func(r *Result[toyParams]) { r.Shard.Count = 1 << 40 }, `want i/n with 0 <= i < n <= 1048576`},
	} {
		bad, err := ParseResult[toyParams](good, "toy")
		if err != nil {
			t.Fatal(err)
		}
		c.edit(bad)
		data, err := bad.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseResult[toyParams](data, "toy"); err == nil || !strings.Contains(err.Error(), c.names) {
			t.Errorf("edited result: err = %v; want it to name %s", err, c.names)
		}
	}
	a := keepToy(t, Shard{Index: 0, Count: 2}, toyParams{1})
	b := keepToy(t, Shard{Index: 1, Count: 2}, toyParams{2})
	if _, err := Merge([]*Result[toyParams]{a, b}); err == nil || !strings.Contains(err.Error(), `k 2 where result 1 has 1`) {
		t.Errorf("merge of other parameters: %v; want the differing one named in words", err)
	}
}

func keepToy(t *testing.T, sh Shard, p toyParams) *Result[toyParams] {
	t.Helper()
	r := NewResult("toy", "toy:40", "none", p, 40, sh)
	if _, err := Keep(context.Background(), r, KeepOptions[toyParams]{}, toyMember, nil); err != nil {
		t.Fatal(err)
	}
	return r
}
