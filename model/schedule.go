package model

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Unicast is one message of an implementation I(B) (004 Definition 1): node From sends
// the message to node To over the channels Path = p(From, To) in step Step (1-based).
// Order is the unicast's position (1-based) in From's send order across all steps; it
// fixes the software start-up latency in the timed semantics (the j-th send of a node
// that received the message at time R starts at R + j*ts).
//
// VC optionally gives the virtual-channel class the worm uses on each hop (VC[k] for
// Path[k]); nil means one class for every hop. Contention is judged per virtual channel:
// two unicasts contend only where they hold the same channel in the same class, which is
// the model of the algorithms designed around virtual channels (Robinson et al.'s
// U-torus, 004 Fig. 2). Without VC classes it is per physical channel.
type Unicast struct {
	From  topology.NodeID      `json:"from"`
	To    topology.NodeID      `json:"to"`
	Path  []topology.ChannelID `json:"path"`
	Step  int                  `json:"step"`
	Order int                  `json:"order"`
	VC    []uint8              `json:"vc,omitempty"`
}

// Lane returns the contention key of hop k of u: its channel, refined by its
// virtual-channel class when the schedule has classes (lanes = 1 + the largest class).
func (u *Unicast) Lane(k, lanes int) int {
	if u.VC == nil {
		return int(u.Path[k]) * lanes
	}
	return int(u.Path[k])*lanes + int(u.VC[k])
}

// Lanes returns how many virtual-channel classes the schedule's unicasts use (at least 1).
func (s *Schedule) Lanes() int {
	m := 0
	for i := range s.Unicasts {
		for _, c := range s.Unicasts[i].VC {
			m = max(m, int(c))
		}
	}
	return m + 1
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

// ParsePortModel reads a port model as flags and files spell it: "one" or "all", or
// String's "one-port" or "all-port"; "" is all-port. It is the one parser of port models.
func ParsePortModel(s string) (PortModel, error) {
	switch s {
	case "one", "one-port":
		return OnePort, nil
	case "all", "all-port", "":
		return AllPort, nil
	}
	return 0, fmt.Errorf("ports %q is unknown; use one or all", s)
}

// Schedule is a unicast-based collective: the sources that hold the message at time 0,
// the intended destinations, and the unicasts by step. Unicasts are listed by step, and
// within a step by sender and send order. Several sources model several concurrent
// multicasts (001 multi-node multicast); Group[i] then says which multicast unicast i
// belongs to (nil means all belong to one).
type Schedule struct {
	Topology     topology.Topology
	Sources      []topology.NodeID
	Destinations []topology.NodeID
	Ports        PortModel
	Unicasts     []Unicast
	Group        []int
	// GroupDestinations, when not nil, gives the destination set of each group g (its
	// source is Sources[g]); when nil every group has Destinations. Only used with Group.
	GroupDestinations [][]topology.NodeID
	// Routing is the dimension order of the DOR paths (nil: 0, 1, ..., n-1, the default
	// of DESIGN.md). Paths are checked against it.
	Routing []int
	// Ties says how strictly paths must follow the DOR path where a dimension is tied
	// (both ways round a ring minimal): TiesPlus (the default) insists on the Plus way,
	// TiesEither accepts either way per unicast and dimension (DOR.IsDORPathTies).
	Ties TieRule
	// Explicit drops the routing: every path may be any walk of existing channels from
	// the unicast's From to its To that uses no channel twice (topology.Network.CheckWalk), such as
	// the routes of 001's directed subnetworks (Types III and IV). Routing must then be
	// nil and Ties TiesPlus.
	Explicit bool
}

// TieRule says which DOR paths a schedule accepts where a dimension is tied.
type TieRule uint8

// The tie rules of a schedule.
const (
	// TiesPlus: a path must be exactly the DOR path, ties going Plus.
	TiesPlus TieRule = iota
	// TiesEither: a path may go either way round in each tied dimension (004 Fig. 6(b)).
	TiesEither
)

// String returns "plus" or "either", the values of the schedule file's "ties" field.
func (t TieRule) String() string {
	switch t {
	case TiesPlus:
		return "plus"
	case TiesEither:
		return "either"
	}
	return fmt.Sprintf("TieRule(%d)", t)
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

// WithWrapAheadClasses returns a copy of s whose unicasts carry the virtual-channel
// classes of 004 Fig. 2 (topology.Network.WrapAheadClasses), so that contention is judged per
// virtual channel. s must be on a grid.
func (s *Schedule) WithWrapAheadClasses() (*Schedule, error) {
	g, err := s.Grid()
	if err != nil {
		return nil, err
	}
	c := *s
	c.Unicasts = make([]Unicast, len(s.Unicasts))
	for i, u := range s.Unicasts {
		u.VC = g.WrapAheadClasses(u.Path)
		c.Unicasts[i] = u
	}
	return &c, nil
}
