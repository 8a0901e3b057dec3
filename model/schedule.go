package model

// Unicast is one message of an implementation I(B) (004 Definition 1): node From sends
// the message to node To over the channels Path = p(From, To) in step Step (1-based).
// Order is the unicast's position (1-based) in From's send order across all steps; it
// fixes the software start-up latency in the timed semantics (the j-th send of a node
// that received the message at time R starts at R + j*ts).
type Unicast struct {
	From  NodeID      `json:"from"`
	To    NodeID      `json:"to"`
	Path  []ChannelID `json:"path"`
	Step  int         `json:"step"`
	Order int         `json:"order"`
}

// PortModel says how many unicasts a node may inject (and receive) at once.
type PortModel uint8

// The port models of the seeds: one-port (001's U-mesh, U-torus, SPU) and all-port
// (003's SBT, 004's DCF).
const (
	AllPort PortModel = iota
	OnePort
)

// String returns "all-port" or "one-port".
func (p PortModel) String() string {
	if p == OnePort {
		return "one-port"
	}
	return "all-port"
}

// Schedule is a unicast-based collective: the sources that hold the message at time 0,
// the intended destinations, and the unicasts by step. Unicasts are listed by step, and
// within a step by sender and send order. Several sources model several concurrent
// multicasts (001 multi-node multicast); Group[i] then says which multicast unicast i
// belongs to (nil means all belong to one).
type Schedule struct {
	Topology     Topology
	Sources      []NodeID
	Destinations []NodeID
	Ports        PortModel
	Unicasts     []Unicast
	Group        []int
	// GroupDestinations, when not nil, gives the destination set of each group g (its
	// source is Sources[g]); when nil every group has Destinations. Only used with Group.
	GroupDestinations [][]NodeID
	// Routing is the dimension order of the DOR paths (nil: 0, 1, ..., n-1, the default
	// of DESIGN.md). Paths are checked against it.
	Routing []int
}

// Steps returns the largest step number used.
func (s *Schedule) Steps() int {
	m := 0
	for _, u := range s.Unicasts {
		if u.Step > m {
			m = u.Step
		}
	}
	return m
}
