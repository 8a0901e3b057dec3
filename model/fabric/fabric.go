// Package fabric is an InfiniBand subnet as its own tools describe it: switches and
// channel adapters (CAs) with their GUIDs, descriptions, ports, links and LIDs, and the
// tables a subnet manager programs into it: each switch's linear forwarding table (LFT,
// destination LID -> output port), the SL-to-VL tables, and the service level (SL) each
// path uses. It reads them from the files real fabrics produce (ibdm and OpenSM subnet
// lists, ibnetdiscover and ibsim net files, ibdm cable lists and topology files, LFT
// dumps, SL2VL dumps, path-SL files and saquery path records) and answers one question
// about forwarding: where does a packet for LID d on SL s go next (Forward).
//
// Every reader is bounded (MaxFileBytes, MaxLineBytes) and reports bad input as one
// line naming the file, the line and the field (ParseError). Tables that are absent
// take the defaults ibdm's checker takes: SL 0 for every path, and VL = SL at every
// port.
package fabric

import (
	"fmt"
	"slices"
)

// Kind is the type of a node.
type Kind uint8

// The node kinds of InfiniBand.
const (
	Switch Kind = iota + 1
	CA
	Router
)

var kindNames = [...]string{"?", "switch", "CA", "router"}

// String returns "switch", "CA" or "router".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Endpoint reports whether packets start and end at nodes of this kind (CAs and
// routers; a switch is an endpoint only through its management port 0).
func (k Kind) Endpoint() bool { return k == CA || k == Router }

// NoPort marks an LFT entry that routes nowhere (unassigned, or UNREACHABLE in a dump).
const NoPort = 0xFF

// MaxLID is the largest unicast LID (0xBFFF); multicast LIDs start above it.
const MaxLID = 0xBFFF

// PortRef names one port of one node: Nodes[Node].Ports[Port]. Node is -1 for none.
type PortRef struct {
	Node int32
	Port uint8
}

// None is the PortRef of an unconnected port.
var None = PortRef{Node: -1}

// Valid reports whether r names a port.
func (r PortRef) Valid() bool { return r.Node >= 0 }

// Port is one physical port. Port 0 of a switch is its management port: it has the
// switch's LID and no link.
type Port struct {
	// GUID is the port GUID (a switch's ports share the node GUID in OpenSM's dumps).
	GUID uint64
	// LID is the port's base LID (0 if unknown); a switch's LID is that of port 0.
	LID uint16
	// Remote is the port at the other end of the link, None when unconnected.
	Remote PortRef
	// Down says the link exists but is not active (LOG=DWN, ARM or INI in a subnet
	// list, or failed by --faults): packets forwarded to it are dropped.
	Down bool
}

// Node is one switch, CA or router.
type Node struct {
	Kind       Kind
	GUID       uint64
	SystemGUID uint64
	// Desc is the node description ("MT43132 Mellanox Technologies", a host name), or
	// the name a topology file gives the node.
	Desc string
	// Ports has NumPorts+1 entries; index 0 is a switch's management port and unused
	// for CAs and routers.
	Ports []Port
}

// NumPorts is the number of physical ports (port numbers 1..NumPorts).
func (n *Node) NumPorts() int { return len(n.Ports) - 1 }

// Fabric is one subnet: its nodes and links, and the tables that route it.
type Fabric struct {
	// Name says where the fabric came from (a file name), for messages.
	Name  string
	Nodes []Node
	// LMC: each CA and router port owns the LIDs LID .. LID+2^LMC-1.
	LMC uint8
	// LFT[i] is switch i's forwarding table indexed by destination LID (NoPort where it
	// routes nowhere); nil for non-switches and when no tables were read.
	LFT [][]uint8
	// SL2VL[i] is node i's SL-to-VL table, nil where none was read (then VL = SL).
	SL2VL []*SL2VL
	// PathSL gives the SL of each path, nil when none was read (then SL 0).
	PathSL *PathSLs

	owner  []PortRef // LID -> the port that owns it
	byGUID map[uint64]int32
}

// SL2VL is one node's SL-to-VL mapping: for a switch VL(in, out, sl) over ports
// 0..n; for a CA or router per port (in = 0, out = the port).
type SL2VL struct {
	ports int     // table side: ports+1 entries per dimension
	vl    []uint8 // [(in*(ports+1)+out)*16 + sl]; 0xFF where not given
}

// NewSL2VL returns an empty table for a node with the given number of ports; every
// entry maps SL s to VL s until Set.
func NewSL2VL(ports int) *SL2VL {
	n := (ports + 1) * (ports + 1) * 16
	t := &SL2VL{ports: ports, vl: make([]uint8, n)}
	for i := range t.vl {
		t.vl[i] = 0xFF
	}
	return t
}

