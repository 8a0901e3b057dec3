package subnetworks

import (
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// TestPartition reports Type II on torus:8x8 with h = 4: node level 1 and link level h
// (001 Lemma 2), 16 DDNs and 4 DCNs, every property held, the partition as evidence; bad input names its field.
func TestPartition(t *testing.T) {
	rep, err := Partition(Spec{Topology: "torus:8x8", Type: "II", H: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Holds || rep.NodeLevel != 1 || rep.LinkLevel != 4 || rep.Subnetworks != 16 || rep.DCNs != 4 || rep.Evidence == nil || len(rep.Evidence.DDNs) != 16 || len(rep.Evidence.DCNs) != 4 {
		t.Fatalf("%s", rep.Text())
	}
	for _, c := range []struct {
		spec Spec
		says string
	}{
		{Spec{Topology: "torus:8x8", H: 4}, "Spec.Type"},
		{Spec{Topology: "torus:8x8", Type: "II"}, "Spec.H"},
		{Spec{Type: "II", H: 4}, "Spec.Topology"},
		{Spec{Topology: "torus:0x8", Type: "II", H: 4}, "Spec.Topology"},
		{Spec{Topology: "torus:8x8", Type: "V", H: 4}, "Spec.Type"},
	} {
		if _, err := Partition(c.spec); !errors.Is(err, props.ErrBadInput) || !strings.HasPrefix(err.Error(), c.says) || strings.Contains(err.Error(), "--") {
			t.Errorf("%+v: %v; want bad input naming %s", c.spec, err, c.says)
		}
	}
}

// TestLevelsViolated: Type IV with odd h misses Table 1's h/2 (Lemma 4 needs an even h),
// and the witness says so.
func TestLevelsViolated(t *testing.T) {
	g, err := topology.Parse("torus:3x3")
	if err != nil {
		t.Fatal(err)
	}
	p := partition.Params{Type: partition.TypeIV, H: 3}
	ddns, err := partition.DDNs(g, p)
	if err != nil {
		t.Fatal(err)
	}
	rep := &props.Report{Verdict: props.Holds}
	Levels(g, p, ddns, rep)
	w, _ := rep.Witness.Detail.(*LevelWitness)
	if rep.Verdict != props.Violated || w == nil || !strings.Contains(rep.Witness.Violation, "even h") {
		t.Fatalf("%s: %+v", rep.Verdict, rep.Witness)
	}
}

// TestPartitionEvidenceShowsViolation: directed Type IV DDNs on a mesh are not
// isomorphic (P4) and the partition's evidence is marked violated with the two DDNs;
// a partition that holds has neither. Reference: 001 §3.2.
func TestPartitionEvidenceShowsViolation(t *testing.T) {
	rep, err := Partition(Spec{Topology: "mesh:8x8", Type: "IV", H: 2})
	if err != nil {
		t.Fatal(err)
	}
	if ev := rep.Evidence; rep.Verdict != props.Violated || !ev.Violated || len(ev.HotSubnetworks) != 2 {
		t.Errorf("%s: the evidence does not show the violation: %+v", rep.Verdict, ev)
	}
	ok, err := Partition(Spec{Topology: "torus:8x8", Type: "II", H: 4})
	if err != nil {
		t.Fatal(err)
	}
	if ev := ok.Evidence; ev.Violated || len(ev.HotSubnetworks)+len(ev.HotChannels)+len(ev.Pair) > 0 {
		t.Errorf("a partition that holds is marked violated: %+v", ev)
	}
}
