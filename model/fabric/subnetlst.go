package fabric

import (
	"fmt"
	"io"
	"strings"
)

// ReadSubnetList reads a subnet list file (ParseSubnetList).
func ReadSubnetList(path string) (*Fabric, error) { return readWith(path, ParseSubnetList) }

// ParseSubnetList parses a subnet list: ibdm's subnet.lst and OpenSM's
// opensm-subnet.lst (osm_dump.c, dump_topology_node), one line per port with a link:
//
//	{ SW Ports:08 SystemGUID:... NodeGUID:... PortGUID:... VenID:... DevID:... Rev:... {desc} LID:0002 PN:05 } { ...the other end... } PHY=4x LOG=ACT SPD=2.5
//
// The type is SW, CA or Rt, with "-SM" on the node of the master SM; Ports, LID and PN
// are hexadecimal; a switch's LID is that of its port 0. Each link usually appears twice
// (once from each end); the two must agree. A link whose LOG is not ACT is kept as down.
func ParseSubnetList(name string, r io.Reader) (*Fabric, error) {
	f := &Fabric{Name: name}
	byGUID := map[uint64]int32{}
	ls := newLines(name, r)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		a, rest, err := parseSubnetEnd(s)
		if err != nil {
			return nil, ls.errorf("first port", "%v", err)
		}
		b, rest, err := parseSubnetEnd(strings.TrimSpace(rest))
		if err != nil {
			return nil, ls.errorf("second port", "%v", err)
		}
		down, err := parseLinkState(rest)
		if err != nil {
			return nil, ls.errorf("link", "%v", err)
		}
		ra, err := f.addEnd(byGUID, a)
		if err != nil {
			return nil, ls.errorf("first port", "%v", err)
		}
		rb, err := f.addEnd(byGUID, b)
		if err != nil {
			return nil, ls.errorf("second port", "%v", err)
		}
		if err := f.connect(ra, rb); err != nil {
			return nil, ls.errorf("link", "%v", err)
		}
		if down {
			f.Port(ra).Down, f.Port(rb).Down = true, true
		}
	}
	if ls.err != nil {
		return nil, ls.err
	}
	if len(f.Nodes) == 0 {
		return nil, &ParseError{File: name, Msg: "no links: a subnet list has one line per link, { TYPE Ports:N ... PN:P } { ... } PHY=... LOG=..."}
	}
	if err := f.Index(); err != nil {
		return nil, &ParseError{File: name, Msg: strings.TrimPrefix(err.Error(), name+": ")}
	}
	return f, nil
}

// subnetEnd is one "{ ... }" half of a subnet-list line.
type subnetEnd struct {
	kind              Kind
	ports             int
	sys, node, portID uint64
	desc              string
	lid               uint16
	pn                int
}

