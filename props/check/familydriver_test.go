package check_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The entry's one family driver (props/check/family.go) over the members algos
// enumerate: results, resume, shards, stores and certificates, through the typed
// requests a user or the catalogue calls.

// cancelMeter cancels a run once at members have finished (check.Meter).
type cancelMeter struct {
	at, done int64
	cancel   func()
}

func (m *cancelMeter) Expect(int64) {}
func (m *cancelMeter) Add(done, _ int64) {
	if m.done += done; m.done >= m.at {
		m.cancel()
	}
}

// familyOf checks req and returns its report and kept result (the family's
// parameters P), failing the test on an error.
func familyOf[P any](t *testing.T, ctx context.Context, req interface {
	Check(context.Context, checker.Property, check.Options) (*props.Report, error)
}, opt check.Options, parse func([]byte) (*family.Result[P], error)) (*props.Report, *family.Result[P]) {
	t.Helper()
	rep, err := req.Check(ctx, checker.PropDeadlock, opt)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := parse(rep.Result)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Family == nil || rep.Family.States != rec.States || rep.Family.Instances != rec.Instances {
		t.Fatalf("the report's family summary %+v is not its result's", rep.Family)
	}
	return rep, rec
}

// sameMembers compares two kept results member by member and in their sums.
func sameMembers[P any](t *testing.T, what string, got, want *family.Result[P]) {
	t.Helper()
	if !reflect.DeepEqual(got.Checked, want.Checked) {
		t.Fatalf("%s: checked members differ:\n got %v\nwant %v", what, got.Checked, want.Checked)
	}
	if got.Instances != want.Instances || got.Covered != want.Covered || got.States != want.States ||
		got.Transitions != want.Transitions || got.Violated != want.Violated || got.Verdict != want.Verdict ||
		got.Partial != want.Partial || !reflect.DeepEqual(got.Inconclusive, want.Inconclusive) ||
		!reflect.DeepEqual(got.Certificates, want.Certificates) {
		t.Fatalf("%s: sums differ:\n got %+v\nwant %+v", what, got, want)
	}
	if (got.Witness == nil) != (want.Witness == nil) || got.Witness != nil && (got.Witness.Index != want.Witness.Index || got.Witness.Msgs != want.Witness.Msgs) {
		t.Fatalf("%s: witnesses differ: %+v vs %+v", what, got.Witness, want.Witness)
	}
}

// ringFamily is torus:4 without dateline classes, every connected placement of 1..4
// worms (73 members), checked to the end: some members deadlock (WH2), so the kept
// result has a witness.
func ringFamily(t *testing.T, sh family.Shard) check.Unicast {
	g, err := topology.Parse("torus:4")
	if err != nil {
		t.Fatal(err)
	}
	return check.Unicast{Grid: g, Spec: unicast.Spec{Dateline: unicast.DatelineOff}, Shard: sh, CountAll: true,
		Family: &unicast.Family{MaxWorms: 4, MinWorms: 1, Params: [][2]int{{2, 1}}, Connected: true}}
}

