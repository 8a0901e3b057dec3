package flit

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Network is the immutable topology a flit model runs on: nodes, directed physical
// channels with their end points, and names for people. *topology.Network is adapted by
// GridNetwork; other topologies (a banyan, an irregular network) only need these methods.
type Network interface {
	Spec() string
	Nodes() int
	Channels() int
	// Ends returns the node channel c leaves and the node it enters.
	Ends(c topology.ChannelID) (from, to topology.NodeID)
	NodeName(v topology.NodeID) string
	ChannelName(c topology.ChannelID) string
}

// GridNetwork adapts a *topology.Network to Network.
type GridNetwork struct{ *topology.Network }

// Ends returns the end points of channel c.
func (g GridNetwork) Ends(c topology.ChannelID) (topology.NodeID, topology.NodeID) {
	ch := g.Network.Channel(c)
	return ch.From, ch.To
}

// Ports says how many injection and ejection channels a node has.
//
// OnePort: one injection channel and one ejection (delivery) channel per node; a worm
// holds the injection channel of its source from its header's first move until its last
// flit has left the source, and the ejection channel of its destination from its header's
// delivery until its last flit is delivered. AllPort: a node injects and delivers on all its
// channels at once: one injection channel per outgoing physical channel, and 2n delivery
// channels on an n-dimensional network (one per channel into a router, as checker/sim
// has them), which bind only when virtual channels let more worms arrive at once.
type Ports = model.PortModel

// The port models.
const (
	OnePort = model.OnePort
	AllPort = model.AllPort
)

// Prune is the pruning policy of the tree multicast router.
// Reference: 000 §3 (total pruning when a header finds no free output), §5.3 ("pruning is
// also performed when buffers are filled and flits stop advancing"), §3 last paragraph
// (a partial pruning would be sufficient; the authors were developing one).
type Prune uint8

// The pruning policies.
const (
	// PruneNone never prunes: a branch is kept until the message's last address flit
	// has passed the node (000 Fig. 3 deadlocks).
	PruneNone Prune = iota
	// PruneOnNoFree prunes every other branch of the message at a node when an address
	// flit there finds no free output channel (000 §3 and §4, Lemma 1's P).
	PruneOnNoFree
	// PruneOnStop prunes every other branch whenever a branch of the message at a node is
	// stopped: an address flit finds no free output, or the next flit's output buffer is
	// full (000 §5.3).
	PruneOnStop
	// PrunePartial is our partial policy: like PruneOnStop, but a branch that ends in
	// the ejection channel of the node itself (the local delivery) is kept. It is meant
	// to be sound with all-port ejection (nobody waits for an ejection channel) and not
	// with one-port ejection, where a kept delivery can close a cycle; the checker tells.
	//
	// PruneOnNoFree alone is not deadlock-free: a message stopped by a full buffer
	// upstream of the node whose header found no free output keeps its other branches
	// there (000 §3: "as flow control in wormhole switching stops flits in previous
	// nodes, pruning is also performed at those nodes"); the checker finds such
	// deadlocks on mesh:3x3 with two 3-destination multicasts, B=1.
	PrunePartial
)

var pruneNames = [...]string{"none", "on-no-free", "on-stop", "partial"}

// String returns the policy's name as flags spell it.
func (p Prune) String() string {
	if int(p) < len(pruneNames) {
		return pruneNames[p]
	}
	return fmt.Sprintf("Prune(%d)", p)
}

// ParsePrune parses a policy name ("none", "on-no-free", "on-stop", "partial") or one of
// 000's: total (= on-no-free, §4's trigger: a header finds no free output) and
// total-stall (= on-stop, §3 and §5.3: whenever a branch is stopped). It is the one
// parser of pruning policies: the flit explorer's, the tree-mcast algorithm's and the
// simulator's.
func ParsePrune(s string) (Prune, error) {
	switch s {
	case "total":
		return PruneOnNoFree, nil
	case "total-stall":
		return PruneOnStop, nil
	}
	for i, n := range pruneNames {
		if n == s {
			return Prune(i), nil
		}
	}
	return 0, fmt.Errorf("pruning %q is unknown; use none, on-no-free (alias total), on-stop (alias total-stall) or partial", s)
}

