package fabric

import (
	"fmt"
	"io"
	"strings"
)

// ReadLFTs reads a forwarding-table dump into f (ParseLFTs).
func (f *Fabric) ReadLFTs(path string) error {
	_, err := readWith(path, func(name string, r io.Reader) (struct{}, error) { return struct{}{}, f.ParseLFTs(name, r) })
	return err
}

// ParseLFTs reads the switches' linear forwarding tables into f, in either form OpenSM
// writes (osm_dump.c):
//
//	dump_ucast_routes: Switch 0x0002c90109fb0000        (opensm.fdbs, ibdm's osm.fdbs)
//	LID    : Port : Hops : Optimal
//	0x0001 : 005  : 05   : yes
//	0x0003 : UNREACHABLE
//
//	Unicast lids [0-8] of switch Lid 1 guid 0x0000000000200000 ('RD1'):   (opensm-lfts.dump)
//	0x0001 000 # Switch portguid 0x...: 'RD1'
//	8 lids dumped
//
// LIDs are hexadecimal, ports decimal. A switch the subnet does not have, a port it
// does not have, or a switch given twice is bad input. Switches the dump does not list
// keep no table (every LID unassigned).
func (f *Fabric) ParseLFTs(name string, r io.Reader) error {
	if f.LFT == nil {
		f.LFT = make([][]uint8, len(f.Nodes))
	}
	seen := make([]bool, len(f.Nodes))
	sw := -1
	ls := newLines(name, r)
	tables := 0
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		s := strings.TrimSpace(line)
		switch {
		case s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "LID ") || strings.HasSuffix(s, "lids dumped"):
			continue
		case strings.HasPrefix(s, "dump_ucast_routes:") || strings.HasPrefix(s, "Unicast lids"):
			i, err := f.lftHeader(s)
			if err != nil {
				return ls.errorf("switch", "%v", err)
			}
			if seen[i] {
				return ls.errorf("switch", "%s has a second table", f.NodeName(int32(i)))
			}
			seen[i], sw = true, i
			tables++
			if f.LFT[i] == nil {
				f.LFT[i] = []uint8{}
			}
		case strings.HasPrefix(s, "0x"):
			if sw < 0 {
				return ls.errorf("LID", "an entry before any switch header")
			}
			lid, port, err := parseLFTEntry(s)
			if err != nil {
				return ls.errorf(err.field, "%s", err.msg)
			}
			if port != NoPort && port > f.Nodes[sw].NumPorts() {
				return ls.errorf("port", "%d: %s has ports 0..%d", port, f.NodeName(int32(sw)), f.Nodes[sw].NumPorts())
			}
			f.setLFT(sw, lid, uint8(port))
		default:
			return ls.errorf("line", "%q is neither a switch header nor a LID entry", clip(s))
		}
	}
	if ls.err != nil {
		return ls.err
	}
	if tables == 0 {
		return &ParseError{File: name, Msg: "no switch tables (\"dump_ucast_routes: Switch 0x...\" or \"Unicast lids [...] of switch ...\")"}
	}
	return nil
}

// lftHeader returns the switch a table header names.
func (f *Fabric) lftHeader(s string) (int, error) {
	var guid string
	if rest, ok := strings.CutPrefix(s, "dump_ucast_routes:"); ok {
		fs := strings.Fields(rest)
		if len(fs) < 2 || fs[0] != "Switch" {
			return -1, fmt.Errorf("want \"dump_ucast_routes: Switch 0xGUID\"")
		}
		guid = fs[1]
	} else {
		_, after, ok := strings.Cut(s, " guid ")
		if !ok {
			return -1, fmt.Errorf("want \"Unicast lids [0-N] of switch Lid L guid 0xGUID ('desc'):\"")
		}
		guid = strings.TrimSuffix(strings.Fields(after)[0], ":")
	}
	g, ok := parseHex(guid, 64)
	if !ok {
		return -1, fmt.Errorf("GUID %q is not hexadecimal", guid)
	}
	i := f.NodeByGUID(g)
	if i < 0 {
		return -1, fmt.Errorf("no node has GUID 0x%016x in the subnet", g)
	}
	if f.Nodes[i].Kind != Switch {
		return -1, fmt.Errorf("0x%016x is a %s, not a switch", g, f.Nodes[i].Kind)
	}
	return i, nil
}

type fieldError struct{ field, msg string }

// parseLFTEntry parses "0xLID : PORT : ..." or "0xLID PORT # ..."; UNREACHABLE and
// entries without a port give NoPort.
func parseLFTEntry(s string) (uint16, int, *fieldError) {
	s, _, _ = strings.Cut(s, "#")
	fs := strings.Fields(strings.ReplaceAll(s, ":", " "))
	lid, ok := parseHex(fs[0], 16)
	if !ok || lid == 0 || lid > MaxLID {
		return 0, 0, &fieldError{"LID", fmt.Sprintf("%q is not a unicast LID (0x0001..0xBFFF)", fs[0])}
	}
	if len(fs) < 2 || fs[1] == "UNREACHABLE" {
		return uint16(lid), NoPort, nil
	}
	port, ok := parseUint(fs[1], 10, 16)
	if !ok {
		return 0, 0, &fieldError{"port", fmt.Sprintf("%q is not a port number", fs[1])}
	}
	if port > 254 {
		return 0, 0, &fieldError{"port", fmt.Sprintf("%d is not a port number (0..254)", port)}
	}
	return uint16(lid), int(port), nil
}

// setLFT sets switch sw's entry for lid, growing its table.
func (f *Fabric) setLFT(sw int, lid uint16, port uint8) {
	t := f.LFT[sw]
	for len(t) <= int(lid) {
		t = append(t, NoPort)
	}
	t[lid] = port
	f.LFT[sw] = t
}

// SetLFT sets switch sw's entry for lid (NoPort: unassigned).
func (f *Fabric) SetLFT(sw int, lid uint16, port uint8) {
	if f.LFT == nil {
		f.LFT = make([][]uint8, len(f.Nodes))
	}
	f.setLFT(sw, lid, port)
}

// LFTPort returns switch sw's output port for lid, NoPort where it has none.
func (f *Fabric) LFTPort(sw int32, lid uint16) uint8 {
	if int(sw) >= len(f.LFT) {
		return NoPort
	}
	if t := f.LFT[sw]; int(lid) < len(t) {
		return t[lid]
	}
	return NoPort
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