// TestUnicastFamilyResumeAfterCancel cuts a unicast family run by cancelling it after a
// few members, resumes it from its last checkpoint until it finishes, and checks that
// the result equals an uninterrupted run's, member by member, whatever the member pool;
// a resume with another length or shard is refused.
func TestUnicastFamilyResumeAfterCancel(t *testing.T) {
	_, whole := familyOf(t, context.Background(), ringFamily(t, family.Shard{}), check.Options{}, unicast.ParseFamilyRecord)
	if whole.Violated == 0 || whole.Witness == nil || whole.Partial || whole.Instances != whole.Members {
		t.Fatalf("the test family should be checked whole with deadlocks: %+v", whole)
	}
	var prev []byte
	for step := 0; ; step++ {
		if step > 20 {
			t.Fatal("the resumed runs do not finish")
		}
		ctx, cancel := context.WithCancel(context.Background())
		var last []byte
		opt := check.Options{Workers: 1 + step%2, Resume: prev, Meter: &cancelMeter{at: 15, cancel: cancel},
			Checkpoint: func(b []byte) error { last = b; return nil }}
		rep, rec := familyOf(t, ctx, ringFamily(t, family.Shard{}), opt, unicast.ParseFamilyRecord)
		interrupted := ctx.Err() != nil
		cancel()
		if string(last) != string(rep.Result) {
			t.Fatalf("step %d: the last checkpoint is not the run's result", step)
		}
		prev = last
		if !interrupted || !rec.Partial {
			if step < 2 {
				t.Fatalf("the run finished after %d interruptions; want at least 2", step)
			}
			sameMembers(t, "resumed", rec, whole)
			break
		}
		if rep.Verdict == props.Holds {
			t.Fatalf("step %d: an interrupted run holds", step)
		}
	}
	f := ringFamily(t, family.Shard{})
	f.Family.Params = [][2]int{{3, 1}}
	if _, err := f.Check(context.Background(), checker.PropDeadlock, check.Options{Resume: prev}); err == nil || !strings.Contains(err.Error(), "parameters") {
		t.Errorf("resume with another length: %v; want a refusal naming the parameters", err)
	}
	if _, err := ringFamily(t, family.Shard{Index: 1, Count: 2}).Check(context.Background(), checker.PropDeadlock, check.Options{Resume: prev}); err == nil || !strings.Contains(err.Error(), "shard") {
		t.Errorf("resume of another shard: %v; want a refusal naming the shard", err)
	}
}

// TestUnicastFamilyShardsMerge checks a unicast family in three shards, merges their
// kept results and checks that the merge equals the whole run member by member; a shard
// of another length, a shard twice and a result of another family are refused with one
// line.
func TestUnicastFamilyShardsMerge(t *testing.T) {
	_, whole := familyOf(t, context.Background(), ringFamily(t, family.Shard{}), check.Options{}, unicast.ParseFamilyRecord)
	files := map[string][]byte{}
	for i := range 3 {
		rep, _ := familyOf(t, context.Background(), ringFamily(t, family.Shard{Index: i, Count: 3}), check.Options{Workers: 2}, unicast.ParseFamilyRecord)
		files[string(rune('0'+i))] = rep.Result
	}
	f := ringFamily(t, family.Shard{Index: 2, Count: 3})
	f.Family.Params = [][2]int{{3, 1}}
	rep, _ := familyOf(t, context.Background(), f, check.Options{}, unicast.ParseFamilyRecord)
	files["other-length"] = rep.Result
	f = ringFamily(t, family.Shard{Index: 2, Count: 3})
	f.Family.MaxWorms = 3
	rep, _ = familyOf(t, context.Background(), f, check.Options{}, unicast.ParseFamilyRecord)
	files["other-family"] = rep.Result
	read := func(name string) ([]byte, error) { return files[name], nil }

	m, err := unicast.MergeFiles([]string{"2", "0", "1"}, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Missing) != 0 || !reflect.DeepEqual(m.Shards, []int{0, 1, 2}) {
		t.Fatalf("merged shards %v, missing %v", m.Shards, m.Missing)
	}
	sameMembers(t, "merged", m, whole)
	for _, c := range []struct {
		files []string
		says  string
	}{
		{[]string{"0", "1", "other-length"}, "parameters"},
		{[]string{"0", "1", "0"}, "overlapping shards"},
		{[]string{"0", "1", "other-family"}, "family all-placements:3"},
	} {
		_, err := unicast.MergeFiles(c.files, read)
		if err == nil || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("merge %v: %v; want one line naming %q", c.files, err, c.says)
		}
	}
}

