package multinode

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Selection says how Phase 1 picks each multicast's DDN and representative r_i.
type Selection uint8

// The Phase 1 policies of 001 §4.1.
const (
	// Centralised processes the DCNs one by one; the sources in a DCN are dealt to the
	// DDNs round-robin, starting from the DDNs that have received fewer multicasts so far,
	// and within a DDN to its nodes in that DCN round-robin ("HT B" in §4.4).
	Centralised Selection = iota
	// Random lets each source pick a DDN uniformly at random (seeded) and a random node of
	// it inside its own DCN.
	Random
	// Own skips Phase 1: each source is its own representative. Only Types II and IV,
	// whose DDNs cover every node, allow it ("HT" without B).
	Own
)

var selectionNames = [...]string{"centralised", "random", "own"}

// String returns "centralised", "random" or "own".
func (s Selection) String() string {
	if int(s) < len(selectionNames) {
		return selectionNames[s]
	}
	return fmt.Sprintf("Selection(%d)", s)
}

// ParseSelection reads a Selection name.
func ParseSelection(s string) (Selection, error) {
	for i, n := range selectionNames {
		if s == n {
			return Selection(i), nil
		}
	}
	return 0, fmt.Errorf("selection %q is unknown; use centralised, random or own", s)
}

// Options configure Build.
type Options struct {
	Partition partition.Params
	Select    Selection
	// Phase2 is the chain used inside the DDN: UTorus (the default; SPU on a mesh) or UMesh.
	Phase2 Chain
	Seed   uint64 // for Random
}

// Plan is a built three-phase multicast: the schedule and, aligned with its unicasts,
// the phase of each; per multicast the chosen DDN, representative and DCN
// representatives; and the subnetworks used.
type Plan struct {
	Schedule model.Schedule
	Phase    []uint8 // Phase[k] is 1, 2 or 3 for Schedule.Unicasts[k]
	DDN      []int   // DDN[i] indexes DDNs for multicast i
	Rep      []topology.NodeID
	DCNReps  [][]topology.NodeID // D_i' of §2.3 without r_i (which represents its own DCN), ascending
	Dests    [][]topology.NodeID // D_i without s_i, ascending: what Check requires delivered
	DDNs     []partition.Subnetwork
	DCNs     []partition.Subnetwork
}

// unit is a unicast under construction.
type unit struct {
	u     model.Unicast
	group int
	phase uint8
}

// Build constructs the three-phase multi-node multicast of 001 §2.3/§4 for in. Directed
// DDN types need every DDN strongly connected (true on a torus with sides >= 3, false on
// a mesh: §3.2), and Build refuses them otherwise, naming the unreachable pair.
//
// Reference: 001 §2.3 (Phases 1-3), §4.1 (Phase 1 policies), §4.2-§4.3, §5.1.
func Build(in Instance, opt Options) (*Plan, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	ddns, dcns, common, err := subnetworks(in.Grid, opt)
	if err != nil {
		return nil, err
	}
	m := len(in.Multicasts)
	p := &Plan{DDN: make([]int, m), Rep: make([]topology.NodeID, m), DCNReps: make([][]topology.NodeID, m),
		Dests: make([][]topology.NodeID, m), DDNs: ddns, DCNs: dcns}
	if err := selectRepresentatives(in, opt, p, common); err != nil {
		return nil, err
	}
	var units []unit
	for i := range in.Multicasts {
		us, err := phases(in, opt, p, common, i)
		if err != nil {
			return nil, err
		}
		units = append(units, us...)
	}
	p.Schedule, p.Phase = assemble(in.Grid, in, units)
	// A directed DDN's worms go its way round each ring, which is not always the shortest
	// way: the schedule gives its paths explicitly (model.Schedule.Explicit), so that
	// model.Schedule.Check, package props and schedule files accept them as walks.
	p.Schedule.Explicit = opt.Partition.Type.Directed()
	return p, nil
}

