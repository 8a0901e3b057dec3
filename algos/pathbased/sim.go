package pathbased

import (
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// SimMulticast returns the simulator's multicast function for the path-based algorithm
// name on g ("dual-path", "multipath" or "pm"): each multicast becomes the worms the
// algorithm builds, as simulator routes with their drop points.
func SimMulticast(g *topology.Network, name string) (func(src topology.NodeID, dests []topology.NodeID) ([]sim.Route, error), error) {
	build, err := ByName(name)
	if err != nil {
		return nil, err
	}
	return func(src topology.NodeID, dests []topology.NodeID) ([]sim.Route, error) {
		worms, err := build(g, src, dests)
		if err != nil {
			return nil, err
		}
		out := make([]sim.Route, len(worms))
		for i, w := range worms {
			out[i] = sim.Route{Channels: w.Channels, Drops: w.Drops}
		}
		return out, nil
	}, nil
}