// TestUnicastFamilyCertificates: every instance of a deadlock-free XY family is
// certified to deliver by model/flit's progress measure, checked on every transition,
// and a run with the fingerprint store explores the same states and reports its
// collision bound. Reference: Dally & Seitz (WH1); DESIGN.md "Liveness".
func TestUnicastFamilyCertificates(t *testing.T) {
	g, err := topology.Parse("mesh:2x3")
	if err != nil {
		t.Fatal(err)
	}
	req := check.Unicast{Grid: g, Family: &unicast.Family{MaxWorms: 2, MinWorms: 1, Params: [][2]int{{2, 1}}, Connected: true}}
	rep, r := familyOf(t, context.Background(), req, check.Options{}, unicast.ParseFamilyRecord)
	if r.Verdict != checker.Holds || r.Instances == 0 || r.Certificates.Progress != r.Instances || r.Certificates.Transitions != r.Transitions {
		t.Fatalf("%v over %d instances, certificates %+v, %d transitions; want holds, all certified by progress", r.Verdict, r.Instances, r.Certificates, r.Transitions)
	}
	if r.CollisionBound != 0 || rep.Certificate == nil || rep.Certificate.Kind != checker.CertProgress {
		t.Fatalf("exact store: collision bound %g, report certificate %+v", r.CollisionBound, rep.Certificate)
	}
	_, fp := familyOf(t, context.Background(), req, check.Options{Store: checker.Fingerprint}, unicast.ParseFamilyRecord)
	if fp.States != r.States || fp.CollisionBound <= 0 || fp.CollisionBound > 1e-9 {
		t.Fatalf("fingerprint: %d states (exact %d), bound %g", fp.States, r.States, fp.CollisionBound)
	}
}

// TestUnicastFamilyComponents: the pruned family (Connected, footprints) and the
// unpruned one give the same verdict, with fewer instances pruned, on a relation
// violated with 2 worms (nonminimal:1) and one that holds (duato); and under adaptive
// routing the mesh:2x2 square deadlocks, which it does not under DOR.
func TestUnicastFamilyComponents(t *testing.T) {
	g, err := topology.Parse("mesh:3x2")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"nonminimal:1", "duato"} {
		rel, err := routing.ByName(g, name)
		if err != nil {
			t.Fatal(err)
		}
		fam := unicast.Family{MaxWorms: 2, MinWorms: 1, Params: [][2]int{{2, 1}}}
		req := check.Unicast{Grid: g, Spec: unicast.Spec{Ports: model.AllPort, Routing: rel}, Family: &fam, CountAll: true}
		_, full := familyOf(t, context.Background(), req, check.Options{Workers: 2}, unicast.ParseFamilyRecord)
		fam.Connected = true
		_, pruned := familyOf(t, context.Background(), req, check.Options{Workers: 2}, unicast.ParseFamilyRecord)
		if full.Verdict != pruned.Verdict || len(full.Inconclusive)+len(pruned.Inconclusive) > 0 || pruned.Instances >= full.Instances {
			t.Fatalf("%s: unpruned %s (%d of %d violated), pruned %s (%d of %d)", name, full.Verdict, full.Violated, full.Instances, pruned.Verdict, pruned.Violated, pruned.Instances)
		}
	}
	sq, adaptive := routingtest.Builtin(t, "mesh:2x2", "adaptive")
	fam := unicast.Family{MinWorms: 4, MaxWorms: 4, Params: [][2]int{{1, 1}}, Connected: true}
	req := check.Unicast{Grid: sq, Spec: unicast.Spec{Ports: model.AllPort}, Family: &fam, CountAll: true}
	_, dor := familyOf(t, context.Background(), req, check.Options{}, unicast.ParseFamilyRecord)
	req.Spec.Routing = adaptive
	_, ad := familyOf(t, context.Background(), req, check.Options{}, unicast.ParseFamilyRecord)
	if dor.Violated != 0 || ad.Violated == 0 || ad.Instances != 31 {
		t.Fatalf("DOR %d violated of %d, adaptive %d of %d (want 31 connected placements)", dor.Violated, dor.Instances, ad.Violated, ad.Instances)
	}
}

// treeFamily is pairs:K of multicasts on spec with buffers of one flit and pruning pr,
// symmetry keeping one pair per orbit.
func treeFamily(t *testing.T, spec string, k int, pr flit.Prune, sh treemcast.Shard) (check.TreeMulticast, check.Options) {
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	p := treemcast.DefaultParams()
	p.Buffer, p.Prune = 1, pr
	return check.TreeMulticast{Instance: treemcast.Instance{Grid: g, Params: p}, Family: &treemcast.Family{Grid: g, K: k}, Shard: sh},
		check.Options{Symmetry: true}
}

