package cdg_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// analyze proves the built-in relation name on topology spec.
func analyze(t *testing.T, spec, name string) (*cdg.Result, routing.Relation) {
	t.Helper()
	g, err := model.ParseNetwork(spec)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	rel, err := routing.ByName(g, name)
	if err != nil {
		t.Fatalf("%s on %s: %v", name, spec, err)
	}
	res, err := cdg.Analyze(rel, cdg.Options{})
	if err != nil {
		t.Fatalf("%s on %s: %v", name, spec, err)
	}
	return res, rel
}

// TestAnynetRelations pins the static verdicts of the relations of irregular networks:
// up*/down* and fat-tree NCA are acyclic (AN1, AN4), shortest paths close a cycle on a
// ring (AN2), dragonfly minimal routing is cyclic on one VC and acyclic with its classes,
// as Valiant's with three (AN3), and a grid relation on a grid with failed links
// strands headers.
func TestAnynetRelations(t *testing.T) {
	acyclic := func(spec, name string, want bool) {
		t.Helper()
		res, _ := analyze(t, spec, name)
		if res.Acyclic != want || res.Stranded != nil {
			t.Errorf("%s on %s: acyclic %v, stranded %v; want acyclic %v", name, spec, res.Acyclic, res.Stranded, want)
		}
	}
	for seed := 1; seed <= 12; seed++ {
		acyclic(fmt.Sprintf("random:9,14,%d", seed), "updown", true)
		acyclic(fmt.Sprintf("random:9,14,%d", seed), fmt.Sprintf("updown:r%d", seed%9), true)
	}
	acyclic("mesh:6x6/faults=(1,1)-(2,1),(3,3)-(3,4),(4,0)-(4,1)", "updown", true)
	acyclic("file:../../model/testdata/topo/ring_chord.anynet", "updown", true)
	acyclic("file:../../model/testdata/topo/ring_chord.anynet", "shortest-path", false)
	acyclic("file:../../model/testdata/topo/ring6.dot", "shortest-path", false)
	for _, arr := range model.Arrangements {
		spec := "dragonfly:a=2,p=1,h=1,arrangement=" + arr
		acyclic(spec, "dragonfly-min", true)
		acyclic(spec, "dragonfly-valiant", true)
		acyclic(spec, "dragonfly-min-1vc", false)
	}
	acyclic("fattree:2,3", "fattree-nca", true)
	acyclic("fattree:4,2", "fattree-nca", true)
	res, _ := analyze(t, "mesh:4x4/faults=(1,1)-(2,1)", "dor")
	if res.Stranded == nil {
		t.Errorf("dor on a mesh with a failed link strands no header")
	}
	if res, _ := analyze(t, "mesh:4x4/faults=(1,1)-(2,1)", "west-first"); res.Stranded == nil {
		t.Errorf("west-first on a mesh with a failed link on a westward route strands no header")
	}
}

// TestAnynetStaticAgainstExplorer cross-checks the static verdict with the explorer on
// small irregular networks, as RT1-RT6 do on meshes: where the channel dependency graph
// is acyclic, no placement of up to two worms (length 2, one-flit buffers) deadlocks;
// and the cycle shortest paths close on a ring of four routers is a real deadlock the
// explorer finds.
func TestAnynetStaticAgainstExplorer(t *testing.T) {
	if testing.Short() {
		t.Skip("explores every placement of two worms on several networks")
	}
	for _, spec := range []string{"random:5,6,1", "random:5,6,2", "random:5,7,3", "random:6,7,4", "dragonfly:a=2,p=0,h=1", "mesh:3x3/faults=(1,1)-(2,1)"} {
		for _, name := range []string{"updown", "shortest-path"} {
			res, rel := analyze(t, spec, name)
			fam := unicast.Family{Topology: spec, MaxWorms: 2, Params: [][2]int{{2, 1}}, Routing: rel}
			fr, err := fam.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Acyclic && fr.Violated > 0 {
				t.Errorf("%s on %s: acyclic statically, but the explorer deadlocks %s", name, spec, unicast.FormatPairs(fr.FirstSpec.Pairs))
			}
			t.Logf("%s on %s: acyclic %v; explorer: %d instances, %d violated", name, spec, res.Acyclic, fr.Instances, fr.Violated)
		}
	}
	ring := "file:../../model/testdata/topo/ring4.dot"
	res, rel := analyze(t, ring, "shortest-path")
	if res.Acyclic {
		t.Fatalf("shortest-path on the ring %s is acyclic", ring)
	}
	fam := unicast.Family{Topology: ring, MaxWorms: 4, MinWorms: 4, Params: [][2]int{{2, 1}}, Routing: rel, StopAtViolation: true}
	fr, err := fam.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if fr.Violated == 0 || fr.First.Verdict != checker.Violated || !strings.Contains(fr.First.Violation, "deadlock") {
		t.Fatalf("shortest-path on %s: the explorer finds no deadlock of four worms (%d instances)", ring, fr.Instances)
	}
}

// TestReportPictures: a static report draws the certificate of an acyclic graph (every
// held channel numbered) and the realised deadlock of a violated relation, on irregular
// networks too.
func TestReportPictures(t *testing.T) {
	for _, tc := range []struct{ topo, routing, want string }{
		{"file:../../model/testdata/topo/ring_chord.anynet", "updown", "an acyclic channel dependency graph"},
		{"mesh:4x4", "west-first", "an acyclic channel dependency graph"},
		{"file:../../model/testdata/topo/ring6.dot", "shortest-path", "static decision, 1 VCs: violated"},
	} {
		rep, err := cdg.Prove(tc.topo, tc.routing, nil)
		if err != nil {
			t.Fatal(err)
		}
		svg, err := rep.SVG()
		if err != nil || !strings.Contains(string(svg), tc.want) {
			t.Errorf("%s on %s: picture %v lacks %q", tc.routing, tc.topo, err, tc.want)
		}
	}
}
