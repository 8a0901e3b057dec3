package fabric

import (
	"fmt"
	"io"
	"strings"
)

// ReadNet reads an ibsim or ibnetdiscover net file (ParseNet).
func ReadNet(path string) (*Fabric, error) { return readWith(path, ParseNet) }

// ParseNet parses the net files of ibsim (its net-examples) and of ibnetdiscover: a
// record per node, a header line then one line per connected port, records separated
// by blank lines, '#' comments:
//
//	Switch	8 "Switch1"		# "desc" enhanced port 0 lid 1 lmc 0
//	[1]	"Hca1"[1]
//	[3](2c9000100d051)	"S-0002c90200000001"[3]	w=4
//	Hca	2 "Hca1"
//	[1]	"Switch1"[1]
//
// Header types are Switch, Hca or Ca, and Rt; ids of the form "S-GUID", "H-GUID" and
// "R-GUID" (ibnetdiscover's) give the node GUID, others get GUIDs in ibsim's order; a
// remote port left out is port 1. "lid N" in a switch header's comment, or in a CA port
// line's comment, is kept as that port's LID. Keyword lines (vendid=, switchguid=,
// width=, ...) are ignored; ibsim's include, module and alias (@) lines are refused.
// A link may be listed from one end or from both; the two must agree.
func ParseNet(name string, r io.Reader) (*Fabric, error) {
	b := newBuilder(name)
	ls := newLines(name, r)
	type pending struct {
		line   int
		a      PortRef
		remote string
		rport  int
	}
	var links []pending
	cur := int32(-1)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		s := strings.TrimSpace(line)
		switch {
		case s == "" || strings.HasPrefix(s, "#"):
			if s == "" {
				cur = -1
			}
		case strings.HasPrefix(s, "["):
			if cur < 0 {
				return nil, ls.errorf("port", "a port line outside a node record (a \"Switch N \\\"id\\\"\" or \"Hca N \\\"id\\\"\" header must come first)")
			}
			p, remote, rport, lid, err := parseNetPort(s, b.f.Nodes[cur].NumPorts())
			if err != nil {
				return nil, ls.errorf("port", "%v", err)
			}
			a := PortRef{cur, uint8(p)}
			if lid != 0 && b.f.Nodes[cur].Kind != Switch {
				b.f.Port(a).LID = lid
			}
			links = append(links, pending{ls.n, a, remote, rport})
		case strings.HasPrefix(s, "Switch") || strings.HasPrefix(s, "Hca") || strings.HasPrefix(s, "Ca") || strings.HasPrefix(s, "Rt"):
			i, err := b.netHeader(s)
			if err != nil {
				return nil, ls.errorf("header", "%v", err)
			}
			cur = i
		case strings.HasPrefix(s, "@") || strings.HasPrefix(s, "include") || strings.HasPrefix(s, "module") || strings.HasPrefix(s, "do"):
			return nil, ls.errorf("line", "%q: ibsim's includes, modules, aliases and commands are not supported; give the fabric in one file", clip(s))
		case strings.Contains(s, "="):
			// vendid=, devid=, sysimgguid=, switchguid=, caguid=, width=, speed=: node
			// attributes wormcheck does not use.
		default:
			return nil, ls.errorf("line", "%q is neither a node header, a port line \"[P] \\\"remote\\\"[P]\" nor KEY=VALUE", clip(s))
		}
	}
	if ls.err != nil {
		return nil, ls.err
	}
	for _, l := range links {
		j, ok := b.byName[l.remote]
		if !ok {
			return nil, &ParseError{File: name, Line: l.line, Field: "remote", Msg: fmt.Sprintf("no node record has id %q", l.remote)}
		}
		if l.rport < 1 || l.rport > b.f.Nodes[j].NumPorts() {
			return nil, &ParseError{File: name, Line: l.line, Field: "remote port", Msg: fmt.Sprintf("%q has ports 1..%d, not %d", l.remote, b.f.Nodes[j].NumPorts(), l.rport)}
		}
		if err := b.f.connect(l.a, PortRef{j, uint8(l.rport)}); err != nil {
			return nil, &ParseError{File: name, Line: l.line, Field: "link", Msg: err.Error()}
		}
	}
	return b.finish("node records (Switch N \"id\" or Hca N \"id\", then [P] \"remote\"[P] lines)")
}