// subnetworks builds the DDNs and DCNs of opt's partition on g, and common[a][b], the
// nodes of DDN a in DCN b, ascending (never empty, by P3); a directed DDN that is not
// strongly connected, and a selection that needs every node in a DDN on a type that
// does not give it, are refused.
func subnetworks(g *topology.Network, opt Options) (ddns, dcns []partition.Subnetwork, common [][][]topology.NodeID, err error) {
	if ddns, err = partition.DDNs(g, opt.Partition); err != nil {
		return nil, nil, nil, err
	}
	if dcns, err = partition.DCNs(g, opt.Partition.H); err != nil {
		return nil, nil, nil, err
	}
	if opt.Partition.Type.Directed() {
		for _, s := range ddns {
			if r := partition.StronglyConnected(g, s); !r.Connected {
				return nil, nil, nil, fmt.Errorf("multinode: %v on %s: DDN %s is not strongly connected (%s cannot reach %s)", opt.Partition, g.Spec(), s.Name, g.NodeName(r.From), g.NodeName(r.To))
			}
		}
	}
	if opt.Select == Own && !(opt.Partition.Type == partition.TypeII || opt.Partition.Type == partition.TypeIV) {
		return nil, nil, nil, fmt.Errorf("multinode: selection own needs Type II or IV (every node in a DDN); type is %v", opt.Partition.Type)
	}
	common = partition.Intersections(ddns, dcns)
	for a := range ddns {
		for b := range dcns {
			if len(common[a][b]) == 0 {
				return nil, nil, nil, fmt.Errorf("multinode: %s and %s share no node (P3 fails)", ddns[a].Name, dcns[b].Name)
			}
		}
	}
	return ddns, dcns, common, nil
}

// selectRepresentatives is phase 1's choice: for every multicast the DDN that carries
// it and its representative there (p.DDN, p.Rep), by opt.Select: centralised (the
// least loaded DDNs first, round robin over the common nodes), random (seeded) or the
// source's own DDN.
func selectRepresentatives(in Instance, opt Options, p *Plan, common [][][]topology.NodeID) error {
	g, h := in.Grid, opt.Partition.H
	ddns, dcns := p.DDNs, p.DCNs
	switch opt.Select {
	case Centralised:
		load := make([]int, len(ddns))
		next := make([][]int, len(ddns)) // round-robin counter per (DDN, DCN)
		for a := range next {
			next[a] = make([]int, len(dcns))
		}
		for b := range dcns {
			order := make([]int, len(ddns))
			for a := range order {
				order[a] = a
			}
			slices.SortStableFunc(order, func(x, y int) int { return load[x] - load[y] })
			k := 0
			for i, mc := range in.Multicasts {
				if partition.DCNOf(g, h, mc.Source) != b {
					continue
				}
				a := order[k%len(order)]
				k++
				c := common[a][b]
				p.DDN[i], p.Rep[i] = a, c[next[a][b]%len(c)]
				next[a][b]++
				load[a]++
			}
		}
	case Random:
		rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x2545f4914f6cdd1d))
		for i, mc := range in.Multicasts {
			a := rng.IntN(len(ddns))
			c := common[a][partition.DCNOf(g, h, mc.Source)]
			p.DDN[i], p.Rep[i] = a, c[rng.IntN(len(c))]
		}
	case Own:
		for i, mc := range in.Multicasts {
			a := slices.IndexFunc(ddns, func(s partition.Subnetwork) bool { return s.HasNode(mc.Source) })
			if a < 0 {
				return fmt.Errorf("multinode: source %s is in no DDN", g.NodeName(mc.Source))
			}
			p.DDN[i], p.Rep[i] = a, mc.Source
		}
	default:
		return fmt.Errorf("multinode: selection %d is unknown", opt.Select)
	}
	return nil
}

