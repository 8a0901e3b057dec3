package unicast

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// ReplayWitness re-executes a violation r found on spec sp and returns the model and its trace,
// from which props/render draws the last state and model/flitwire writes the capture.
func ReplayWitness(sp Spec, r *Result) (*flit.Model, checker.Trace[flit.State], error) {
	g, err := sp.Grid()
	if err != nil {
		return nil, checker.Trace[flit.State]{}, err
	}
	m, err := BuildOn(g, sp)
	if err != nil {
		return nil, checker.Trace[flit.State]{}, err
	}
	tr, err := checker.Replay[flit.State](m, 0, r.Actions)
	if err != nil {
		return nil, checker.Trace[flit.State]{}, fmt.Errorf("witness: %v", err)
	}
	return m, tr, nil
}

// Titles returns the title and subtitle of r's picture: what it shows and the instance.
func Titles(sp Spec, r *Result) (string, string) {
	worms := FormatPairs(sp.Pairs)
	if g, err := sp.Grid(); err == nil {
		var parts []string
		for _, p := range sp.Pairs {
			parts = append(parts, g.NodeName(p.Src)+"->"+g.NodeName(p.Dst))
		}
		worms = strings.Join(parts, ", ")
	}
	return fmt.Sprintf("unicast worms on %s: deadlock after %d steps", sp.Topology, len(r.Actions)),
		fmt.Sprintf("worms %s; L=%d flits, B=%d flits per buffer", worms, sp.Length, sp.Buffer)
}
