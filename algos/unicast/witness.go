package unicast

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Witness returns the model and the trace of a violation r found on spec sp, from which
// props/render draws the last state and model/flitwire writes the capture: r's own when
// the search or the replay that produced r kept them (Result.Model, Result.Trace; then
// replayed is false), else rebuilt from sp and re-executed.
func Witness(sp Spec, r *Result) (m *flit.Model, tr checker.Trace[flit.State], replayed bool, err error) {
	if r.Model != nil && len(r.Trace.Steps) > 0 {
		return r.Model, r.Trace, false, nil
	}
	m, tr, err = ReplayWitness(sp, r)
	return m, tr, true, err
}

// ReplayWitness rebuilds the model of a violation r found on spec sp and re-executes
// its actions.
func ReplayWitness(sp Spec, r *Result) (*flit.Model, checker.Trace[flit.State], error) {
	g, err := sp.Grid()
	if err != nil {
		return nil, checker.Trace[flit.State]{}, err
	}
	m, err := BuildOn(g, sp)
	if err != nil {
		return nil, checker.Trace[flit.State]{}, err
	}
	tr, err := checker.Replay[flit.State](m, 0, r.Actions())
	if err != nil {
		return nil, checker.Trace[flit.State]{}, fmt.Errorf("witness: %v", err)
	}
	return m, tr, nil
}

// Titles returns the title and subtitle of r's picture: what it shows and the instance.
func Titles(sp Spec, r *Result) (string, string) {
	worms := sp.Worms()
	var net interface{ NodeName(topology.NodeID) string }
	if r.Model != nil {
		net = r.Model.Config().Net
	} else if g, err := sp.Grid(); err == nil {
		net = g
	}
	if net != nil {
		var parts []string
		for _, p := range sp.Pairs {
			parts = append(parts, net.NodeName(p.Src)+"->"+net.NodeName(p.Dst))
		}
		worms = strings.Join(parts, ", ")
	}
	title := fmt.Sprintf("unicast worms on %s: %s after %d steps", sp.Topology, violationWord(r), r.Trace.Len())
	if r.Kind.IsLasso() {
		title = fmt.Sprintf("unicast worms on %s: %s, %d steps then a cycle of %d repeated forever", sp.Topology, r.Kind, r.CycleStart, r.Trace.Len()-r.CycleStart)
	}
	return title,
		fmt.Sprintf("worms %s; L=%d flits, B=%d flits per buffer", worms, sp.Length, sp.Buffer)
}

// violationWord names a violation that is not a lasso for a title: "local deadlock",
// "deadlock" (global), or "violation" (an invariant).
func violationWord(r *Result) string {
	switch r.Kind {
	case checker.KindLocalDeadlock, checker.KindDeadlock:
		return strings.ReplaceAll(r.Kind.String(), "-", " ")
	case 0:
		return "deadlock" // a replayed trace, judged by its last state
	}
	return "violation"
}