// phases are the unicasts of multicast i (its destinations go to p.Dests[i], its DCN
// representatives to p.DCNReps[i]): phase 1 from the source to its representative in
// its own DCN, phase 2 a chain in the DDN to one representative per DCN that holds
// destinations, phase 3 a U-mesh in every such DCN from its representative.
func phases(in Instance, opt Options, p *Plan, common [][][]topology.NodeID, i int) ([]unit, error) {
	g, h, mc := in.Grid, opt.Partition.H, in.Multicasts[i]
	a, r := p.DDN[i], p.Rep[i]
	ddn, dcns := p.DDNs[a], p.DCNs
	dor := topology.NewDOR(g)
	dests := withoutSource(mc)
	p.Dests[i] = dests
	if len(dests) == 0 {
		return nil, nil // nothing to deliver: no phase at all
	}
	var units []unit
	p1 := 0
	if r != mc.Source {
		path := dor.Path(mc.Source, r)
		if err := inside(g, dcns[partition.DCNOf(g, h, mc.Source)], mc.Source, r, path); err != nil {
			return nil, fmt.Errorf("multinode: multicast %d phase 1: %v", i, err)
		}
		units = append(units, unit{model.Unicast{From: mc.Source, To: r, Path: path, Step: 1}, i, 1})
		p1 = 1
	}
	// Phase 2 destinations: one representative per DCN holding destinations.
	byDCN := make([][]topology.NodeID, len(dcns))
	for _, d := range dests {
		b := partition.DCNOf(g, h, d)
		byDCN[b] = append(byDCN[b], d)
	}
	repOf := make([]topology.NodeID, len(dcns))
	var reps []topology.NodeID
	for b, ds := range byDCN {
		if len(ds) == 0 {
			continue
		}
		c := common[a][b]
		d := c[0]
		if partition.DCNOf(g, h, r) == b {
			d = r
		} else if k := slices.IndexFunc(c, func(v topology.NodeID) bool { _, ok := slices.BinarySearch(ds, v); return ok }); k >= 0 {
			d = c[k]
		}
		repOf[b] = d
		if d != r {
			reps = append(reps, d)
		}
	}
	slices.Sort(reps)
	p.DCNReps[i] = reps
	k2 := 0
	for _, s := range chainSends(g, opt.Phase2, r, reps, ddn.Orientation == partition.Negative) {
		path, err := subnetPath(g, dor, ddn, s.From, s.To)
		if err != nil {
			return nil, fmt.Errorf("multinode: multicast %d phase 2: %v", i, err)
		}
		units = append(units, unit{model.Unicast{From: s.From, To: s.To, Path: path, Step: p1 + s.Step}, i, 2})
		k2 = max(k2, s.Step)
	}
	// Phase 3: U-mesh in every DCN from its representative.
	for b, ds := range byDCN {
		if len(ds) == 0 {
			continue
		}
		for _, s := range chainSends(g, UMesh, repOf[b], ds, false) {
			path := dor.Path(s.From, s.To)
			if err := inside(g, dcns[b], s.From, s.To, path); err != nil {
				return nil, fmt.Errorf("multinode: multicast %d phase 3: %v", i, err)
			}
			units = append(units, unit{model.Unicast{From: s.From, To: s.To, Path: path, Step: p1 + k2 + s.Step}, i, 3})
		}
	}
	return units, nil
}

// assemble orders the unicasts by step, sender and group, numbers each sender's sends
// per multicast (Order) and fills the schedule.
func assemble(g *topology.Network, in Instance, units []unit) (model.Schedule, []uint8) {
	slices.SortStableFunc(units, func(x, y unit) int {
		if x.u.Step != y.u.Step {
			return x.u.Step - y.u.Step
		}
		if x.u.From != y.u.From {
			return int(x.u.From - y.u.From)
		}
		return x.group - y.group
	})
	type key struct {
		g int
		v topology.NodeID
	}
	order := map[key]int{}
	s := model.Schedule{Topology: g, Ports: model.OnePort}
	phase := make([]uint8, len(units))
	var all []topology.NodeID
	for _, mc := range in.Multicasts {
		s.Sources = append(s.Sources, mc.Source)
		all = append(all, mc.Dests...)
		s.GroupDestinations = append(s.GroupDestinations, withoutSource(mc))
	}
	slices.Sort(all)
	s.Destinations = slices.Compact(all)
	for k, u := range units {
		kk := key{u.group, u.u.From}
		order[kk]++
		u.u.Order = order[kk]
		s.Unicasts = append(s.Unicasts, u.u)
		s.Group = append(s.Group, u.group)
		phase[k] = u.phase
	}
	return s, phase
}