// TestTreeFamilyResume cancels a shard of a tree-multicast family after a few members,
// resumes it from its result, and checks that the result equals an uninterrupted run,
// member by member; resuming another shard, family or parameters is refused.
func TestTreeFamilyResume(t *testing.T) {
	sh := treemcast.Shard{Index: 1, Count: 2}
	req, opt := treeFamily(t, "mesh:3x2", 2, flit.PruneNone, sh)
	_, whole := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
	if whole.Violated == 0 || len(whole.Checked) != whole.Instances {
		t.Fatalf("the test family should have violations and a full record: %+v", whole)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cut := opt
	cut.Meter = &cancelMeter{at: 5, cancel: cancel}
	rep, part := familyOf(t, ctx, req, cut, treemcast.ParseFamilyResult)
	cancel()
	if !part.Partial || len(part.Checked) != part.Instances || part.Instances >= whole.Instances || rep.Verdict == props.Holds {
		t.Fatalf("cancelled run: partial %v, %d checked, %d instances, %v", part.Partial, len(part.Checked), part.Instances, rep.Verdict)
	}
	resumed := opt
	resumed.Resume = rep.Result
	_, rest := familyOf(t, context.Background(), req, resumed, treemcast.ParseFamilyResult)
	sameMembers(t, "resumed after cancel", rest, whole)

	other, _ := treeFamily(t, "mesh:3x2", 2, flit.PruneNone, treemcast.Shard{Index: 0, Count: 2})
	one, _ := treeFamily(t, "mesh:3x2", 1, flit.PruneNone, sh)
	pruned, _ := treeFamily(t, "mesh:3x2", 2, flit.PruneOnStop, sh)
	for _, tc := range []struct {
		req  check.TreeMulticast
		want string
	}{{other, "shard"}, {one, "family"}, {pruned, "parameters"}} {
		if _, err := tc.req.Check(context.Background(), checker.PropDeadlock, resumed); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resuming %s shard %s from shard %s: %v, want an error naming the %s", tc.req.Family.Spec(), tc.req.Shard, sh, err, tc.want)
		}
	}
}

// TestTreeFamilyShardsAndStores: three shards merge into the whole run; the
// fingerprint store explores the same states with a collision bound, every member
// certified by progress; and shards of runs with different stores do not merge.
func TestTreeFamilyShardsAndStores(t *testing.T) {
	req, opt := treeFamily(t, "mesh:3x2", 2, flit.PruneNone, treemcast.Shard{})
	_, whole := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
	var parts []*treemcast.FamilyResult
	for i := range 3 {
		req.Shard = treemcast.Shard{Index: i, Count: 3}
		_, r := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
		parts = append(parts, r)
	}
	merged, err := treemcast.Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	if merged.States != whole.States || merged.Instances != whole.Instances || merged.Violated != whole.Violated ||
		merged.Verdict != whole.Verdict || merged.Witness.Index != whole.Witness.Index || len(merged.Missing) != 0 {
		t.Fatalf("merged %+v\nwhole %+v", merged, whole)
	}

	one, opt := treeFamily(t, "mesh:2x2", 1, flit.PruneOnStop, treemcast.Shard{})
	_, exact := familyOf(t, context.Background(), one, opt, treemcast.ParseFamilyResult)
	fpOpt := opt
	fpOpt.Store = checker.Fingerprint
	_, fp := familyOf(t, context.Background(), one, fpOpt, treemcast.ParseFamilyResult)
	if exact.Params.Store != "" || exact.CollisionBound != 0 || fp.Params.Store != "fingerprint" || fp.CollisionBound <= 0 ||
		fp.States != exact.States || fp.Verdict != exact.Verdict {
		t.Fatalf("exact: store %q bound %g, %d states; fingerprint: store %q bound %g, %d states", exact.Params.Store, exact.CollisionBound, exact.States, fp.Params.Store, fp.CollisionBound, fp.States)
	}
	if c := exact.Certificates; c.Progress != exact.Instances || c.None != 0 || c.Transitions != exact.Transitions {
		t.Fatalf("certificates %+v over %d members and %d transitions; want every member certified by progress", c, exact.Instances, exact.Transitions)
	}
	half := func(o check.Options, i int) *treemcast.FamilyResult {
		one.Shard = treemcast.Shard{Index: i, Count: 2}
		_, r := familyOf(t, context.Background(), one, o, treemcast.ParseFamilyResult)
		return r
	}
	if _, err := treemcast.Merge([]*treemcast.FamilyResult{half(opt, 0), half(fpOpt, 1)}); err == nil || !strings.Contains(err.Error(), "parameters") {
		t.Fatalf("merging an exact and a fingerprint shard: %v; want refused for its parameters", err)
	}
}

