package creditloop

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
)

// Instance is a set of flows on a fabric as data: the part of the fabric their packets
// use (nodes, links, the forwarding-table, SL2VL and path-SL entries they read), the
// flows and the sizes. It is what a saved trace carries, so that replay rebuilds the
// model from the tables, without the fabric's files.
type Instance struct {
	Fabric string     `json:"fabric"`
	Buffer int        `json:"buffer_credits"`
	Packet int        `json:"packet_credits"`
	LMC    int        `json:"lmc,omitempty"`
	Nodes  []InstNode `json:"nodes"`
	Links  [][4]int   `json:"links"`           // node, port, node, port
	LFT    [][3]int   `json:"lft"`             // node, LID, port
	SL2VL  [][5]int   `json:"sl2vl,omitempty"` // node, in, out, SL, VL
	Flows  []InstFlow `json:"flows"`
}

// InstNode is one node of an Instance; LIDs lists (port, LID) pairs.
type InstNode struct {
	Kind  string   `json:"kind"`
	GUID  string   `json:"guid"`
	Desc  string   `json:"desc"`
	Ports int      `json:"ports"`
	LIDs  [][2]int `json:"lids"`
}

// InstFlow is one flow of an Instance: Packets packets from port Port of node Node to
// LID DLID on SL SL.
type InstFlow struct {
	Node    int `json:"node"`
	Port    int `json:"port"`
	DLID    int `json:"dlid"`
	SL      int `json:"sl"`
	Packets int `json:"packets"`
}

// newInstance describes the flows (with their packet counts) on f.
func newInstance(f *fabric.Fabric, flows []vct.Flow, buffer, packet int) *Instance {
	in := &Instance{Fabric: f.Name, Buffer: buffer, Packet: packet, LMC: int(f.LMC)}
	idx := map[int32]int{}
	node := func(i int32) int {
		if j, ok := idx[i]; ok {
			return j
		}
		n := &f.Nodes[i]
		j := len(in.Nodes)
		idx[i] = j
		inode := InstNode{Kind: n.Kind.String(), GUID: fmt.Sprintf("0x%016x", n.GUID), Desc: n.Desc, Ports: n.NumPorts()}
		for p := range n.Ports {
			if n.Ports[p].LID != 0 {
				inode.LIDs = append(inode.LIDs, [2]int{p, int(n.Ports[p].LID)})
			}
		}
		in.Nodes = append(in.Nodes, inode)
		return j
	}
	type lftKey struct {
		n    int32
		lid  uint16
		port uint8
	}
	seenLink := map[fabric.Hop]bool{}
	seenLFT := map[lftKey]bool{}
	seenVL := map[[4]int]bool{}
	for _, fl := range flows {
		in.Flows = append(in.Flows, InstFlow{Node: node(fl.Src.Node), Port: int(fl.Src.Port), DLID: int(fl.DLID), SL: int(fl.SL), Packets: fl.Packets})
		if o := f.Owner(fl.DLID); o.Valid() {
			node(o.Node)
		}
		prevIn := 0 // the port the packet entered the hop's node by (0 at its source)
		for _, h := range fl.Route {
			a := node(h.Node)
			far := f.Nodes[h.Node].Ports[h.Port].Remote
			b := node(far.Node)
			key := fabric.Hop{Node: h.Node, Port: h.Port}
			if !seenLink[key] {
				seenLink[key] = true
				seenLink[fabric.Hop{Node: far.Node, Port: far.Port}] = true
				in.Links = append(in.Links, [4]int{a, int(h.Port), b, int(far.Port)})
			}
			if f.Nodes[h.Node].Kind == fabric.Switch {
				k := lftKey{h.Node, fl.DLID, h.Port}
				if !seenLFT[k] {
					seenLFT[k] = true
					in.LFT = append(in.LFT, [3]int{a, int(fl.DLID), int(h.Port)})
				}
			}
			vk := [4]int{int(h.Node), prevIn, int(h.Port), int(fl.SL)}
			if !seenVL[vk] && h.VL != fl.SL {
				seenVL[vk] = true
				in.SL2VL = append(in.SL2VL, [5]int{a, prevIn, int(h.Port), int(fl.SL), int(h.VL)})
			}
			prevIn = int(far.Port)
		}
		if last := fl.Route[len(fl.Route)-1]; f.Nodes[f.Nodes[last.Node].Ports[last.Port].Remote.Node].Kind == fabric.Switch {
			// The route ends at a switch: delivered to its port 0, or dropped there (port 0
			// without owning the LID, a port that is down, no entry). Its entry says which.
			far := f.Nodes[last.Node].Ports[last.Port].Remote.Node
			if port := f.LFTPort(far, fl.DLID); port != fabric.NoPort {
				k := lftKey{far, fl.DLID, port}
				if !seenLFT[k] {
					seenLFT[k] = true
					in.LFT = append(in.LFT, [3]int{node(far), int(fl.DLID), int(port)})
				}
			}
		}
	}
	return in
}

