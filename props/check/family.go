package check

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/props"
)

// This file is the entry's one family driver: a family run checks the members an
// algorithm enumerates (algos: unicast placements, tree-multicast pairs, partition
// instances), each through the same check as a single instance of its algorithm, on
// the family runner (checker/family: shard, pool, resume, limit, checkpoints, progress)
// and keeps the mergeable result. Algorithms provide members; they do not drive.

// familyRun is one shard of a family: its result's names and parameters, its size, and
// how the entry checks member i (check: the member's report, and what the kept result
// records of it).
type familyRun[P any] struct {
	algo, name, topology string
	params               P
	members              int
	shard                family.Shard
	// stop ends the shard at its first violated member (the result is then partial).
	stop bool
	// label names the family on the progress line.
	label string
	// check checks member i under ctx on the member request mr (member).
	check func(ctx context.Context, mr *request, i int) (*props.Report, family.Member, error)
}

// familyOutcome is what a family run gives: the kept result and its JSON, and the
// report of the member whose witness the result keeps when this run checked it (nil
// when it came from the result the run resumed, or there is none); depth is the
// deepest member search.
type familyOutcome[P any] struct {
	rec    *family.Result[P]
	result []byte
	shown  *props.Report
	depth  int
}

// runFamily checks the shard's members not in the result Options.Resume holds (parsed
// with parse), in member order on Options.Workers members at once, each member's search
// on one worker; the result goes to Options.Checkpoint as members finish and the
// progress line to Options.Progress. A cancelled ctx ends the run after the members
// being checked (the result is partial and resumes). An error of a member's check ends
// the run, naming the member.
func runFamily[P any](ctx context.Context, r *request, f familyRun[P], parse func([]byte) (*family.Result[P], error)) (familyOutcome[P], error) {
	var out familyOutcome[P]
	out.rec = family.NewResult(f.algo, f.name, f.topology, f.params, f.members, f.shard)
	ko := family.KeepOptions[P]{Options: family.Options{Pool: max(1, r.opt.Workers), StopAtFirst: f.stop,
		Progress: r.opt.Progress, Label: f.label, CheckpointEvery: r.opt.CheckpointEvery}}
	if m := r.opt.Meter; m != nil {
		ko.Count = func(total, done, states int64) {
			m.Expect(total)
			m.Add(done, states)
		}
	}
	if r.opt.Resume != nil {
		prev, err := parse(r.opt.Resume)
		if err != nil {
			return out, badf("resume: %v", err)
		}
		ko.Resume = prev
	}
	if cp := r.opt.Checkpoint; cp != nil {
		ko.Checkpoint = func(rec *family.Result[P]) error {
			b, err := rec.Marshal()
			if err != nil {
				return err
			}
			return cp(b)
		}
	}
	shownIndex, shownLen := -1, 0
	_, err := family.Keep(ctx, out.rec, ko, func(ctx context.Context, _, i int) (*props.Report, family.Member, error) {
		return f.check(ctx, r.member(), i)
	}, func(i int, rep *props.Report) {
		out.depth = max(out.depth, rep.Stats.Depth)
		if rep.Verdict != props.Violated {
			return
		}
		n := 0
		if rep.Trace != nil {
			n = len(rep.Trace.Actions)
		}
		// The kept witness is the shortest trace, then the lowest member (family.Keep).
		if out.shown == nil || n < shownLen {
			out.shown, shownIndex, shownLen = rep, i, n
		}
	})
	if err != nil {
		return out, err
	}
	if w := out.rec.Witness; w == nil || w.Index != shownIndex {
		out.shown = nil
	}
	if out.result, err = out.rec.Marshal(); err != nil {
		return out, internalf("%v", err)
	}
	return out, nil
}

// member is the request a family member is checked with: r's property and options,
// one search worker, no family options, no state symmetry (a family's symmetry reduces
// its members, not their states) and counters of its own.
func (r *request) member() *request {
	m := *r
	m.work = work{}
	m.opt.Workers, m.opt.Symmetry, m.opt.Progress = 1, false, nil
	m.opt.Resume, m.opt.Checkpoint = nil, nil
	return &m
}

// memberOf is what a family's kept result records of a member whose check gave rep:
// its verdict and counts, certificate and collision bound, its messages as the
// algorithm's --msgs reads them, and for a violation its trace.
func memberOf(rep *props.Report, msgs string, covered int64) family.Member {
	return family.Member{Outcome: family.Outcome{Verdict: rep.Verdict, States: rep.Stats.States, Transitions: rep.Stats.Transitions},
		Covered: covered, CollisionBound: rep.Stats.CollisionBound, Certificate: rep.Certificate, Msgs: msgs, Trace: rep.Trace}
}

// familyLabel names a family run on the progress line: the family, the topology and,
// for one shard of several, the shard.
func familyLabel(name, topology string, sh family.Shard) string {
	l := fmt.Sprintf("%s on %s", name, topology)
	if sh.Count > 1 {
		l += ", shard " + sh.String()
	}
	return l
}
