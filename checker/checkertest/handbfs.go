package checkertest

// HandBFSResult is what HandBFS found: the reachable states, the transitions taken, the
// depth of the last level and the peak bytes of its table, parent records and frontiers.
type HandBFSResult struct {
	States, Transitions int64
	Depth               int
	PeakBytes           int64
}

// emptySlot marks a free slot of HandBFS's table; no Mesh state is all ones, since a
// packet's progress is at most 9.
const emptySlot = ^uint64(0)

// HandBFS is the hand-written breadth-first search that the explorer is measured
// against: one open-addressing (linear probing) table of packed uint64
// states with a multiplicative hash, a parent record per state (parent index and the
// packet moved, enough to rebuild a trace) and two frontiers of states. It is what a
// careful programmer writes for one model, with no model interface, encoding or
// sharding, so the ratio of the explorer's rate to its rate is the explorer's overhead.
// Cost: O(states + transitions); memory 8 bytes per table slot (at most 3/4 full) plus
// 5 bytes of parent record per state plus the two widest frontiers.
func (st *MeshStepper) HandBFS() HandBFSResult {
	table := make([]uint64, 1<<16)
	for i := range table {
		table[i] = emptySlot
	}
	shift := uint(64 - 16)
	var parent []uint32
	var moved []uint8
	var res HandBFSResult
	insert := func(s MeshState) bool {
		mask := uint64(len(table) - 1)
		for i := uint64(s) * 0x9E3779B97F4A7C15 >> shift; ; i = (i + 1) & mask {
			switch table[i] {
			case emptySlot:
				table[i] = uint64(s)
				return true
			case uint64(s):
				return false
			}
		}
	}
	grow := func() {
		old := table
		table = make([]uint64, 2*len(old))
		for i := range table {
			table[i] = emptySlot
		}
		shift--
		for _, s := range old {
			if s != emptySlot {
				insert(MeshState(s))
			}
		}
	}
	frontier := []MeshState{0}
	insert(0)
	parent = append(parent, ^uint32(0))
	moved = append(moved, 0)
	var next []MeshState
	base := uint32(0) // index of frontier[0] among all states
	for depth := 0; ; depth++ {
		next = next[:0]
		for i, s := range frontier {
			id := base + uint32(i)
			st.Each(s, func(p int, t MeshState) {
				res.Transitions++
				if insert(t) {
					parent = append(parent, id)
					moved = append(moved, uint8(p))
					next = append(next, t)
					if len(parent)*4 >= len(table)*3 {
						grow()
					}
				}
			})
		}
		if b := int64(len(table))*8 + int64(cap(parent))*4 + int64(cap(moved)) +
			int64(cap(frontier)+cap(next))*8; b > res.PeakBytes {
			res.PeakBytes = b
		}
		if len(next) == 0 {
			res.Depth = depth
			break
		}
		base += uint32(len(frontier))
		frontier, next = next, frontier
	}
	res.States = int64(len(parent))
	return res
}
