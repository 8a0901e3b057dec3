package fabric

import "fmt"

// Hop is one channel of a path: the packet leaves node Node by port Port on virtual
// lane VL. Its buffer is at the other end of the link (credit-based flow control is
// per port and VL at the receiver).
type Hop struct {
	Node int32
	Port uint8
	VL   uint8
}

// End says how a path ends.
type End uint8

// The ends of a path. Every end but Delivered loses the packet; Loop never ends.
const (
	// Delivered: the packet reached the port that owns its destination LID.
	Delivered End = iota
	// NoEntry: a switch's forwarding table has no port for the LID.
	NoEntry
	// PortZero: a switch forwards the LID to its management port 0 but does not own
	// it; the packet is dropped there.
	PortZero
	// DownPort: the table names a port with no link, a link that is down, or a port
	// the switch does not have.
	DownPort
	// WrongNode: the packet reaches a CA or router that does not own the LID.
	WrongNode
	// Loop: the packet comes back to a switch it has passed.
	Loop
)

var endNames = [...]string{"delivered", "no entry", "port 0", "down port", "wrong node", "loop"}

// String names the end ("delivered", "no entry", "port 0", "down port", "wrong node",
// "loop").
func (e End) String() string {
	if int(e) < len(endNames) {
		return endNames[e]
	}
	return "?"
}

// First returns the first channel of a packet from port src to LID dlid on SL sl: a CA
// or router sends on its port, a switch (src.Port 0) forwards by its table. ok is false
// when there is none; end then says why.
func (f *Fabric) First(src PortRef, dlid uint16, sl uint8) (h Hop, end End, ok bool) {
	n := &f.Nodes[src.Node]
	if n.Kind != Switch {
		p := &n.Ports[src.Port]
		if !p.Remote.Valid() || p.Down {
			return Hop{}, DownPort, false
		}
		return Hop{src.Node, src.Port, f.vl(src.Node, 0, int(src.Port), sl)}, Delivered, true
	}
	return f.forward(src.Node, 0, dlid, sl)
}

// Next returns the channel after h for a packet to dlid on SL sl, or, when h's far end
// is where the packet stops, ok false and the end: Delivered when that node owns dlid.
func (f *Fabric) Next(h Hop, dlid uint16, sl uint8) (next Hop, end End, ok bool) {
	far := f.Nodes[h.Node].Ports[h.Port].Remote
	m := &f.Nodes[far.Node]
	if m.Kind != Switch {
		if o := f.Owner(dlid); o == far {
			return Hop{}, Delivered, false
		}
		return Hop{}, WrongNode, false
	}
	return f.forward(far.Node, int(far.Port), dlid, sl)
}

// forward is switch sw's decision for a packet to dlid that entered at port in.
func (f *Fabric) forward(sw int32, in int, dlid uint16, sl uint8) (Hop, End, bool) {
	out := f.LFTPort(sw, dlid)
	n := &f.Nodes[sw]
	switch {
	case out == NoPort:
		return Hop{}, NoEntry, false
	case out == 0:
		if o := f.Owner(dlid); o.Valid() && o.Node == sw {
			return Hop{}, Delivered, false
		}
		return Hop{}, PortZero, false
	case int(out) > n.NumPorts() || !n.Ports[out].Remote.Valid() || n.Ports[out].Down:
		return Hop{}, DownPort, false
	}
	return Hop{sw, out, f.vl(sw, in, int(out), sl)}, Delivered, true
}

// vl is node i's VL for sl from port in to port out (VL = SL without a table).
func (f *Fabric) vl(i int32, in, out int, sl uint8) uint8 {
	if int(i) < len(f.SL2VL) {
		return f.SL2VL[i].VL(in, out, sl)
	}
	return sl
}

// Path is the route of one packet: its channels in order and how it ends; At is the
// node where a lost packet stops (the switch whose table drops or loops it, the wrong
// CA) and AtPort the port it names (0 where none).
type Path struct {
	Hops   []Hop
	End    End
	At     int32
	AtPort uint8
}

// Route follows the tables from port src to LID dlid on the path's SL (PathSL). A route
// that comes back to a switch it passed ends in Loop at that switch.
func (f *Fabric) Route(src PortRef, dlid uint16) Path {
	sl := f.PathSL.SL(src, dlid)
	h, end, ok := f.First(src, dlid, sl)
	if !ok {
		return Path{End: end, At: src.Node, AtPort: f.LFTPort(src.Node, dlid)}
	}
	var p Path
	seen := map[int32]bool{}
	if f.Nodes[src.Node].Kind == Switch {
		seen[src.Node] = true
	}
	for {
		p.Hops = append(p.Hops, h)
		far := f.Nodes[h.Node].Ports[h.Port].Remote
		if f.Nodes[far.Node].Kind == Switch {
			if seen[far.Node] {
				p.End, p.At, p.AtPort = Loop, far.Node, f.LFTPort(far.Node, dlid)
				return p
			}
			seen[far.Node] = true
		}
		next, end, ok := f.Next(h, dlid, sl)
		if !ok {
			p.End, p.At = end, far.Node
			if end != Delivered && end != WrongNode {
				p.AtPort = f.LFTPort(far.Node, dlid)
			}
			return p
		}
		h = next
	}
}

// HopName names a channel in ibdmchk's words: the node's description and GUID, the
// port and the VL.
func (f *Fabric) HopName(h Hop) string {
	return fmt.Sprintf("%s port %d VL %d", f.NodeName(h.Node), h.Port, h.VL)
}