// parseSubnetEnd parses "{ TYPE Ports:.. ... {desc} LID:.. PN:.. }" at the start of s
// and returns it with the rest of s.
func parseSubnetEnd(s string) (subnetEnd, string, error) {
	var e subnetEnd
	if !strings.HasPrefix(s, "{") {
		return e, "", fmt.Errorf("does not start with '{'")
	}
	s = strings.TrimSpace(s[1:])
	typ, s, _ := strings.Cut(s, " ")
	switch strings.TrimSuffix(typ, "-SM") {
	case "SW":
		e.kind = Switch
	case "CA":
		e.kind = CA
	case "Rt":
		e.kind = Router
	default:
		return e, "", fmt.Errorf("type %q is not SW, CA or Rt", typ)
	}
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return e, "", fmt.Errorf("no {description}")
	}
	for _, kv := range strings.Fields(s[:open]) {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			return e, "", fmt.Errorf("%q is not KEY:VALUE", kv)
		}
		var bad bool
		switch k {
		case "Ports":
			n, ok := parseHex(v, 8)
			e.ports, bad = int(n), !ok || n == 0
		case "SystemGUID":
			e.sys, bad = parseHexField(v)
		case "NodeGUID":
			e.node, bad = parseHexField(v)
		case "PortGUID":
			e.portID, bad = parseHexField(v)
		}
		if bad {
			return e, "", fmt.Errorf("%s %q is not a hexadecimal number in range", k, v)
		}
	}
	if e.ports == 0 || e.node == 0 {
		return e, "", fmt.Errorf("Ports and NodeGUID are required")
	}
	close := strings.Index(s[open:], "} LID:")
	if close < 0 {
		return e, "", fmt.Errorf("the description is not followed by LID:")
	}
	e.desc = s[open+1 : open+close]
	s = s[open+close+1:]
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return e, "", fmt.Errorf("no closing '}'")
	}
	for _, kv := range strings.Fields(s[:end]) {
		k, v, _ := strings.Cut(kv, ":")
		switch k {
		case "LID":
			n, ok := parseHex(v, 16)
			if !ok || n > MaxLID {
				return e, "", fmt.Errorf("LID %q is not a unicast LID in hexadecimal", v)
			}
			e.lid = uint16(n)
		case "PN":
			n, ok := parseHex(v, 8)
			if !ok || n == 0 || int(n) > e.ports {
				return e, "", fmt.Errorf("PN %q is not a port number 1..%d in hexadecimal", v, e.ports)
			}
			e.pn = int(n)
		default:
			return e, "", fmt.Errorf("unexpected %q after the description", kv)
		}
	}
	if e.pn == 0 {
		return e, "", fmt.Errorf("PN: missing")
	}
	return e, s[end+1:], nil
}

func parseHexField(v string) (uint64, bool) {
	n, ok := parseHex(v, 64)
	return n, !ok
}

// parseLinkState reads "PHY=4x LOG=ACT SPD=2.5" and says whether the link is down.
func parseLinkState(s string) (bool, error) {
	down := false
	for _, kv := range strings.Fields(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return false, fmt.Errorf("%q is not KEY=VALUE", kv)
		}
		if k == "LOG" {
			switch v {
			case "ACT":
			case "DWN", "ARM", "INI":
				down = true
			default:
				return false, fmt.Errorf("LOG=%s is not ACT, ARM, INI or DWN", v)
			}
		}
	}
	return down, nil
}

// addEnd makes sure the node of e exists with e's attributes and returns its port.
func (f *Fabric) addEnd(byGUID map[uint64]int32, e subnetEnd) (PortRef, error) {
	i, ok := byGUID[e.node]
	if !ok {
		if len(f.Nodes) >= MaxNodes {
			return None, fmt.Errorf("more than %d nodes", MaxNodes)
		}
		i = int32(len(f.Nodes))
		byGUID[e.node] = i
		n := Node{Kind: e.kind, GUID: e.node, SystemGUID: e.sys, Desc: e.desc, Ports: make([]Port, e.ports+1)}
		for p := range n.Ports {
			n.Ports[p].Remote = None
		}
		if e.kind == Switch {
			n.Ports[0].GUID, n.Ports[0].LID = e.portID, e.lid
		}
		f.Nodes = append(f.Nodes, n)
	}
	n := &f.Nodes[i]
	if n.Kind != e.kind || n.NumPorts() != e.ports {
		return None, fmt.Errorf("node 0x%016x is a %s with %d ports on an earlier line and a %s with %d here", e.node, n.Kind, n.NumPorts(), e.kind, e.ports)
	}
	p := &n.Ports[e.pn]
	if e.kind == Switch {
		if n.Ports[0].LID != e.lid {
			return None, fmt.Errorf("switch 0x%016x has LID 0x%04X on an earlier line and 0x%04X here", e.node, n.Ports[0].LID, e.lid)
		}
		p.GUID = e.portID
		return PortRef{i, uint8(e.pn)}, nil
	}
	if (p.LID != 0 && p.LID != e.lid) || (p.GUID != 0 && p.GUID != e.portID) {
		return None, fmt.Errorf("port %d of 0x%016x has LID 0x%04X on an earlier line and 0x%04X here", e.pn, e.node, p.LID, e.lid)
	}
	p.LID, p.GUID = e.lid, e.portID
	return PortRef{i, uint8(e.pn)}, nil
}
