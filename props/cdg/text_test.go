package cdg

import (
	"strings"
	"testing"
)

// TestTextAndWitness checks the text report and the witness of a cyclic relation (the
// 4-cycle of minimal adaptive routing on a 2x2 mesh closes with four turns), of a
// proved one (no witness) and of Duato's relation (cyclic CDG, proof by Duato).
func TestTextAndWitness(t *testing.T) {
	r := analyze(t, "mesh:2x2", "adaptive")
	w := r.Witness()
	if w == nil || w.Kind != "cycle" || len(w.Cycle) != 4 || r.Verdict().String() != "inconclusive" {
		t.Fatalf("adaptive 2x2: verdict %v witness %+v", r.Verdict(), w)
	}
	for i, e := range w.Cycle {
		if e.Holder != (i+1)%4 || !strings.Contains(e.Turn, "->") {
			t.Errorf("edge %d: %+v", i, e)
		}
	}
	var b strings.Builder
	r.WriteText(&b)
	if !strings.Contains(b.String(), "cyclic (not a proof of deadlock)") || !strings.Contains(b.String(), "east->north") && !strings.Contains(b.String(), "north->west") {
		t.Errorf("text:\n%s", b.String())
	}
	if r := analyze(t, "mesh:4x4", "west-first"); r.Witness() != nil || r.Verdict().String() != "holds" {
		t.Errorf("west-first: %v %+v", r.Verdict(), r.Witness())
	}
	r = analyze(t, "torus:4x4", "duato")
	b.Reset()
	r.WriteText(&b)
	if r.Verdict().String() != "holds" || r.CDGWitness() == nil || !strings.Contains(b.String(), "extended dependency graph acyclic") {
		t.Errorf("duato torus:\n%s", b.String())
	}
	t.Log(b.String())
}
