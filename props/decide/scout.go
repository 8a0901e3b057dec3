package decide

import (
	"context"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// The scout: a deadlock configuration first, before the exact search of the whole
// header-state space proves anything about its size.
//
// A configuration's worms head for some destinations, and each worm's route and its
// header's outputs lie in the header states toward its own destination. So the states
// toward a subset D of the destinations — every state a header from any source reaches
// toward each destination of D, with all its arcs — contain every configuration whose
// worms head for D, and a configuration found there is a configuration of the whole
// space: the same worms, the same routes, the same outputs held. The scout searches such
// sub-spaces, D growing around the destinations of the dependency cycle the sufficient
// conditions found (Result.Cycle, whose dependencies name the headers that make them):
// first those destinations, then every destination within 1, 2, 4, ... hops of them,
// until a configuration is found and accepted (realised), the sub-space passes a share
// of the header-state bound, or D is every destination (the exact search is next
// anyway). A deadlock of 4 worms round a square of a 64x64 mesh, say, lies in the
// states toward 4 destinations, a few hundred thousand states out of 33 million.
//
// Each sub-space is searched by probes of the exact search (decideSpace, probe): for at
// most scoutWorms worms on at most 8, 32 and scoutChannels channels, scoutProbeNodes
// search nodes each, the first configuration accepted taken. Nothing says it is small, so the exact search
// that follows looks for smaller ones (Options.NoScout turns the scout off).

// scoutWorms and scoutChannels bound the configurations the scout's probes look for:
// the probes then run within the corridors and chain bounds of the exact search
// (find.go), which a search with no bound on the channels goes without.
const (
	scoutWorms      = 12
	scoutChannels   = 128
	scoutProbeNodes = 1 << 15
)

// scoutShare: the scout's sub-spaces stay below 1/scoutShare of the header-state bound.
const scoutShare = 8

// scouted is what the scout found: a configuration (nil: none) and the destinations and
// header states of the last sub-space it searched.
type scouted struct {
	conf   *Configuration
	dests  int
	states int64
	nodes  int64 // the search nodes of every sub-space searched
}

// estimate returns the header states the whole space would hold at the last sub-space's
// states per destination (0: no sub-space searched).
func (s scouted) estimate(g *topology.Network) int64 {
	if s.dests == 0 {
		return 0
	}
	return s.states * int64(len(g.Endpoints())) / int64(s.dests)
}

// scout returns a configuration of rel found and accepted in a sub-space (scouted.conf
// nil when it found none: a bound, the context, or D grew to every destination).
// Refusals count in ref like the exact search's.
func scout(ctx context.Context, rel routing.Relation, res *cdg.Result, opt Options, ref *refusals) scouted {
	g := rel.Grid()
	seeds := scoutSeeds(res)
	if len(seeds) == 0 {
		return scouted{}
	}
	adj := make([][]topology.NodeID, g.Nodes())
	for c := range g.Channels() {
		ch := g.Channel(topology.ChannelID(c))
		adj[ch.From] = append(adj[ch.From], ch.To)
	}
	endpoints := len(g.Endpoints())
	sub := opt
	sub.MaxStates = max(1, opt.MaxStates/scoutShare)
	// The steps: around the first destination (a configuration near it is small),
	// then around all of them, each ball twice as wide as the one before. Within the
	// first three, which cost little, the smallest configuration found is kept (fewest
	// worms, then channels); past them the first.
	type step struct {
		seeds  []topology.NodeID
		radius int
	}
	steps := []step{{seeds[:1], 0}, {seeds[:1], 1}, {seeds[:1], 2}}
	for r := 0; r <= g.Nodes(); r = max(1, 2*r) {
		steps = append(steps, step{seeds, r})
	}
	var best scouted
	var last []bool
	nodes := int64(0)
	for i, st := range steps {
		if best.conf != nil && i >= 3 {
			break
		}
		dests, n := ball(g, adj, st.seeds, st.radius)
		if n == 0 || slices.Equal(dests, last) {
			continue // the sub-space of the step before
		}
		last = dests
		if n >= endpoints {
			break
		}
		var d Decision
		err := decideSpace(ctx, rel, &d, sub, ref, spaceSearch{dests: dests, probe: scoutWorms})
		nodes += d.Nodes
		if err != nil || stopped(ctx) != nil || ref.full() != nil || d.overStates {
			break // the next sub-space would be larger still
		}
		if c := d.Configuration; d.Verdict == props.Violated && (best.conf == nil || smaller(c, best.conf)) {
			best = scouted{conf: c, dests: n, states: d.States}
		}
	}
	best.nodes = nodes
	return best
}

// smaller reports whether a has fewer worms than b, or as many and fewer channels.
func smaller(a, b *Configuration) bool {
	if len(a.Worms) != len(b.Worms) {
		return len(a.Worms) < len(b.Worms)
	}
	return a.Channels < b.Channels
}

// scoutSeeds returns the destinations the dependencies of res's cycles name (and its
// stranded header's), in the order met.
func scoutSeeds(res *cdg.Result) []topology.NodeID {
	var seeds []topology.NodeID
	add := func(v topology.NodeID) {
		for _, s := range seeds {
			if s == v {
				return
			}
		}
		seeds = append(seeds, v)
	}
	if res.Stranded != nil {
		add(res.Stranded.Dst)
	}
	for _, dep := range res.Cycle {
		add(dep.Dst)
	}
	if res.Duato != nil {
		for _, dep := range res.Duato.Cycle {
			add(dep.Dst)
		}
	}
	return seeds
}

// ball returns the endpoints within radius hops of seeds (as a set over the nodes) and
// how many there are. Cost O(nodes + channels).
func ball(g *topology.Network, adj [][]topology.NodeID, seeds []topology.NodeID, radius int) ([]bool, int) {
	dist := make([]int, g.Nodes())
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]topology.NodeID, 0, len(seeds))
	for _, s := range seeds {
		if dist[s] < 0 {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	in := make([]bool, g.Nodes())
	n := 0
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		if g.Endpoint(v) {
			in[v] = true
			n++
		}
		if dist[v] == radius {
			continue
		}
		for _, w := range adj[v] {
			if dist[w] < 0 {
				dist[w] = dist[v] + 1
				queue = append(queue, w)
			}
		}
	}
	return in, n
}
