package multinode

import (
	"testing"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model"
)

// paper42Parts are the partitions of the §4.2/§4.4 comparison: every type with h = 4
// and h = 2 (delta = h/2 for Type III).
var paper42Parts = []partition.Params{
	{Type: partition.TypeI, H: 4},
	{Type: partition.TypeII, H: 4},
	{Type: partition.TypeIII, H: 4, Delta: 2},
	{Type: partition.TypeIV, H: 4},
	{Type: partition.TypeI, H: 2},
	{Type: partition.TypeII, H: 2},
	{Type: partition.TypeIII, H: 2, Delta: 1},
	{Type: partition.TypeIV, H: 2},
}

// TestPaper42 builds the §4.2-related instance (16x16 torus, 80 sources, 80 destinations
// each, hot-spot factor 50%) for every type, checks each schedule and logs the table.
//
// Reference: 001 §4.4, Figure 5a/10 set-up.
func TestPaper42(t *testing.T) {
	g, _ := model.NewTorus(16, 16)
	in, err := Generate(g, GenOptions{Sources: 80, Dests: 80, Hotspot: 0.5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Compare(in, paper42Parts, Centralised, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + Table(rows))
	for _, r := range rows {
		if r.Invalid != "" {
			t.Errorf("%s: invalid: %s", r.Scheme, r.Invalid)
		}
		// package props agrees with Check on validity and on which multicasts contend,
		// wherever it accepts the paths (Types III and IV go the DDN's way round).
		if r.Props.Refused == "" && (r.Props.Validity != "holds" || r.Props.StepwiseGroups != r.ContendedGroups) {
			t.Errorf("%s: props says %+v, Check %d contended multicasts", r.Scheme, r.Props, r.ContendedGroups)
		}
		if r.VCContendedGroups != 0 {
			t.Errorf("%s: %d multicasts contend per virtual channel", r.Scheme, r.VCContendedGroups)
		}
	}
}