// Set maps sl to vl for packets entering at in and leaving at out.
func (t *SL2VL) Set(in, out int, sl, vl uint8) {
	if in <= t.ports && out <= t.ports && sl < 16 {
		t.vl[(in*(t.ports+1)+out)*16+int(sl)] = vl
	}
}

// VL returns the VL of sl from in to out (sl itself where the table has no entry).
func (t *SL2VL) VL(in, out int, sl uint8) uint8 {
	if t == nil || in > t.ports || out > t.ports || sl >= 16 {
		return sl
	}
	if v := t.vl[(in*(t.ports+1)+out)*16+int(sl)]; v != 0xFF {
		return v
	}
	return sl
}

// PathSLs is the SL of each (source port, destination LID) pair; pairs not listed use
// Default.
type PathSLs struct {
	Default uint8
	sl      map[pathKey]uint8
}

type pathKey struct {
	src  PortRef
	dlid uint16
}

// SL returns the SL of the path from port src to LID dlid.
func (p *PathSLs) SL(src PortRef, dlid uint16) uint8 {
	if p == nil {
		return 0
	}
	if s, ok := p.sl[pathKey{src, dlid}]; ok {
		return s
	}
	return p.Default
}

// Set records the SL of the path from src to dlid.
func (p *PathSLs) Set(src PortRef, dlid uint16, sl uint8) {
	if p.sl == nil {
		p.sl = map[pathKey]uint8{}
	}
	p.sl[pathKey{src, dlid}] = sl
}

// Len is the number of pairs with an SL of their own.
func (p *PathSLs) Len() int {
	if p == nil {
		return 0
	}
	return len(p.sl)
}

// Port returns the port r names.
func (f *Fabric) Port(r PortRef) *Port { return &f.Nodes[r.Node].Ports[r.Port] }

// Index rebuilds the lookups by LID and by GUID after the nodes or LIDs changed. It
// fails when two ports claim one LID or two nodes one GUID.
func (f *Fabric) Index() error {
	f.byGUID = make(map[uint64]int32, len(f.Nodes))
	maxLID := 0
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.GUID != 0 {
			if j, dup := f.byGUID[n.GUID]; dup {
				return fmt.Errorf("%s: nodes %q and %q have the same node GUID 0x%016x", f.Name, f.Nodes[j].Desc, n.Desc, n.GUID)
			}
			f.byGUID[n.GUID] = int32(i)
		}
		for p := range n.Ports {
			if l := int(n.Ports[p].LID) + (1 << f.lmcOf(n.Kind)) - 1; n.Ports[p].LID != 0 && l > maxLID {
				maxLID = l
			}
		}
	}
	if maxLID > MaxLID {
		maxLID = MaxLID
	}
	f.owner = make([]PortRef, maxLID+1)
	for i := range f.owner {
		f.owner[i] = None
	}
	for i := range f.Nodes {
		n := &f.Nodes[i]
		for p := range n.Ports {
			if n.Kind == Switch && p != 0 {
				continue
			}
			base := int(n.Ports[p].LID)
			if base == 0 {
				continue
			}
			for l := base; l < base+(1<<f.lmcOf(n.Kind)) && l <= maxLID; l++ {
				if o := f.owner[l]; o.Valid() && (o.Node != int32(i) || o.Port != uint8(p)) {
					return fmt.Errorf("%s: LID %d belongs to both %s and %s", f.Name, l, f.PortName(o), f.PortName(PortRef{int32(i), uint8(p)}))
				}
				f.owner[l] = PortRef{int32(i), uint8(p)}
			}
		}
	}
	return nil
}

// lmcOf is the LMC of a node's ports: switches have one LID.
func (f *Fabric) lmcOf(k Kind) uint8 {
	if k == Switch {
		return 0
	}
	return f.LMC
}

// MaxLIDInUse is the largest LID some port owns (0 before Index).
func (f *Fabric) MaxLIDInUse() int { return len(f.owner) - 1 }

// Owner returns the port that owns lid, or None.
func (f *Fabric) Owner(lid uint16) PortRef {
	if int(lid) < len(f.owner) {
		return f.owner[lid]
	}
	return None
}

// NodeByGUID returns the index of the node with this node GUID, or -1.
func (f *Fabric) NodeByGUID(guid uint64) int {
	if i, ok := f.byGUID[guid]; ok {
		return int(i)
	}
	return -1
}

