package proofs

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The flit claims (WH, TM, RT, MN) check their instances and families through the one
// entry's typed requests (check.Unicast, check.TreeMulticast, check.TwoPhase), as a
// user's test or `wormcheck check` would; a family is one request (its members are
// enumerated by algos and checked by the entry's family driver).

// memberStates bounds each member's search; a member that reaches it is inconclusive.
const memberStates = 2_000_000

// Notion is how a catalogue run checks the flit claims' deadlock properties: the zero
// Notion, as prove runs them (local deadlock, unreduced), or, for the soundness test
// that runs the same claims under each notion and compares (TestDeadlockNotionsAgree),
// Global (a state where nothing moves: "deadlock" checked as "global-deadlock") or
// Reduction (every instance explored with partial-order reduction where its algorithm
// has it, deciding it alone: check.Options.ReducedOnly).
type Notion struct {
	Global, Reduction bool
}

// Trail records the flit checks of a run, for tests that compare two runs: per check
// the verdict of every member (a single instance is member 0) and the length of its
// (shortest) witness, keyed by the instance and property of a single check, by claim,
// family and rank among the family's family checks for a family ("global-deadlock"
// counted as "deadlock", so that notions meet). Safe for concurrent use.
type Trail struct {
	mu     sync.Mutex
	Checks map[string]TrailCheck
	seq    map[string]int
}

// TrailCheck is one check of a Trail: each member's verdict by index, and the length of
// the witness (the shortest, for a family; 0 without one).
type TrailCheck struct {
	Members map[int]props.Verdict
	Steps   int
}

// record adds the check prop of rep, made by env's claim and family, to t (nil:
// nothing is recorded).
func (t *Trail) record(env Env, prop checker.Property, rep *props.Report) {
	if t == nil {
		return
	}
	if prop == checker.PropGlobalDeadlock {
		prop = checker.PropDeadlock
	}
	in, _ := json.Marshal(rep.Instance) // encoding/json sorts the parameters
	key := fmt.Sprintf("%s %s", in, prop)
	c := TrailCheck{Members: map[int]props.Verdict{}}
	if rep.Trace != nil {
		c.Steps = len(rep.Trace.Actions)
	}
	if f := rep.Family; f != nil {
		for _, m := range f.Checked {
			c.Members[m.Index] = m.Verdict
		}
	} else {
		c.Members[0] = rep.Verdict
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.Checks == nil {
		t.Checks, t.seq = map[string]TrailCheck{}, map[string]int{}
	}
	if rep.Family != nil {
		// A violated family's report is its witness member's: the family is named by
		// where it was checked.
		at := env.Claim + "/" + env.Family
		key = fmt.Sprintf("%s #%d %s", at, t.seq[at], prop)
		t.seq[at]++
	}
	t.Checks[key] = c
}

// flitRequest is a typed request of the entry in the flit semantics: check.Unicast,
// check.TreeMulticast or check.TwoPhase.
type flitRequest interface {
	Check(ctx context.Context, property checker.Property, opt check.Options) (*props.Report, error)
}

// flitCheck checks req for prop, a flit deadlock check of the WH, TM, RT and MN claims,
// under the run's deadlock notion, counting a family's members on the progress meter
// and recording the check in the run's trail.
func (env Env) flitCheck(ctx context.Context, req flitRequest, prop checker.Property, opt check.Options) (*props.Report, error) {
	if env.Notion.Global && prop == checker.PropDeadlock {
		prop = checker.PropGlobalDeadlock
	}
	opt.Reduction, opt.ReducedOnly = env.Notion.Reduction, env.Notion.Reduction
	if env.Meter != nil {
		opt.Meter = env.Meter
	}
	rep, err := req.Check(ctx, prop, opt)
	if err == nil {
		env.Trail.record(env, prop, rep)
	}
	return rep, err
}