// Build rebuilds the fabric part and the model of an instance: the flows are routed
// again through the instance's tables, so a replay checks the tables, not a copy of the
// routes. Errors name the field that is wrong.
func (in *Instance) Build() (*vct.Model, *fabric.Fabric, error) {
	f := &fabric.Fabric{Name: in.Fabric, LMC: uint8(min(max(in.LMC, 0), 7))}
	kinds := map[string]fabric.Kind{"switch": fabric.Switch, "CA": fabric.CA, "router": fabric.Router}
	for i, n := range in.Nodes {
		k, ok := kinds[n.Kind]
		if !ok || n.Ports < 1 || n.Ports > 254 {
			return nil, nil, fmt.Errorf("node %d: kind %q with %d ports", i, n.Kind, n.Ports)
		}
		var guid uint64
		if _, err := fmt.Sscanf(n.GUID, "0x%x", &guid); err != nil {
			return nil, nil, fmt.Errorf("node %d: guid %q", i, n.GUID)
		}
		node := fabric.Node{Kind: k, GUID: guid, SystemGUID: guid, Desc: n.Desc, Ports: make([]fabric.Port, n.Ports+1)}
		for p := range node.Ports {
			node.Ports[p].Remote = fabric.None
		}
		for _, l := range n.LIDs {
			if l[0] < 0 || l[0] > n.Ports || l[1] < 1 || l[1] > fabric.MaxLID {
				return nil, nil, fmt.Errorf("node %d: lid %v", i, l)
			}
			node.Ports[l[0]].LID = uint16(l[1])
		}
		f.Nodes = append(f.Nodes, node)
	}
	port := func(n, p int) (fabric.PortRef, error) {
		if n < 0 || n >= len(f.Nodes) || p < 0 || p > f.Nodes[n].NumPorts() {
			return fabric.None, fmt.Errorf("node %d port %d does not exist", n, p)
		}
		return fabric.PortRef{Node: int32(n), Port: uint8(p)}, nil
	}
	for _, l := range in.Links {
		a, err := port(l[0], l[1])
		if err != nil {
			return nil, nil, fmt.Errorf("links: %v", err)
		}
		b, err := port(l[2], l[3])
		if err != nil || a.Port == 0 || b.Port == 0 {
			return nil, nil, fmt.Errorf("links: %v is not a link between two ports", l)
		}
		if f.Port(a).Remote.Valid() || f.Port(b).Remote.Valid() {
			return nil, nil, fmt.Errorf("links: %v links a port twice", l)
		}
		f.Port(a).Remote, f.Port(b).Remote = b, a
	}
	for _, e := range in.LFT {
		if _, err := port(e[0], e[2]); err != nil || f.Nodes[e[0]].Kind != fabric.Switch || e[1] < 1 || e[1] > fabric.MaxLID {
			return nil, nil, fmt.Errorf("lft: %v is not (switch, LID, port)", e)
		}
		f.SetLFT(e[0], uint16(e[1]), uint8(e[2]))
	}
	f.SL2VL = make([]*fabric.SL2VL, len(f.Nodes))
	for _, e := range in.SL2VL {
		if _, err := port(e[0], max(e[1], e[2])); err != nil || min(e[1], e[2], e[3], e[4]) < 0 || e[3] > 15 || e[4] > 15 {
			return nil, nil, fmt.Errorf("sl2vl: %v is not (node, in, out, SL, VL)", e)
		}
		if f.SL2VL[e[0]] == nil {
			f.SL2VL[e[0]] = fabric.NewSL2VL(f.Nodes[e[0]].NumPorts())
		}
		f.SL2VL[e[0]].Set(e[1], e[2], uint8(e[3]), uint8(e[4]))
	}
	if err := f.Index(); err != nil {
		return nil, nil, err
	}
	f.PathSL = &fabric.PathSLs{}
	var flows []vct.Flow
	for i, fl := range in.Flows {
		src, err := port(fl.Node, fl.Port)
		if err != nil || fl.DLID < 1 || fl.DLID > fabric.MaxLID || fl.SL < 0 || fl.SL > 15 {
			return nil, nil, fmt.Errorf("flows[%d]: %+v", i, fl)
		}
		f.PathSL.Set(src, uint16(fl.DLID), uint8(fl.SL))
		vf := flowOf(f, flowRef{src, uint16(fl.DLID)})
		if len(vf.Route) == 0 {
			return nil, nil, fmt.Errorf("flows[%d]: the tables send it nowhere from its source", i)
		}
		vf.Packets = fl.Packets
		flows = append(flows, vf)
	}
	m, err := vct.New(vct.Config{Fabric: f, Flows: flows, Buffer: in.Buffer, Packet: in.Packet})
	if err != nil {
		return nil, nil, err
	}
	return m, f, nil
}
