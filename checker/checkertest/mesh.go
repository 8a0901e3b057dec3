package checkertest

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// Mesh is a cheap store-and-forward packet network on a W x H mesh, the explorer's
// speed benchmark: each packet travels its XY route (along X first, then Y) one hop per
// transition, a packet occupies the one-packet buffer of the channel it last crossed,
// and it may cross the next channel of its route only when that channel's buffer is
// free; at its destination it is ejected, freeing its buffer. Action p moves packet p
// (a hop or the ejection). Packets wait at their source without holding a buffer.
//
// The state packs packet p's progress (0 at the source, k after k hops, len(route)+1
// once ejected) into bits 4p..4p+3 of a uint64, so states are compared, hashed and
// stored as one word. XY routing has an acyclic channel-dependency graph, so the model
// has no deadlock: the only state without successors, every packet ejected, is
// Terminal.
//
// Known answers (tests pin them): MeshBench (4x4, 9 packets) has 4,427,776 states,
// 31,412,224 transitions and depth 44; MeshSmall (3x3, 6 packets) has 15,552 states,
// 73,872 transitions and depth 25.
type Mesh struct {
	W, H    int      // 2 <= W, H and W*H <= 16 (so a route has at most 8 hops)
	Packets [][2]int // per packet: source and destination node (node y*W+x); at most 16
}

// MeshBench is the 4x4, 9-packet instance of the engine benchmark (BenchmarkExploreMesh).
func MeshBench() Mesh {
	return Mesh{W: 4, H: 4, Packets: [][2]int{
		{0, 15}, {15, 0}, {3, 12}, {12, 3}, {5, 10}, {10, 5}, {1, 2}, {8, 7}, {6, 9},
	}}
}

// MeshSmall is a 3x3, 6-packet instance for quick tests.
func MeshSmall() Mesh {
	return Mesh{W: 3, H: 3, Packets: [][2]int{{0, 8}, {8, 0}, {2, 6}, {6, 2}, {4, 1}, {3, 5}}}
}

// MeshState is a Mesh state: packet p's progress in bits 4p..4p+3.
type MeshState uint64

// Progress returns packet p's progress: 0 at its source, k after k hops, route length
// + 1 once ejected.
func (s MeshState) Progress(p int) int { return int(s >> (4 * p) & 0xf) }

// Routes returns each packet's XY route as channel numbers (node*4 + direction, with
// directions east, west, north (y+1), south).
func (m Mesh) Routes() [][]int {
	rs := make([][]int, len(m.Packets))
	for p, sd := range m.Packets {
		x, y := sd[0]%m.W, sd[0]/m.W
		dx, dy := sd[1]%m.W, sd[1]/m.W
		var r []int
		for x != dx {
			dir := 0
			if dx < x {
				dir = 1
			}
			r = append(r, (y*m.W+x)*4+dir)
			x += 1 - 2*dir
		}
		for y != dy {
			dir := 2
			if dy < y {
				dir = 3
			}
			r = append(r, (y*m.W+x)*4+dir)
			y += 5 - 2*dir
		}
		rs[p] = r
	}
	return rs
}

// Valid returns an error naming the first field out of range.
func (m Mesh) Valid() error {
	switch {
	case m.W < 2 || m.H < 2 || m.W*m.H > 16:
		return fmt.Errorf("checkertest: mesh %dx%d: sides must be >= 2 with at most 16 nodes (a channel set is one uint64)", m.W, m.H)
	case len(m.Packets) == 0 || len(m.Packets) > 16:
		return fmt.Errorf("checkertest: mesh has %d packets; it needs 1..16", len(m.Packets))
	}
	for p, sd := range m.Packets {
		if sd[0] < 0 || sd[1] < 0 || sd[0] >= m.W*m.H || sd[1] >= m.W*m.H || sd[0] == sd[1] {
			return fmt.Errorf("checkertest: mesh packet %d: %d -> %d must join two distinct nodes", p, sd[0], sd[1])
		}
	}
	return nil
}

