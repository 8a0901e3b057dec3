package cdg

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
)

// crossRelations returns the relations the cross-check decides on g: every built-in
// defined there and every routing file of the testdata written for g (or for any grid).
func crossRelations(t *testing.T, g *model.Grid) []routing.Relation {
	var rels []routing.Relation
	for _, name := range append(routing.Names()[:len(routing.Names())-1], "nonminimal:1") {
		if rel, err := routing.ByName(g, name); err == nil {
			rels = append(rels, rel)
		}
	}
	files, _ := filepath.Glob("../../model/routing/testdata/*.json")
	more, _ := filepath.Glob("testdata/*.json")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if rel, err := routing.ParseFile(data, g); err == nil {
			rels = append(rels, rel)
		}
	}
	return rels
}

// TestExactAgreesWithExplorer is the cross-check of the exact decision against the flit
// explorer. On meshes, tori and hypercubes, for every built-in and testdata routing
// file: a violation's configuration is realised (worm lengths as held, buffers of one
// flit), its saved trace replays to a deadlock, and the explorer itself finds a
// deadlock in the instance the configuration implies; where the decision holds, the
// explorer finds no deadlock in any placement of up to 3 worms on mesh:2x2, and with
// -short on mesh:3x2 of up to 2 worms and a sample of 3; without -short in every
// placement of up to 3 worms on up to 6 nodes, of up to 2 with a sample of 3 on larger
// networks, and in samples of 4- and 5-worm placements; L = 2, B = 1.
func TestExactAgreesWithExplorer(t *testing.T) {
	topos := []string{"mesh:2x2", "mesh:3x2"}
	if !testing.Short() {
		topos = append(topos, "mesh:3x3", "torus:3x3", "hypercube:3", "mesh:4x4", "torus:4x4", "hypercube:4")
	}
	var held, violated, instances int
	for _, topo := range topos {
		g, err := model.ParseGrid(topo)
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range crossRelations(t, g) {
			name := fmt.Sprintf("%s on %s", rel.Name(), topo)
			rr, err := ProveRelation(t.Context(), rel, DecideOptions{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			switch rr.Verdict {
			case props.Violated:
				violated++
				crossViolated(t, name, rr)
				t.Logf("%s: violated, %s", name, rr.Witness.Violation)
			case props.Holds:
				held++
				n := crossHolds(t, name, g, rel)
				instances += n
				t.Logf("%s: holds by %s, %d explorer instances without deadlock", name, rr.Decision.By, n)
			default:
				t.Errorf("%s: %s (%s)", name, rr.Verdict, rr.Reason)
			}
		}
	}
	t.Logf("%d relations held (%d explorer instances without deadlock), %d violated (each realised and replayed)", held, instances, violated)
}

// crossViolated checks a violation: realised by its own schedule, replayed from its
// saved trace to a deadlock, and found by the explorer in its instance.
func crossViolated(t *testing.T, name string, rr *Report) {
	t.Helper()
	real := rr.Realisation
	if real == nil || rr.Trace == nil {
		t.Errorf("%s: violated without a realisation", name)
		return
	}
	if !real.Scheduled {
		t.Errorf("%s: the configuration was not scheduled worm by worm", name)
	}
	tf, err := tracefile.Parse(unicast.TraceJSON(rr.Trace))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, res, err := unicast.ReplayTrace(tf); err != nil || res == nil || !strings.Contains(res.Violation, "deadlock") {
		t.Errorf("%s: replay: %+v, %v", name, res, err)
	}
	m, err := unicast.Build(real.Spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{MaxStates: 2_000_000, CheckDeadlock: true})
	switch {
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	case res.Verdict == checker.Inconclusive:
		// Unbudgeted non-minimal worms wander: the replay above is the confirmation.
		t.Logf("%s: the explorer did not finish %s within its bound", name, unicast.FormatPairs(real.Spec.Pairs))
	case res.Verdict != checker.Violated || res.Violation.Kind != checker.KindDeadlock:
		t.Errorf("%s: the explorer finds %v in %s", name, res.Verdict, unicast.FormatPairs(real.Spec.Pairs))
	}
}

// crossHolds checks a relation decided deadlock-free against the explorer and returns
// how many instances it checked.
func crossHolds(t *testing.T, name string, g *model.Grid, rel routing.Relation) int {
	t.Helper()
	fams := []unicast.Family{{MaxWorms: 2}}
	switch {
	case testing.Short() && g.Nodes() <= 4:
		fams = []unicast.Family{{MaxWorms: 3}}
	case testing.Short():
		// Every 3-worm placement on mesh:3x2 is about 5 thousand instances per relation:
		// all of 2 and a sample of 3 keep the tier within seconds.
		fams = []unicast.Family{{MaxWorms: 2}, {MaxWorms: 3, MinWorms: 3, Sample: 1000, Seed: 1}}
	case g.Nodes() <= 6:
		fams = []unicast.Family{{MaxWorms: 3}, {MaxWorms: 4, MinWorms: 4, Sample: 40, Seed: 1}, {MaxWorms: 5, MinWorms: 5, Sample: 20, Seed: 2}}
	default:
		// Every placement of 3 worms is 62 thousand instances per relation on 9 nodes
		// (minutes each) and 2.3 million on 16: all of 2, and samples of 3, 4 and 5.
		fams = []unicast.Family{{MaxWorms: 2}, {MaxWorms: 3, MinWorms: 3, Sample: 200, Seed: 1}, {MaxWorms: 4, MinWorms: 4, Sample: 40, Seed: 2}, {MaxWorms: 5, MinWorms: 5, Sample: 20, Seed: 3}}
	}
	n := 0
	for _, f := range fams {
		f.Topology, f.Params, f.Ports, f.Routing = g.Spec(), [][2]int{{2, 1}}, model.AllPort, rel
		if f.MinWorms == 0 {
			f.MinWorms = 1
		}
		f.MaxStates = 2_000_000
		r, err := f.Run(t.Context())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Violated > 0 {
			t.Errorf("%s: decided holds, but the explorer deadlocks %s", name, unicast.FormatPairs(r.FirstSpec.Pairs))
		}
		n += r.Instances
	}
	return n
}
