package fabric

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// ReadCables reads an ibdm cable list (ParseCables).
func ReadCables(path string) (*Fabric, error) { return readWith(path, ParseCables) }

// ParseCables parses an ibdm cable list (IBFabric::parseCables): one cable per line,
//
//	Reindeer RD1 P2 Reindeer RD4 P3
//
// (system type, system name, system port, and the same for the other end), '#'
// comments. System types are those of SystemTypes; a chassis type is refused by name.
// The result has no LIDs and no tables: it is a topology to route.
func ParseCables(name string, r io.Reader) (*Fabric, error) {
	b := newBuilder(name)
	ls := newLines(name, r)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		s, _, _ := strings.Cut(line, "#")
		fs := strings.Fields(s)
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 6 {
			return nil, ls.errorf("cable", "%q has %d fields; a cable is TYPE1 NAME1 PORT1 TYPE2 NAME2 PORT2", clip(strings.TrimSpace(s)), len(fs))
		}
		a, err := b.systemPort(fs[0], fs[1], fs[2])
		if err != nil {
			return nil, ls.errorf("first end", "%v", err)
		}
		c, err := b.systemPort(fs[3], fs[4], fs[5])
		if err != nil {
			return nil, ls.errorf("second end", "%v", err)
		}
		if err := b.f.connect(a, c); err != nil {
			return nil, ls.errorf("cable", "%v", err)
		}
	}
	if ls.err != nil {
		return nil, ls.err
	}
	return b.finish("cables (TYPE1 NAME1 PORT1 TYPE2 NAME2 PORT2 per line)")
}

// systemPort returns the node port of system port port of system name of type typ.
func (b *builder) systemPort(typ, name, port string) (PortRef, error) {
	t, err := lookupSystem(typ)
	if err != nil {
		return None, err
	}
	i, err := b.node(name, t.Kind, t.Ports, 0)
	if err != nil {
		return None, err
	}
	p, err := systemPort(port, t.Ports)
	if err != nil {
		return None, fmt.Errorf("system %s of type %s: %v", name, typ, err)
	}
	return PortRef{i, uint8(p)}, nil
}

// ReadTopo reads an ibdm topology file (ParseTopo).
func ReadTopo(path string) (*Fabric, error) { return readWith(path, ParseTopo) }

var (
	topoSystem = regexp.MustCompile(`^\s*([^/\s]+)\s+([^/\s]+)\s*( CFG:(.*))?$`)
	topoPort   = regexp.MustCompile(`^\s+(\S+)\s+-((1|4|8|12)[xX]-)?((2\.5|5|10)G-)?>\s+(\S+)\s+(\S+)\s+(\S+)\s*$`)
)

// ParseTopo parses an ibdm topology file (IBFabric::parseTopology): a system line
// "TYPE NAME" at the left margin, then its cables indented, "P1 -> TYPE NAME P3" (the
// arrow may carry a width and speed, "-4x-5G->"), a blank line ending the system; '#'
// comments. System types are those of SystemTypes; configuration modifiers (CFG:) and
// chassis types need IBNL definitions and are refused by name.
func ParseTopo(name string, r io.Reader) (*Fabric, error) {
	b := newBuilder(name)
	ls := newLines(name, r)
	var cur struct {
		typ, name string
		ok        bool
	}
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			cur.ok = false
			continue
		}
		if m := topoPort.FindStringSubmatch(line); m != nil {
			if !cur.ok {
				return nil, ls.errorf("cable", "a port line outside a system (a system line \"TYPE NAME\" must come first)")
			}
			a, err := b.systemPort(cur.typ, cur.name, m[1])
			if err != nil {
				return nil, ls.errorf("local port", "%v", err)
			}
			c, err := b.systemPort(m[6], m[7], m[8])
			if err != nil {
				return nil, ls.errorf("remote end", "%v", err)
			}
			if err := b.f.connect(a, c); err != nil {
				return nil, ls.errorf("cable", "%v", err)
			}
			continue
		}
		if m := topoSystem.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
			if m[3] != "" {
				return nil, ls.errorf("CFG", "system %s: configuration modifiers %q select boards of a chassis; wormcheck has no chassis definitions", m[2], m[4])
			}
			t, err := lookupSystem(m[1])
			if err != nil {
				return nil, ls.errorf("system type", "%v", err)
			}
			if _, err := b.node(m[2], t.Kind, t.Ports, 0); err != nil {
				return nil, ls.errorf("system", "%v", err)
			}
			cur.typ, cur.name, cur.ok = m[1], m[2], true
			continue
		}
		return nil, ls.errorf("line", "%q is neither a system line \"TYPE NAME\" nor an indented cable \"PORT -> TYPE NAME PORT\"", clip(strings.TrimSpace(line)))
	}
	if ls.err != nil {
		return nil, ls.err
	}
	return b.finish("systems (a \"TYPE NAME\" line, then indented \"PORT -> TYPE NAME PORT\" cables)")
}