// MeshStepper generates a Mesh's successors with its routes precomputed; it is what
// both the explorer (through Mesh's Model methods) and a hand-written search call, so
// that a benchmark comparing them measures the search alone. It is immutable.
type MeshStepper struct {
	routes [][]int
	n      int
}

// Stepper returns m's successor generator. m must be Valid.
func (m Mesh) Stepper() *MeshStepper {
	return &MeshStepper{routes: m.Routes(), n: len(m.Packets)}
}

// Each calls yield(p, next) for every packet p that can move in s, in packet order.
// Cost: O(packets); it does not allocate.
func (st *MeshStepper) Each(s MeshState, yield func(p int, next MeshState)) {
	busy := st.busy(s)
	for p := range st.n {
		k, r := s.Progress(p), st.routes[p]
		switch {
		case k < len(r):
			if busy&(1<<uint(r[k])) == 0 {
				yield(p, s+1<<(4*p))
			}
		case k == len(r):
			yield(p, s+1<<(4*p))
		}
	}
}

// busy returns the set of channels whose buffer holds a packet in s.
func (st *MeshStepper) busy(s MeshState) uint64 {
	var b uint64
	for p := range st.n {
		k, r := s.Progress(p), st.routes[p]
		if k > 0 && k <= len(r) {
			b |= 1 << uint(r[k-1])
		}
	}
	return b
}

// Terminal reports whether every packet is ejected.
func (st *MeshStepper) Terminal(s MeshState) bool {
	for p := range st.n {
		if s.Progress(p) != len(st.routes[p])+1 {
			return false
		}
	}
	return true
}

// MeshModel is a Mesh as a checker.Model (build it with Mesh.Model).
type MeshModel struct {
	*MeshStepper
}

// Model returns m as a checker model, or an error if m is not Valid.
func (m Mesh) Model() (MeshModel, error) {
	if err := m.Valid(); err != nil {
		return MeshModel{}, err
	}
	return MeshModel{m.Stepper()}, nil
}

// Init returns every packet at its source.
func (MeshModel) Init() []MeshState { return []MeshState{0} }

// Successors appends one transition per packet that can move, in packet order.
func (m MeshModel) Successors(s MeshState, dst []checker.Transition[MeshState]) []checker.Transition[MeshState] {
	busy := m.busy(s)
	for p := range m.n {
		k, r := s.Progress(p), m.routes[p]
		if k < len(r) && busy&(1<<uint(r[k])) == 0 || k == len(r) {
			dst = append(dst, checker.Transition[MeshState]{Action: checker.Action(p), Next: s + 1<<(4*p)})
		}
	}
	return dst
}

// Encode appends the 8 bytes of s, little-endian.
func (MeshModel) Encode(s MeshState, buf []byte) []byte {
	return append(buf, byte(s), byte(s>>8), byte(s>>16), byte(s>>24),
		byte(s>>32), byte(s>>40), byte(s>>48), byte(s>>56))
}

// Describe renders action p as "packet p: hop k" or "packet p: ejected".
func (m MeshModel) Describe(s MeshState, a checker.Action) string {
	p := int(a)
	if p >= m.n {
		return fmt.Sprintf("packet %d does not exist", p)
	}
	if k := s.Progress(p); k < len(m.routes[p]) {
		return fmt.Sprintf("packet %d: hop %d", p, k+1)
	}
	return fmt.Sprintf("packet %d: ejected", p)
}

// Delivered is the invariant "packet p is not ejected before packet q"; it is violated
// as soon as p is ejected while q is not, so a search finds the shortest such run.
func Delivered(p, q int, m MeshModel) checker.Invariant[MeshState] {
	return checker.Invariant[MeshState]{
		Name: fmt.Sprintf("packet %d not ejected before packet %d", p, q),
		Check: func(s MeshState) error {
			if s.Progress(p) == len(m.routes[p])+1 && s.Progress(q) != len(m.routes[q])+1 {
				return fmt.Errorf("packet %d was ejected before packet %d", p, q)
			}
			return nil
		},
	}
}

