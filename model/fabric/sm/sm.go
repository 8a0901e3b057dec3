// Package sm routes a fabric as OpenSM 3.3.23 does: it assigns LIDs where a topology
// file has none, computes each switch's hop table (plain shortest paths for minhop,
// up*/down*-legal paths from given root switches for updn), and fills each switch's
// forwarding table with OpenSM's port choice (osm_switch_recommend_path): among the
// ports with the fewest hops to the destination's switch, the one that already routes
// the fewest end-port LIDs, the lowest port number on a tie, destinations taken in
// OpenSM's port order (switches by attached end ports, most first, then by GUID; their
// end ports by port number; then every other port by GUID).
//
// The tests compare the tables with OpenSM's own dumps of the same fabrics.
//
// Reference: opensm/osm_ucast_mgr.c, osm_switch.c (osm_switch_recommend_path),
// osm_ucast_updn.c (updn_bfs_by_node, updn_get_dir).
package sm

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/fabric"
)

// noPath is a hop count that does not reach.
const noPath = 0xFF

// hopTable is every switch's hop count to every switch through each of its ports:
// hops[s][t][p] (port 0: 0 when s is t).
type hopTable struct {
	sw    []int32       // switch node indices, in GUID order
	index map[int32]int // node index -> position in sw
	hops  [][][]uint8
}

func newHopTable(f *fabric.Fabric) *hopTable {
	h := &hopTable{index: map[int32]int{}}
	h.sw = f.Switches()
	slices.SortFunc(h.sw, func(a, b int32) int { return cmp.Compare(f.Nodes[a].GUID, f.Nodes[b].GUID) })
	for i, s := range h.sw {
		h.index[s] = i
	}
	h.hops = make([][][]uint8, len(h.sw))
	for i, s := range h.sw {
		h.hops[i] = make([][]uint8, len(h.sw))
		for t := range h.sw {
			row := make([]uint8, len(f.Nodes[s].Ports))
			for p := range row {
				row[p] = noPath
			}
			h.hops[i][t] = row
		}
		h.hops[i][i][0] = 0
	}
	return h
}

func (h *hopTable) least(s, t int) uint8 { return slices.Min(h.hops[s][t]) }

// switchNeighbor returns the switch (position) on the other end of port p of switch s,
// or -1 when it is not a live link to a switch.
func switchNeighbor(f *fabric.Fabric, h *hopTable, s int32, p int) (int, uint8) {
	port := &f.Nodes[s].Ports[p]
	if !port.Remote.Valid() || port.Down {
		return -1, 0
	}
	if j, ok := h.index[port.Remote.Node]; ok {
		return j, port.Remote.Port
	}
	return -1, 0
}

// minHopTable fills the hop table with shortest paths: through port p, one more than
// the neighbour's least hops (osm_ucast_mgr_build_lid_matrices).
func minHopTable(f *fabric.Fabric) *hopTable {
	h := newHopTable(f)
	for t := range h.sw {
		dist := make([]int, len(h.sw))
		for i := range dist {
			dist[i] = -1
		}
		dist[t] = 0
		queue := []int{t}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for p := 1; p < len(f.Nodes[h.sw[u]].Ports); p++ {
				if v, _ := switchNeighbor(f, h, h.sw[u], p); v >= 0 && dist[v] < 0 {
					dist[v] = dist[u] + 1
					queue = append(queue, v)
				}
			}
		}
		for s := range h.sw {
			for p := 1; p < len(f.Nodes[h.sw[s]].Ports); p++ {
				if v, _ := switchNeighbor(f, h, h.sw[s], p); v >= 0 && dist[v] >= 0 && dist[v]+1 < noPath {
					h.hops[s][t][p] = uint8(dist[v] + 1)
				}
			}
		}
	}
	return h
}