// netHeader parses a node header and makes the node.
func (b *builder) netHeader(s string) (int32, error) {
	head, comment, _ := strings.Cut(s, "#")
	fs := strings.Fields(head)
	var kind Kind
	switch {
	case strings.HasPrefix(fs[0], "Switch"):
		kind = Switch
	case strings.HasPrefix(fs[0], "Rt"):
		kind = Router
	default:
		kind = CA
	}
	if len(fs) < 3 {
		return -1, fmt.Errorf("%q is not TYPE PORTS \"id\"", clip(s))
	}
	ports, ok := parseUint(fs[1], 10, 8)
	if !ok || ports == 0 || ports > 254 {
		return -1, fmt.Errorf("port count %q is not 1..254", fs[1])
	}
	id, err := quoted(strings.Join(fs[2:], " "))
	if err != nil {
		return -1, err
	}
	if _, dup := b.byName[id]; dup {
		return -1, fmt.Errorf("a second record for %q", id)
	}
	var guid uint64
	if len(id) > 2 && (id[:2] == "S-" || id[:2] == "H-" || id[:2] == "R-") {
		if g, ok := parseHex(id[2:], 64); ok {
			guid = g
		}
	}
	i, err := b.node(id, kind, int(ports), guid)
	if err != nil {
		return -1, err
	}
	n := &b.f.Nodes[i]
	if desc, err := quoted(comment); err == nil && desc != "" {
		n.Desc = desc
	}
	if kind == Switch {
		if lid := commentLID(comment); lid != 0 {
			n.Ports[0].LID = lid
		}
	}
	return i, nil
}

// parseNetPort parses "[P](guid) "remote"[RP](guid) opts # comment".
func parseNetPort(s string, ports int) (p int, remote string, rport int, lid uint16, err error) {
	s, comment, _ := strings.Cut(s, "#")
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return 0, "", 0, 0, fmt.Errorf("%q: no closing ']' after the port number", clip(s))
	}
	n, ok := parseUint(strings.TrimSpace(s[1:end]), 10, 8)
	if !ok || n < 1 || int(n) > ports {
		return 0, "", 0, 0, fmt.Errorf("port %q is not 1..%d", s[1:end], ports)
	}
	rest := s[end+1:]
	q := strings.IndexByte(rest, '"')
	if q < 0 {
		return 0, "", 0, 0, fmt.Errorf("%q: no \"remote id\"", clip(s))
	}
	rest = rest[q+1:]
	e := strings.IndexByte(rest, '"')
	if e < 0 {
		return 0, "", 0, 0, fmt.Errorf("%q: the remote id is not closed by '\"'", clip(s))
	}
	remote, rest = rest[:e], rest[e+1:]
	rport = 1
	if strings.HasPrefix(rest, "[") {
		close := strings.IndexByte(rest, ']')
		v, ok := parseUint(strings.TrimSpace(rest[1:max(close, 1)]), 10, 8)
		if close < 0 || !ok || v == 0 {
			return 0, "", 0, 0, fmt.Errorf("remote port %q is not a port number in [ ]", clip(rest))
		}
		rport = int(v)
	}
	return int(n), remote, rport, commentLID(comment), nil
}

// quoted returns the first "..." string of s.
func quoted(s string) (string, error) {
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return "", fmt.Errorf("%q: no \"quoted\" id", clip(strings.TrimSpace(s)))
	}
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return "", fmt.Errorf("%q: the id is not closed by '\"'", clip(strings.TrimSpace(s)))
	}
	return s[i+1 : i+1+j], nil
}

// commentLID returns N of the first "lid N" in an ibnetdiscover comment, 0 if none.
func commentLID(comment string) uint16 {
	fs := strings.Fields(comment)
	for i := 0; i+1 < len(fs); i++ {
		if fs[i] == "lid" {
			if v, ok := parseUint(fs[i+1], 0, 16); ok && v <= MaxLID {
				return uint16(v)
			}
		}
	}
	return 0
}