// TestTreeFamilySymmetryVerdicts checks that family-level symmetry reduction gives the
// same verdict and covers the same pairs as the full family.
func TestTreeFamilySymmetryVerdicts(t *testing.T) {
	for _, pr := range []flit.Prune{flit.PruneNone, flit.PruneOnStop} {
		req, opt := treeFamily(t, "mesh:2x2", 2, pr, treemcast.Shard{})
		_, sym := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
		opt.Symmetry = false
		_, plain := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
		if sym.Verdict != plain.Verdict || sym.Covered != plain.Covered || sym.Instances >= plain.Instances {
			t.Errorf("%v: verdicts %v/%v, covered %d/%d, members %d/%d", pr, sym.Verdict, plain.Verdict, sym.Covered, plain.Covered, sym.Instances, plain.Instances)
		}
	}
}

// TestTreeFamilyEnumerationStopped: a family whose context has ended before its
// members are enumerated is inconclusive and says that no member was checked.
func TestTreeFamilyEnumerationStopped(t *testing.T) {
	req, opt := treeFamily(t, "mesh:4x4", 2, flit.PruneOnStop, treemcast.Shard{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := req.Check(ctx, checker.PropDeadlock, opt)
	if err != nil || rep.Verdict != props.Inconclusive || rep.Result != nil ||
		rep.Reason != "cancelled: context canceled while enumerating the family's members, after 65536 of 1844160 pairs; no member was checked" {
		t.Fatalf("an ended context: %v, %+v", err, rep)
	}
}

// TestTreeFamilyRoutingFileResumes: a family under a routing file keeps the file in its
// result, and a run resumed from that result equals an uninterrupted one.
func TestTreeFamilyRoutingFileResumes(t *testing.T) {
	req, opt := treeFamily(t, "mesh:3x2", 1, flit.PruneOnStop, treemcast.Shard{})
	file, err := routing.ParseFile([]byte(`{"format": "wormcheck-routing/1", "name": "my-west-first",
		"rules": [{"forbid": ["north->west", "south->west"]}]}`), req.Instance.Grid)
	if err != nil {
		t.Fatal(err)
	}
	req.Instance.Routing = file
	opt.Symmetry = false
	_, whole := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
	if whole.Params.Routing != "" || !strings.Contains(string(whole.Params.RoutingFile), "my-west-first") {
		t.Fatalf("a routing file is kept whole: got routing %q, file %s", whole.Params.Routing, whole.Params.RoutingFile)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cut := opt
	cut.Meter = &cancelMeter{at: 2, cancel: cancel}
	rep, _ := familyOf(t, ctx, req, cut, treemcast.ParseFamilyResult)
	cancel()
	opt.Resume = rep.Result
	_, resumed := familyOf(t, context.Background(), req, opt, treemcast.ParseFamilyResult)
	sameMembers(t, "resumed with a routing file", resumed, whole)
}

// BenchmarkTreeFamilyShard checks one shard (1/400: 217 members) of the complete
// pairs:3 family on mesh:3x3 with symmetry through the entry, one member at a time,
// and reports the time per member (a member costs its own search and nothing else),
// extrapolated to the family's 86,438 members.
func BenchmarkTreeFamilyShard(b *testing.B) {
	g, err := topology.Parse("mesh:3x3")
	if err != nil {
		b.Fatal(err)
	}
	req := check.TreeMulticast{Instance: treemcast.Instance{Grid: g, Params: treemcast.DefaultParams()},
		Family: &treemcast.Family{Grid: g, K: 3}, Shard: treemcast.Shard{Index: 0, Count: 400}}
	var members, states int64
	for b.Loop() {
		rep, err := req.Check(context.Background(), checker.PropDeadlock, check.Options{Symmetry: true})
		if err != nil {
			b.Fatal(err)
		}
		if f := rep.Family; f.Instances != 217 || f.States != 1504113 {
			b.Fatalf("%d members, %d states; want 217, 1504113", f.Instances, f.States)
		}
		members += int64(rep.Family.Instances)
		states += rep.Family.States
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(members), "ns/member")
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}