// Message is one message to deliver. A unicast worm (Multicast false) has one
// destination and Length flits: its header (the address flit) and Length-1 body flits, the
// last of which is the tail. A tree multicast (Multicast true) has the format of 000
// Fig. 1: the address flit of Dests[0], then Length data flits, then the address flits of
// Dests[1:], in that order; Length is the number of data flits (the paper uses 1).
type Message struct {
	Source    topology.NodeID
	Dests     []topology.NodeID
	Length    int
	Multicast bool
}

// Flits returns the number of flits of the message's format at its source.
func (m Message) Flits() int {
	if m.Multicast {
		return len(m.Dests) + m.Length
	}
	return m.Length
}

// Config is a flit-level wormhole network instance: topology, routing relation, virtual
// channels per physical channel, Buffer flits per virtual channel at its receiving end,
// the port model, the pruning policy of tree multicasts and the messages.
//
// VCs is a multiple of the relation's Routing.VCs() (R): the relation's virtual channel
// r (its class) owns the model's virtual channels r*VCs/R .. (r+1)*VCs/R-1 of each
// physical channel, and a header the relation permits on (channel, r) may take any free
// one of them. With dimension-order routing (R = 1, or 2 dateline classes) this is the
// class split of the fixed-path model this package had before relations: VCs = R gives
// one virtual channel per class, VCs = 2R two, and so on.
type Config struct {
	Net      Network
	Routing  routing.Relation
	VCs      int
	Buffer   int
	Ports    Ports
	Prune    Prune
	Messages []Message
	// Compact makes each transition a worm's move followed by every local move it
	// enables (a flit advancing into a channel its own worm holds, or delivered through
	// its own ejection channel), so the model's states are the compacted ones and their
	// count does not grow with packet length and buffer depth. Every global and local
	// deadlock and every fair lasso of the uncompacted model is kept (compact.go,
	// docs/semantics.md); Unfold turns a trace back into the uncompacted model's. It has
	// no effect under a pruning policy, whose prunes read the worm's own buffers.
	Compact bool
	// LowestVC has a header take only the lowest-numbered free virtual channel of each
	// class of interchangeable ones it may use, not every free one: the model virtual
	// channels of one relation VC, and relation VCs the relation treats alike for every
	// header of the messages (vcgroups.go). The other choices lead to states that differ
	// from that one by a permutation of them, so every deadlock, up to that permutation,
	// and every shortest trace length is kept (docs/semantics.md). Model.Lean sets it
	// where the model is Acyclic, so that delivery is certified by Progress.
	LowestVC bool
}

// Limits that keep states encodable in bytes.
const (
	MaxMessages = 64
	MaxFlits    = 200
	MaxBuffer   = 64
	MaxVCs      = 16
	// MaxVirtualChannels bounds Channels*VCs, since every state stores each virtual
	// channel.
	MaxVirtualChannels = 1 << 14
)

// NewGridConfig returns a configuration on grid g with dimension-order routing
// (routing.NewDOR; dateline classes on or off), vcs virtual channels and buffer flits per
// virtual channel.
func NewGridConfig(g *topology.Network, dateline bool, vcs, buffer int, ports Ports, msgs []Message) Config {
	return NewRelationConfig(routing.NewDOR(g, dateline), vcs, buffer, ports, msgs)
}

// NewRelationConfig returns a configuration on the grid of routing relation rel, with
// vcs virtual channels (0: as many as the relation uses) and buffer flits per virtual
// channel.
func NewRelationConfig(rel routing.Relation, vcs, buffer int, ports Ports, msgs []Message) Config {
	if rel == nil {
		return Config{VCs: vcs, Buffer: buffer, Ports: ports, Messages: msgs} // Validate names Net
	}
	if vcs == 0 {
		vcs = rel.VCs()
	}
	return Config{Net: GridNetwork{rel.Grid()}, Routing: rel, VCs: vcs, Buffer: buffer, Ports: ports, Messages: msgs}
}