// upDownTable fills the hop table with up*/down*-legal paths from the given root
// switches (rank 0), as OpenSM's updn engine: switches are ranked by distance from the
// roots; a move to a lower rank (or, at equal rank, to a smaller GUID) is up; a path may
// go up and then down, never down and then up.
func upDownTable(f *fabric.Fabric, roots []int32) (*hopTable, error) {
	h := newHopTable(f)
	rank := make([]uint32, len(h.sw))
	for i := range rank {
		rank[i] = 0xFFFFFFFF
	}
	var queue []int
	for _, r := range roots {
		i, ok := h.index[r]
		if !ok {
			return nil, fmt.Errorf("root %s is not a switch", f.NodeName(r))
		}
		rank[i] = 0
	}
	for i := range h.sw {
		if rank[i] == 0 {
			queue = append(queue, i)
		}
	}
	if len(queue) == 0 {
		return nil, errors.New("up*/down* needs at least one root switch")
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for p := 1; p < len(f.Nodes[h.sw[u]].Ports); p++ {
			if v, _ := switchNeighbor(f, h, h.sw[u], p); v >= 0 && rank[v] > rank[u]+1 {
				rank[v] = rank[u] + 1
				queue = append(queue, v)
			}
		}
	}
	guid := func(i int) uint64 { return f.Nodes[h.sw[i]].GUID }
	up := func(cur, rem int) bool { // updn_get_dir: is the move cur -> rem up?
		switch {
		case rank[cur] == 0 && rank[rem] == 0:
			return true
		case rank[cur] != rank[rem]:
			return rank[cur] > rank[rem]
		}
		return guid(cur) > guid(rem)
	}
	for t := range h.sw {
		upDownBFS(f, h, t, up)
	}
	return h, nil
}

// upDownBFS is updn_bfs_by_node for target switch t: a breadth-first search outwards
// from t that records, for each switch and port, the hops to t along a legal path,
// never extending a path that came down by an upward move.
func upDownBFS(f *fabric.Fabric, h *hopTable, t int, up func(cur, rem int) bool) {
	type node struct {
		down    bool
		visited bool
	}
	st := make([]node, len(h.sw))
	queue := []int{t}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		st[u].visited = false
		for p := 1; p < len(f.Nodes[h.sw[u]].Ports); p++ {
			v, vp := switchNeighbor(f, h, h.sw[u], p)
			if v < 0 {
				continue
			}
			nextUp := up(u, v)
			if st[u].down && nextUp {
				continue
			}
			cur := h.least(u, t)
			if cur+1 < h.hops[v][t][vp] {
				h.hops[v][t][vp] = cur + 1
				if !st[v].visited {
					st[v].down = !nextUp
					st[v].visited = true
					queue = append(queue, v)
				}
			}
		}
	}
}

// portOrder lists the ports LIDs are routed in (OpenSM's port_order_list): the end
// ports (CA and router ports) of each switch, switches with the most end ports first
// (then by GUID), each switch's by port number; then every other port with a LID (the
// switches, and end ports on no switch) by port GUID.
func portOrder(f *fabric.Fabric, h *hopTable) []fabric.PortRef {
	sws := slices.Clone(h.sw)
	endLinks := func(s int32) int {
		n := 0
		for p := 1; p < len(f.Nodes[s].Ports); p++ {
			if r := f.Nodes[s].Ports[p].Remote; r.Valid() && f.Nodes[r.Node].Kind != fabric.Switch {
				n++
			}
		}
		return n
	}
	slices.SortStableFunc(sws, func(a, b int32) int { return endLinks(b) - endLinks(a) })
	var out []fabric.PortRef
	listed := map[fabric.PortRef]bool{}
	for _, s := range sws {
		for p := 1; p < len(f.Nodes[s].Ports); p++ {
			r := f.Nodes[s].Ports[p].Remote
			if r.Valid() && f.Nodes[r.Node].Kind != fabric.Switch && f.Port(r).LID != 0 && !listed[r] {
				listed[r] = true
				out = append(out, r)
			}
		}
	}
	var rest []fabric.PortRef
	for i, n := range f.Nodes {
		for p := range n.Ports {
			r := fabric.PortRef{Node: int32(i), Port: uint8(p)}
			if (n.Kind == fabric.Switch) != (p == 0) || n.Ports[p].LID == 0 || listed[r] {
				continue
			}
			rest = append(rest, r)
		}
	}
	slices.SortStableFunc(rest, func(a, b fabric.PortRef) int { return cmp.Compare(f.Port(a).GUID, f.Port(b).GUID) })
	return append(out, rest...)
}

// fillTables writes every switch's forwarding table from a hop table (the LFT builder
// of minhop and updn).
func fillTables(f *fabric.Fabric, h *hopTable) {
	f.LFT = make([][]uint8, len(f.Nodes))
	order := portOrder(f, h)
	lids := 1 << f.LMC
	for si, s := range h.sw {
		paths := make([]int, len(f.Nodes[s].Ports))
		f.LFT[s] = []uint8{}
		for off := range lids {
			for _, target := range order {
				tn := &f.Nodes[target.Node]
				base := f.Port(target).LID
				if tn.Kind == fabric.Switch {
					if off > 0 {
						continue
					}
					base = tn.Ports[0].LID
				}
				start := 1 // OpenSM scans the ports for LID base+off from the port after base+off-1's
				if off > 0 {
					start = int(f.LFTPort(s, base+uint16(off)-1)) + 1
				}
				port, counted := choosePort(f, h, si, s, target, paths, start)
				f.SetLFT(int(s), base+uint16(off), port)
				if port != fabric.NoPort && counted {
					paths[port]++
				}
			}
		}
	}
}

