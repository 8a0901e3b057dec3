package render

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// ChannelCycle draws a cycle of channels on a 1-D or 2-D mesh or torus in StaticCycle's
// style: labels[i] is the turn that leads on from channel i (may be shorter than cycle),
// title says what the cycle is of. It is StaticCycle for callers that hold channel ids
// rather than a witness. Output is deterministic.
func ChannelCycle(g *topology.Network, cycle []topology.ChannelID, labels []string, title string) ([]byte, error) {
	if err := drawableNetwork(g); err != nil {
		return nil, err
	}
	w := &props.Witness{Kind: props.WitnessCycle}
	for i, c := range cycle {
		if c < 0 || int(c) >= g.Channels() {
			return nil, fmt.Errorf("render: channel %d is not a channel of %s", c, g.Spec())
		}
		e := props.CycleEdge{Message: i, Channel: g.ChannelName(c), Holder: (i + 1) % len(cycle)}
		if i < len(labels) {
			e.Turn = labels[i]
		}
		w.Cycle = append(w.Cycle, e)
	}
	return StaticCycle(g, w, title, "")
}