// Validate checks the configuration; every error is one line naming the field.
func (c *Config) Validate() error {
	switch {
	case c.Net == nil:
		return fmt.Errorf("flit config: field Net is nil")
	case c.Routing == nil:
		return fmt.Errorf("flit config: field Routing is nil")
	case c.VCs < 1 || c.VCs > MaxVCs:
		return fmt.Errorf("flit config: VCs is %d; it must be 1..%d", c.VCs, MaxVCs)
	case c.Routing.VCs() < 1 || c.Routing.VCs() > MaxVCs:
		return fmt.Errorf("flit config: routing %q uses %d virtual channels; it must be 1..%d", c.Routing.Name(), c.Routing.VCs(), MaxVCs)
	case c.VCs%c.Routing.VCs() != 0:
		return fmt.Errorf("flit config: VCs is %d; routing %q needs a multiple of its %d virtual channels", c.VCs, c.Routing.Name(), c.Routing.VCs())
	case c.Routing.Grid() == nil || c.Routing.Grid().Nodes() != c.Net.Nodes() || c.Routing.Grid().Channels() != c.Net.Channels():
		return fmt.Errorf("flit config: routing %q is not on network %s", c.Routing.Name(), c.Net.Spec())
	case c.Buffer < 1 || c.Buffer > MaxBuffer:
		return fmt.Errorf("flit config: Buffer is %d; it must be 1..%d", c.Buffer, MaxBuffer)
	case c.Net.Channels()*c.VCs > MaxVirtualChannels:
		return fmt.Errorf("flit config: %s has %d channels x %d VCs; at most %d virtual channels are supported", c.Net.Spec(), c.Net.Channels(), c.VCs, MaxVirtualChannels)
	case len(c.Messages) == 0:
		return fmt.Errorf("flit config: Messages is empty")
	case len(c.Messages) > MaxMessages:
		return fmt.Errorf("flit config: %d messages; at most %d are supported", len(c.Messages), MaxMessages)
	case c.Prune > PrunePartial:
		return fmt.Errorf("flit config: Prune is %d; unknown policy", c.Prune)
	case c.Ports != OnePort && c.Ports != AllPort:
		return fmt.Errorf("flit config: Ports is %d; unknown port model", c.Ports)
	}
	n := c.Net.Nodes()
	for i, m := range c.Messages {
		if m.Source < 0 || int(m.Source) >= n {
			return fmt.Errorf("flit config: message %d: source %d is not a node (0..%d)", i, m.Source, n-1)
		}
		if len(m.Dests) == 0 {
			return fmt.Errorf("flit config: message %d has no destination", i)
		}
		if !m.Multicast && len(m.Dests) != 1 {
			return fmt.Errorf("flit config: message %d is a unicast with %d destinations; use Multicast", i, len(m.Dests))
		}
		if m.Multicast && m.Length < 1 || !m.Multicast && m.Length < 1 {
			return fmt.Errorf("flit config: message %d: Length is %d; it must be >= 1", i, m.Length)
		}
		if m.Flits() > MaxFlits {
			return fmt.Errorf("flit config: message %d has %d flits; at most %d are supported", i, m.Flits(), MaxFlits)
		}
		for j, d := range m.Dests {
			if d < 0 || int(d) >= n {
				return fmt.Errorf("flit config: message %d: destination %d is not a node (0..%d)", i, d, n-1)
			}
			if d == m.Source {
				return fmt.Errorf("flit config: message %d: destination %s is its source", i, c.Net.NodeName(d))
			}
			for _, e := range m.Dests[:j] {
				if e == d {
					return fmt.Errorf("flit config: message %d lists destination %s twice", i, c.Net.NodeName(d))
				}
			}
		}
	}
	return nil
}

// Unicast returns a unicast worm of length flits from src to dst.
func Unicast(src, dst topology.NodeID, length int) Message {
	return Message{Source: src, Dests: []topology.NodeID{dst}, Length: length}
}

// Multicast returns a tree multicast from src to dests (in address-flit order) with data
// flits of data (000 §5.1 uses 1).
func Multicast(src topology.NodeID, data int, dests ...topology.NodeID) Message {
	return Message{Source: src, Dests: append([]topology.NodeID(nil), dests...), Length: data, Multicast: true}
}
