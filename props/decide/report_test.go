package decide

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// TestProveVerdictsPictureAndJSON checks the static routing proof of a relation: west-first holds on a mesh (no cycle to draw), fully adaptive routing deadlocks
// with four worms on four channels (violated, realised, drawn), Duato's condition proves the torus relation
// whose CDG is cyclic (the CDG's cycle is still reported), and the JSON encoding puts the
// analysis after the report's fields.
func TestProveVerdictsPictureAndJSON(t *testing.T) {
	wf, err := Prove(t.Context(), "mesh:8x8", "west-first", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if wf.Verdict != checker.Holds || wf.Semantics != "static" || wf.Stats.States == 0 {
		t.Errorf("west-first: %s, %s, %d states", wf.Verdict, wf.Semantics, wf.Stats.States)
	}
	if ev, ok := wf.Evidence.(*props.RanksEvidence); !ok || len(ev.Ranks) == 0 || !strings.Contains(ev.Title, "an acyclic channel dependency graph") {
		t.Errorf("west-first evidence (the rank certificate): %+v", wf.Evidence)
	}
	var b strings.Builder
	wf.WriteText(&b)
	if !strings.HasSuffix(b.String(), "s\n") || !strings.Contains(b.String(), "west-first") {
		t.Errorf("text:\n%s", b.String())
	}

	ad, err := Prove(t.Context(), "mesh:4x4", "adaptive", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if ad.Verdict != checker.Violated || ad.Witness == nil || ad.Witness.Kind != props.WitnessConfiguration || ad.Trace == nil {
		t.Fatalf("adaptive: %s, witness %v", ad.Verdict, ad.Witness)
	}
	if c := ad.Witness.Configuration; c == nil || len(c.Worms) != 4 || c.Channels != 4 || !c.Minimal || len(ad.Witness.Steps) != 4 {
		t.Errorf("adaptive: configuration %+v, %d steps; want 4 worms on 4 channels, minimal, 4 moves", c, len(ad.Witness.Steps))
	}
	if ev, ok := ad.Evidence.(*props.FlitEvidence); !ok || len(ev.Trace.Steps) != len(ad.Witness.Steps)+1 {
		t.Errorf("adaptive evidence: %+v; want the realised moves", ad.Evidence)
	}

	du, err := Prove(t.Context(), "torus:4x4", "duato", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if du.Verdict != checker.Holds || du.CDGWitness == nil {
		t.Errorf("duato: %s, CDG witness %v", du.Verdict, du.CDGWitness)
	}
	// Its evidence is the CDG's cycle, proven harmless: the verdict in the title, why
	// beside it.
	if ev, ok := du.Evidence.(*props.CycleEvidence); !ok || !strings.Contains(ev.Title, "duato on torus:4x4: holds") || !strings.Contains(ev.Proven, "Duato") {
		t.Errorf("duato evidence: %+v; want a proven cycle under a holds title", du.Evidence)
	}
	data, err := json.Marshal(du)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if i, j, k := strings.Index(s, `"verdict"`), strings.Index(s, `"analysis"`), strings.Index(s, `"cdg_witness"`); i < 0 || j < i || k < j {
		t.Errorf("JSON keys out of order: %s", s)
	}
}

// TestProveBadInput names the argument at fault in Go terms, as bad input.
func TestProveBadInput(t *testing.T) {
	for _, c := range []struct{ topo, spec, says string }{
		{"mesh:0x3", "west-first", `topology "mesh:0x3": `},
		{"", "west-first", "routing west-first: a built-in routing needs a topology"},
		{"mesh:4x4", "no-such-routing", "routing no-such-routing: "},
	} {
		_, err := Prove(t.Context(), c.topo, c.spec, os.ReadFile)
		if !errors.Is(err, props.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q on %q: %v; want bad input saying %q", c.spec, c.topo, err, c.says)
		}
	}
}

// TestHeaderStatesWithin: the command line's header-state bound follows its memory
// budget (the default without one), between 2^12 and 2^28, and ProveWith passes it on
// (a bound of 100 states stops mesh:4x4 adaptive, whose search needs more).
func TestHeaderStatesWithin(t *testing.T) {
	for _, c := range []struct{ bytes, want int64 }{
		{0, defaultMaxStates}, {1 << 10, 1 << 12}, {200 << 20, 1 << 20}, {200 << 23, defaultMaxStates},
		{200 << 25, 1 << 25}, {1 << 50, 1 << 28},
	} {
		if got := HeaderStatesWithin(c.bytes); got != c.want {
			t.Errorf("HeaderStatesWithin(%d) = %d, want %d", c.bytes, got, c.want)
		}
	}
	rep, err := ProveWith(t.Context(), "mesh:4x4", "adaptive", nil, Options{MaxStates: 100})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive || !strings.Contains(rep.Reason, "(bound 100)") {
		t.Fatalf("%s: %s; want inconclusive at the bound of 100 header states", rep.Verdict, rep.Reason)
	}
}