// choosePort is osm_switch_recommend_path for switch s (position si) and target port:
// the port, and whether it counts as a path (end ports count, switches do not).
func choosePort(f *fabric.Fabric, h *hopTable, si int, s int32, target fabric.PortRef, paths []int, start int) (uint8, bool) {
	tn := &f.Nodes[target.Node]
	var t int
	if tn.Kind == fabric.Switch {
		if target.Node == s {
			return 0, false
		}
		t = h.index[target.Node]
	} else {
		r := f.Port(target).Remote
		if !r.Valid() || f.Nodes[r.Node].Kind != fabric.Switch || f.Port(target).Down {
			return fabric.NoPort, false
		}
		if r.Node == s {
			return r.Port, true
		}
		t = h.index[r.Node]
	}
	least := h.least(si, t)
	if least == noPath {
		return fabric.NoPort, false
	}
	best, bestCount := uint8(fabric.NoPort), int(^uint(0)>>1)
	ports := f.Nodes[s].Ports
	for i := start; i < start+len(ports); i++ {
		p := i % len(ports)
		if p == 0 || h.hops[si][t][p] != least || !ports[p].Remote.Valid() || ports[p].Down {
			continue
		}
		if paths[p] < bestCount {
			best, bestCount = uint8(p), paths[p]
		}
	}
	return best, tn.Kind != fabric.Switch
}

// MinHop fills f's forwarding tables as OpenSM's minhop engine (its default).
func MinHop(f *fabric.Fabric) error {
	if err := needLIDs(f); err != nil {
		return err
	}
	fillTables(f, minHopTable(f))
	return nil
}

// UpDown fills f's forwarding tables as OpenSM's updn engine with the given root
// switches (opensm -R updn -a FILE).
func UpDown(f *fabric.Fabric, roots []int32) error {
	if err := needLIDs(f); err != nil {
		return err
	}
	h, err := upDownTable(f, roots)
	if err != nil {
		return err
	}
	fillTables(f, h)
	return nil
}

func needLIDs(f *fabric.Fabric) error {
	if len(f.Switches()) == 0 {
		return errors.New("no switches to route")
	}
	if f.MaxLIDInUse() == 0 {
		return errors.New("no LIDs: assign them first (AssignLIDs)")
	}
	return nil
}

// AssignLIDs gives LIDs to a fabric that has none (a topology file): breadth-first from
// the first CA port (where ibsim puts the subnet manager), each switch one LID and each
// CA or router port 2^LMC aligned LIDs, in discovery order.
func AssignLIDs(f *fabric.Fabric) error {
	start := -1
	for i, n := range f.Nodes {
		if n.Kind != fabric.Switch {
			start = i
			break
		}
	}
	if start < 0 {
		start = 0
	}
	step := uint16(1) << f.LMC
	next := uint16(1)
	give := func(r fabric.PortRef, k fabric.Kind) error {
		if k == fabric.Switch {
			f.Port(r).LID = next
			next++
		} else {
			next = (next + step - 1) / step * step
			f.Port(r).LID = next
			next += step
		}
		if next > fabric.MaxLID {
			return errors.New("more LIDs than the unicast range holds")
		}
		return nil
	}
	seen := make([]bool, len(f.Nodes))
	queue := []int32{int32(start)}
	seen[start] = true
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		n := &f.Nodes[i]
		if n.Kind == fabric.Switch {
			if err := give(fabric.PortRef{Node: i}, fabric.Switch); err != nil {
				return err
			}
		} else {
			for p := 1; p < len(n.Ports); p++ {
				if err := give(fabric.PortRef{Node: i, Port: uint8(p)}, n.Kind); err != nil {
					return err
				}
			}
		}
		for p := 1; p < len(n.Ports); p++ {
			if r := n.Ports[p].Remote; r.Valid() && !seen[r.Node] {
				seen[r.Node] = true
				queue = append(queue, r.Node)
			}
		}
	}
	return f.Index()
}
