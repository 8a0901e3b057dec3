package analytic

import (
	"fmt"
	"math"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Traffic describes the simulated traffic a latency model is put beside: the network,
// its port model and virtual channels, the message length and software latencies, and
// the offered traffic (messages per node per cycle and the broadcast, multicast and
// hot-spot fractions).
type Traffic struct {
	Grid      *topology.Network
	Ports     model.PortModel
	VCs       int // virtual channels per physical channel
	Length    int // flits per message
	Ts, Tr    int // software send and receive latencies (cycles)
	Rate      float64
	Broadcast float64
	Multicast float64
	HotSpot   float64
	// Route, when set, gives the route of a worm between two endpoints, as the simulator's
	// worms take it (checker/sim Config.Relation and Selection); the zero-load latency then
	// averages its lengths (MeanRouteHops) instead of the grid's distances.
	Route func(src, dst topology.NodeID) ([]topology.Hop, error)
}

// Estimate is a model's mean latencies (cycles), or the reason it has no answer.
type Estimate struct {
	Name      string  `json:"name"`
	Unicast   float64 `json:"unicast"`
	Broadcast float64 `json:"broadcast,omitempty"`
	Err       string  `json:"error,omitempty"`
}

// LatencyModel picks the model that applies to t and evaluates it: 003's hypercube model
// (HypercubeLatency) for all-port hypercubes with uniform unicast and broadcast traffic,
// otherwise the zero-load unicast latency ts + h̄ + L + tr, with h̄ the mean distance
// between distinct nodes. Cost O(Σ_d k_d²) for a grid with sizes k_d (MeanDistance), so
// it stays cheap on a 1024x1024 torus.
//
// Reference: 003 eqs. 1-33 (hypercube model).
func LatencyModel(t Traffic) Estimate {
	g := t.Grid
	if t.Route != nil {
		h, err := MeanRouteHops(g, t.Route)
		if err != nil {
			return Estimate{Name: "zero-load latency", Unicast: math.NaN(), Err: err.Error()}
		}
		return Estimate{Name: "zero-load latency", Unicast: float64(t.Ts) + h + float64(t.Length) + float64(t.Tr)}
	}
	if g.Kind() == topology.Hypercube && t.Multicast == 0 && t.HotSpot == 0 && t.Ports == model.AllPort {
		r, err := HypercubeLatency(HypercubeParams{N: g.Dims(), V: max(t.VCs, 1), M: t.Length,
			B: t.Broadcast, Rate: t.Rate, Delta: float64(t.Ts)})
		if err != nil {
			return Estimate{Name: "003 model", Unicast: math.NaN(), Broadcast: math.NaN(), Err: err.Error()}
		}
		return Estimate{Name: "003 model", Unicast: r.Unicast + float64(t.Tr), Broadcast: r.Broadcast}
	}
	return Estimate{Name: "zero-load latency", Unicast: float64(t.Ts) + MeanDistance(g) + float64(t.Length) + float64(t.Tr)}
}

// MeanDistance is the mean routing distance between two distinct nodes of g. Distance
// is a sum over dimensions of the offset in that dimension, and each coordinate pair
// (i, j) of dimension d occurs (N/k_d)² times among all N² ordered node pairs, so
//
//	Σ_{a≠b} dist(a,b) = Σ_d (N/k_d)² Σ_{i,j<k_d} offset_d(i,j)
//
// in O(Σ_d k_d²) instead of O(N²); the sums are integers, so the result equals the
// direct mean exactly. A single-node grid has mean distance 0.
func MeanDistance(g *topology.Network) float64 {
	n := int64(g.Nodes())
	if n < 2 {
		return 0
	}
	var total float64
	coords := make([]int, g.Dims())
	for d := 0; d < g.Dims(); d++ {
		k := g.Size(d)
		var s int64
		for i := 0; i < k; i++ {
			coords[d] = i
			a := g.Node(coords...)
			for j := 0; j < k; j++ {
				coords[d] = j
				h, _ := g.Offset(a, g.Node(coords...), d)
				s += int64(h)
			}
		}
		coords[d] = 0
		r := n / int64(k)
		total += float64(s) * float64(r) * float64(r)
	}
	return total / (float64(n) * float64(n-1))
}

// maxRoutePairs bounds the endpoint pairs MeanRouteHops routes (about a second).
const maxRoutePairs = 1 << 20

// MeanRouteHops is the mean length of the routes route gives (those the simulator's
// worms take) over the ordered pairs of distinct endpoints of g (topology.Network.Endpoints:
// its terminals, when it has them). It fails where route fails and on more than 2^20
// pairs. Cost O(pairs x cost of route).
func MeanRouteHops(g *topology.Network, route func(src, dst topology.NodeID) ([]topology.Hop, error)) (float64, error) {
	ends := g.Endpoints()
	e := int64(len(ends))
	if e < 2 {
		return 0, nil
	}
	if pairs := e * (e - 1); pairs > maxRoutePairs {
		return math.NaN(), fmt.Errorf("%d endpoint pairs are more than the %d whose routes the model averages", pairs, maxRoutePairs)
	}
	var sum int64
	for _, s := range ends {
		for _, d := range ends {
			if s == d {
				continue
			}
			hops, err := route(s, d)
			if err != nil {
				return math.NaN(), err
			}
			sum += int64(len(hops))
		}
	}
	return float64(sum) / float64(e*(e-1)), nil
}