// Decode inverts Encode (for Options.SpillDir).
func (m MeshModel) Decode(enc []byte) (MeshState, error) {
	if len(enc) != 8 {
		return 0, fmt.Errorf("checkertest: mesh encoding has %d bytes, want 8", len(enc))
	}
	var s MeshState
	for i, b := range enc {
		s |= MeshState(b) << (8 * i)
	}
	for p := range m.n {
		if s.Progress(p) > len(m.routes[p])+1 {
			return 0, fmt.Errorf("checkertest: mesh packet %d has progress %d beyond its route", p, s.Progress(p))
		}
	}
	if s>>(4*m.n) != 0 {
		return 0, fmt.Errorf("checkertest: mesh encoding has bits beyond packet %d", m.n-1)
	}
	return s, nil
}

// BasicMesh is a MeshModel behind the basic contract only (Init, Successors, Encode,
// Terminal, Describe; no Decoder or other extension): what a user's first model looks
// like, for measuring the explorer's path for such models.
type BasicMesh struct{ M MeshModel }

// Init implements checker.Model.
func (b BasicMesh) Init() []MeshState { return b.M.Init() }

// Successors implements checker.Model.
func (b BasicMesh) Successors(s MeshState, dst []checker.Transition[MeshState]) []checker.Transition[MeshState] {
	return b.M.Successors(s, dst)
}

// Encode implements checker.Model.
func (b BasicMesh) Encode(s MeshState, buf []byte) []byte { return b.M.Encode(s, buf) }

// Terminal implements checker.Model.
func (b BasicMesh) Terminal(s MeshState) bool { return b.M.Terminal(s) }

// Describe implements checker.Model.
func (b BasicMesh) Describe(s MeshState, a checker.Action) string { return b.M.Describe(s, a) }

// ByteMesh is a MeshModel behind the basic contract whose encoding is what a user's
// first model writes: one byte per packet (its progress), so 9 bytes for MeshBench,
// longer than a word. Its states, transitions and traces are BasicMesh's.
type ByteMesh struct{ BasicMesh }

// Encode appends packet p's progress as byte p.
func (b ByteMesh) Encode(s MeshState, buf []byte) []byte {
	for p := range b.M.n {
		buf = append(buf, byte(s.Progress(p)))
	}
	return buf
}

// EncoderMesh is a BasicMesh that also implements checker.SuccessorEncoder the way a
// user writes one: EncodeSuccessors yields each successor's encoding without building
// a Transition, and Successor builds the one successor the explorer keeps. Its states,
// transitions and traces are BasicMesh's; the explorer's path for it must be no slower
// and no bigger per state than BasicMesh's plain one (BenchmarkExploreMeshEncoder).
type EncoderMesh struct{ BasicMesh }

// EncodeSuccessors implements checker.SuccessorEncoder: the successors' encodings, in
// Successors order, without building Transitions.
func (b EncoderMesh) EncodeSuccessors(s MeshState, buf []byte, yield func(a checker.Action, enc []byte)) []byte {
	b.M.Each(s, func(p int, next MeshState) {
		buf = b.M.Encode(next, buf[:0])
		yield(checker.Action(p), buf)
	})
	return buf
}

// Successor implements checker.SuccessorEncoder: packet a's move.
func (b EncoderMesh) Successor(s MeshState, a checker.Action) MeshState { return s + 1<<(4*a) }

// ByteEncoderMesh is EncoderMesh with ByteMesh's encoding (one byte per packet, longer
// than a word).
type ByteEncoderMesh struct{ EncoderMesh }

// Encode appends packet p's progress as byte p (ByteMesh's encoding).
func (b ByteEncoderMesh) Encode(s MeshState, buf []byte) []byte {
	return ByteMesh(b.EncoderMesh).Encode(s, buf)
}

// EncodeSuccessors implements checker.SuccessorEncoder with ByteMesh's encoding.
func (b ByteEncoderMesh) EncodeSuccessors(s MeshState, buf []byte, yield func(a checker.Action, enc []byte)) []byte {
	b.M.Each(s, func(p int, next MeshState) {
		buf = b.Encode(next, buf[:0])
		yield(checker.Action(p), buf)
	})
	return buf
}