// PortByGUID returns the port with this port GUID (a switch's port 0 when the GUID is
// the switch's), or None.
func (f *Fabric) PortByGUID(guid uint64) PortRef {
	if i := f.NodeByGUID(guid); i >= 0 && f.Nodes[i].Kind == Switch {
		return PortRef{int32(i), 0}
	}
	for i := range f.Nodes {
		for p := range f.Nodes[i].Ports {
			if f.Nodes[i].Ports[p].GUID == guid && guid != 0 {
				return PortRef{int32(i), uint8(p)}
			}
		}
	}
	return None
}

// LIDs returns the LIDs port r owns, in increasing order.
func (f *Fabric) LIDs(r PortRef) []uint16 {
	n := &f.Nodes[r.Node]
	p := r.Port
	if n.Kind == Switch {
		p = 0
	}
	base := n.Ports[p].LID
	if base == 0 {
		return nil
	}
	out := make([]uint16, 0, 1<<f.lmcOf(n.Kind))
	for l := 0; l < 1<<f.lmcOf(n.Kind); l++ {
		out = append(out, base+uint16(l))
	}
	return out
}

// NodeName names a node for people: its description and GUID.
func (f *Fabric) NodeName(i int32) string {
	n := &f.Nodes[i]
	return fmt.Sprintf("%s %q (0x%016x)", n.Kind, n.Desc, n.GUID)
}

// PortName names a port for people: "switch "desc" (0xGUID) port P".
func (f *Fabric) PortName(r PortRef) string {
	if !r.Valid() {
		return "no port"
	}
	return fmt.Sprintf("%s port %d", f.NodeName(r.Node), r.Port)
}

// Link is one cable: two ports, A before B in node order.
type Link struct{ A, B PortRef }

// Links returns every link once, in node and port order.
func (f *Fabric) Links() []Link {
	var out []Link
	for i := range f.Nodes {
		for p := 1; p < len(f.Nodes[i].Ports); p++ {
			a := PortRef{int32(i), uint8(p)}
			b := f.Nodes[i].Ports[p].Remote
			if !b.Valid() {
				continue
			}
			if b.Node > a.Node || (b.Node == a.Node && b.Port > a.Port) {
				out = append(out, Link{a, b})
			}
		}
	}
	return out
}

// Switches returns the indices of the switches, in node order.
func (f *Fabric) Switches() []int32 {
	var out []int32
	for i := range f.Nodes {
		if f.Nodes[i].Kind == Switch {
			out = append(out, int32(i))
		}
	}
	return out
}

// Clone returns a deep copy of the fabric's nodes, links and tables (faults and
// perturbations change a copy).
func (f *Fabric) Clone() *Fabric {
	g := &Fabric{Name: f.Name, LMC: f.LMC, PathSL: f.PathSL}
	g.Nodes = make([]Node, len(f.Nodes))
	for i, n := range f.Nodes {
		n.Ports = slices.Clone(n.Ports)
		g.Nodes[i] = n
	}
	if f.LFT != nil {
		g.LFT = make([][]uint8, len(f.LFT))
		for i, t := range f.LFT {
			g.LFT[i] = slices.Clone(t)
		}
	}
	g.SL2VL = slices.Clone(f.SL2VL)
	g.owner = f.owner
	g.byGUID = f.byGUID
	return g
}

// connect links a and b both ways; it fails when either is already linked elsewhere.
func (f *Fabric) connect(a, b PortRef) error {
	pa, pb := f.Port(a), f.Port(b)
	if pa.Remote.Valid() && pa.Remote != b {
		return fmt.Errorf("%s is already linked to %s", f.PortName(a), f.PortName(pa.Remote))
	}
	if pb.Remote.Valid() && pb.Remote != a {
		return fmt.Errorf("%s is already linked to %s", f.PortName(b), f.PortName(pb.Remote))
	}
	if a == b {
		return fmt.Errorf("%s is linked to itself", f.PortName(a))
	}
	pa.Remote, pb.Remote = b, a
	return nil
}

// MaxSL is the largest SL a path uses (0 without path SLs).
func (f *Fabric) MaxSL() uint8 {
	if f.PathSL == nil {
		return 0
	}
	m := f.PathSL.Default
	for _, s := range f.PathSL.sl {
		m = max(m, s)
	}
	return m
}

// MaxVL is the largest VL a packet can be on: the largest entry of the SL2VL tables,
// or of the SLs where a table has no entry.
func (f *Fabric) MaxVL() uint8 {
	m := f.MaxSL()
	for _, t := range f.SL2VL {
		if t == nil {
			continue
		}
		for _, v := range t.vl {
			if v != 0xFF {
				m = max(m, v)
			}
		}
	}
	return m
}