// subnetPath routes from u to w inside subnetwork s: the network's DOR path when s is
// undirected, else dimension order going s's way round every ring. The path must use
// only s's channels.
func subnetPath(g *topology.Network, dor topology.DOR, s partition.Subnetwork, u, w topology.NodeID) ([]topology.ChannelID, error) {
	var path []topology.ChannelID
	if s.Orientation == partition.Undirected {
		path = dor.Path(u, w)
	} else {
		dir := topology.Plus
		if s.Orientation == partition.Negative {
			dir = topology.Minus
		}
		cur := u
		for d := 0; d < g.Dims(); d++ {
			for g.Coord(cur, d) != g.Coord(w, d) {
				c, next := g.Neighbor(cur, d, dir)
				if c == topology.None {
					return nil, fmt.Errorf("no %v channel leaves %s along dimension %d on the way to %s", dir, g.NodeName(cur), d, g.NodeName(w))
				}
				path = append(path, c)
				cur = next
				if len(path) > g.Nodes() {
					return nil, fmt.Errorf("route from %s to %s does not end", g.NodeName(u), g.NodeName(w))
				}
			}
		}
	}
	return path, inside(g, s, u, w, path)
}

// inside checks that path leads from u to w over channels of s only.
func inside(g *topology.Network, s partition.Subnetwork, u, w topology.NodeID, path []topology.ChannelID) error {
	if err := walk(g, u, w, path); err != nil {
		return err
	}
	for _, c := range path {
		if !s.HasChannel(c) {
			return fmt.Errorf("path %s -> %s leaves %s at channel %s", g.NodeName(u), g.NodeName(w), s.Name, g.ChannelName(c))
		}
	}
	return nil
}

// walk checks that path is a chain of channels from u to w.
func walk(g *topology.Network, u, w topology.NodeID, path []topology.ChannelID) error {
	cur := u
	for i, c := range path {
		if c < 0 || int(c) >= g.Channels() {
			return fmt.Errorf("path %s -> %s: hop %d is channel %d, which does not exist", g.NodeName(u), g.NodeName(w), i+1, c)
		}
		ch := g.Channel(c)
		if ch.From != cur {
			return fmt.Errorf("path %s -> %s: hop %d (%s) does not start at %s", g.NodeName(u), g.NodeName(w), i+1, g.ChannelName(c), g.NodeName(cur))
		}
		cur = ch.To
	}
	if cur != w {
		return fmt.Errorf("path %s -> %s ends at %s", g.NodeName(u), g.NodeName(w), g.NodeName(cur))
	}
	return nil
}

// PlainUTorus builds the baseline of 001 §4.4: every multicast runs U-torus (SPU on a
// mesh), or U-mesh with chain UMesh, on the whole network with its DOR paths, all
// starting at step 1. It is package unicastmc's builder (the reviewed schemes as the
// U-torus helper wrote them); TestChainMatchesUnicastmc checks that the chain used inside
// the subnetworks here sends exactly what unicastmc sends on a whole network.
func PlainUTorus(in Instance, c Chain) (model.Schedule, error) {
	if err := in.Validate(); err != nil {
		return model.Schedule{}, err
	}
	scheme := unicastmc.UTorus
	switch {
	case c == UMesh:
		scheme = unicastmc.UMesh
	case in.Grid.Kind() == topology.Mesh:
		scheme = unicastmc.SPU
	}
	ms := make([]unicastmc.Multicast, len(in.Multicasts))
	for i, mc := range in.Multicasts {
		ms[i] = unicastmc.Multicast{Source: mc.Source, Destinations: withoutSource(mc)}
	}
	s, err := unicastmc.BuildMany(in.Grid, scheme, ms)
	if err != nil {
		return model.Schedule{}, fmt.Errorf("multinode: baseline %v: %v", scheme, err)
	}
	if s.Group == nil { // one multicast: unicastmc leaves Group nil
		s.Group = make([]int, len(s.Unicasts))
		s.GroupDestinations = [][]topology.NodeID{ms[0].Destinations}
	}
	return *s, nil
}

// withoutSource returns D_i without s_i, ascending.
func withoutSource(mc Multicast) []topology.NodeID {
	d := slices.DeleteFunc(slices.Clone(mc.Dests), func(v topology.NodeID) bool { return v == mc.Source })
	slices.Sort(d)
	return d
}
