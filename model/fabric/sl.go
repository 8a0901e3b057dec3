package fabric

import (
	"fmt"
	"io"
	"strings"
)

// ReadSL2VL reads SL-to-VL tables into f (ParseSL2VL).
func (f *Fabric) ReadSL2VL(path string) error {
	_, err := readWith(path, func(name string, r io.Reader) (struct{}, error) { return struct{}{}, f.ParseSL2VL(name, r) })
	return err
}

// ParseSL2VL reads SL-to-VL tables into f, in OpenSM's form (opensm-sl2vl.dump,
// osm_dump.c dump_sl2vl_tbl): a header per port, then "IN OUT : VL0 .. VL15" rows,
//
//	Switch 0x0000000000200000, base LID 1, "RD1"
//	0   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7
//	Channel Adapter 0x0000000000100001, base LID 2, "H1"
//	0   0   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7
//
// (a switch by its node GUID; a CA or router by the port GUID, whose one row maps the
// SLs on that port), or in ibdm's form, "0xNODEGUID IN OUT 0x01 0x23 ..." with the 16
// VLs as hexadecimal digit pairs. Ports not listed keep VL = SL.
func (f *Fabric) ParseSL2VL(name string, r io.Reader) error {
	if f.SL2VL == nil {
		f.SL2VL = make([]*SL2VL, len(f.Nodes))
	}
	cur := None
	ls := newLines(name, r)
	rows := 0
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		s := strings.TrimSpace(line)
		switch {
		case s == "" || strings.HasPrefix(s, "#"):
		case strings.HasPrefix(s, "Switch 0x") || strings.HasPrefix(s, "Channel Adapter 0x") || strings.HasPrefix(s, "Router 0x"):
			ref, err := f.sl2vlHeader(s)
			if err != nil {
				return ls.errorf("GUID", "%v", err)
			}
			cur = ref
		case strings.HasPrefix(s, "0x"):
			if err := f.ibdmSL2VLRow(s); err != nil {
				return ls.errorf(err.field, "%s", err.msg)
			}
			rows++
		default:
			if !cur.Valid() {
				return ls.errorf("line", "%q: a table row before any \"Switch 0x...\" or \"Channel Adapter 0x...\" header", clip(s))
			}
			if err := f.osmSL2VLRow(cur, s); err != nil {
				return ls.errorf(err.field, "%s", err.msg)
			}
			rows++
		}
	}
	if ls.err != nil {
		return ls.err
	}
	if rows == 0 {
		return &ParseError{File: name, Msg: "no SL2VL rows"}
	}
	return nil
}

func (f *Fabric) sl2vlHeader(s string) (PortRef, error) {
	_, after, _ := strings.Cut(s, "0x")
	hex, _, _ := strings.Cut(after, ",")
	g, ok := parseHex(hex, 64)
	if !ok {
		return None, fmt.Errorf("%q is not a hexadecimal GUID", hex)
	}
	ref := f.PortByGUID(g)
	if !ref.Valid() {
		return None, fmt.Errorf("no port has GUID 0x%016x in the subnet", g)
	}
	return ref, nil
}

// table returns node i's SL2VL table, making it.
func (f *Fabric) table(i int32) *SL2VL {
	if f.SL2VL[i] == nil {
		f.SL2VL[i] = NewSL2VL(f.Nodes[i].NumPorts())
	}
	return f.SL2VL[i]
}

func (f *Fabric) osmSL2VLRow(cur PortRef, s string) *fieldError {
	lhs, rhs, ok := strings.Cut(s, ":")
	io := strings.Fields(lhs)
	vls := strings.Fields(rhs)
	if !ok || len(io) != 2 || len(vls) != 16 {
		return &fieldError{"row", fmt.Sprintf("%q is not \"IN OUT : VL0 ... VL15\"", clip(s))}
	}
	in, ok1 := parseUint(io[0], 10, 8)
	out, ok2 := parseUint(io[1], 10, 8)
	n := &f.Nodes[cur.Node]
	if !ok1 || !ok2 || int(in) > n.NumPorts() || int(out) > n.NumPorts() {
		return &fieldError{"port", fmt.Sprintf("%q: %s has ports 0..%d", clip(lhs), f.NodeName(cur.Node), n.NumPorts())}
	}
	if n.Kind != Switch {
		in, out = 0, uint64(cur.Port)
	}
	t := f.table(cur.Node)
	for sl, v := range vls {
		vl, ok := parseUint(v, 10, 8)
		if !ok || vl > 15 {
			return &fieldError{fmt.Sprintf("VL of SL %d", sl), fmt.Sprintf("%q is not a VL 0..15", v)}
		}
		t.Set(int(in), int(out), uint8(sl), uint8(vl))
	}
	return nil
}

func (f *Fabric) ibdmSL2VLRow(s string) *fieldError {
	fs := strings.Fields(s)
	if len(fs) != 11 {
		return &fieldError{"row", fmt.Sprintf("%q is not \"0xGUID IN OUT\" and 8 bytes 0x(sl0)(sl1) ...", clip(s))}
	}
	g, ok := parseHex(fs[0], 64)
	i := f.NodeByGUID(g)
	if !ok || i < 0 {
		return &fieldError{"GUID", fmt.Sprintf("%q is not the node GUID of a node in the subnet", fs[0])}
	}
	in, ok1 := parseUint(fs[1], 10, 8)
	out, ok2 := parseUint(fs[2], 10, 8)
	n := &f.Nodes[i]
	if !ok1 || !ok2 || int(in) > n.NumPorts() || int(out) > n.NumPorts() {
		return &fieldError{"port", fmt.Sprintf("%s %s: %s has ports 0..%d", fs[1], fs[2], f.NodeName(int32(i)), n.NumPorts())}
	}
	t := f.table(int32(i))
	for k := 0; k < 8; k++ {
		b, ok := parseHex(fs[3+k], 8)
		if !ok || len(strings.TrimPrefix(fs[3+k], "0x")) != 2 {
			return &fieldError{fmt.Sprintf("VLs of SLs %d,%d", 2*k, 2*k+1), fmt.Sprintf("%q is not 0x followed by two hexadecimal digits", fs[3+k])}
		}
		t.Set(int(in), int(out), uint8(2*k), uint8(b>>4))
		t.Set(int(in), int(out), uint8(2*k+1), uint8(b&15))
	}
	return nil
}

// ReadPathSL reads path SLs into f (ParsePathSL).
func (f *Fabric) ReadPathSL(path string) error {
	_, err := readWith(path, func(name string, r io.Reader) (struct{}, error) { return struct{}{}, f.ParsePathSL(name, r) })
	return err
}

// ParsePathSL reads the SL of each path into f. OpenSM 3.3.23 writes no file of them:
// a routing engine that chooses SLs (LASH, DFSSSP, torus-2QoS) answers SA PathRecord
// queries with them, so the forms read are
//
//	PathRecord dump:                       (saquery -p --src-to-dst SLID:DLID, repeated)
//			dlid....................7
//			slid....................2
//			sl......................0x1
//
//	0x0002c90000000099 154 0               (ibdmchk -c: source node GUID, DLID, SL)
//
//	Channel Adapter 0x0002c9..., base LID 2, "h1"    (per source port: 0xDLID : SL)
//	0x0007 : 1
//
// A pair listed twice with different SLs is bad input; pairs not listed use SL 0.
func (f *Fabric) ParsePathSL(name string, r io.Reader) error {
	if f.PathSL == nil {
		f.PathSL = &PathSLs{}
	}
	ls := newLines(name, r)
	var src []PortRef
	var pr struct {
		in               bool
		slid, dlid, line int
		sl               int
	}
	flushPR := func() error {
		if !pr.in {
			return nil
		}
		pr.in = false
		if pr.slid < 0 || pr.dlid < 0 || pr.sl < 0 {
			return &ParseError{File: name, Line: pr.line, Field: "PathRecord", Msg: "a record without slid, dlid or sl"}
		}
		s := f.Owner(uint16(pr.slid))
		if !s.Valid() {
			return &ParseError{File: name, Line: pr.line, Field: "slid", Msg: fmt.Sprintf("no port has LID %d", pr.slid)}
		}
		return f.setPathSL(name, pr.line, []PortRef{s}, uint16(pr.dlid), uint8(pr.sl))
	}
	entries := 0
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		s := strings.TrimSpace(line)
		switch {
		case s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "ibwarn:"):
		case s == "PathRecord dump:":
			if err := flushPR(); err != nil {
				return err
			}
			pr.in, pr.line, pr.slid, pr.dlid, pr.sl = true, ls.n, -1, -1, -1
			entries++
		case pr.in && strings.Contains(s, "...."):
			k, v := dotField(s)
			var err error
			switch k {
			case "slid":
				pr.slid, err = decField(v, MaxLID)
			case "dlid":
				pr.dlid, err = decField(v, MaxLID)
			case "sl":
				var n uint64
				var ok bool
				if n, ok = parseHex(v, 8); !ok || n > 15 {
					err = fmt.Errorf("%q is not an SL 0x0..0xF", v)
				}
				pr.sl = int(n)
			}
			if err != nil {
				return ls.errorf(k, "%v", err)
			}
		case strings.HasPrefix(s, "Channel Adapter 0x") || strings.HasPrefix(s, "Switch 0x") || strings.HasPrefix(s, "Router 0x"):
			ref, err := f.sl2vlHeader(s)
			if err != nil {
				return ls.errorf("GUID", "%v", err)
			}
			src = []PortRef{ref}
		case strings.HasPrefix(s, "0x") && strings.Contains(s, ":"):
			if src == nil {
				return ls.errorf("line", "a \"0xDLID : SL\" entry before any \"Channel Adapter 0x...\" header")
			}
			lhs, rhs, _ := strings.Cut(s, ":")
			dlid, ok1 := parseHex(strings.TrimSpace(lhs), 16)
			sl, ok2 := parseUint(strings.TrimSpace(rhs), 10, 8)
			if !ok1 || !ok2 || dlid == 0 || dlid > MaxLID || sl > 15 {
				return ls.errorf("entry", "%q is not \"0xDLID : SL\"", clip(s))
			}
			if err := f.setPathSL(name, ls.n, src, uint16(dlid), uint8(sl)); err != nil {
				return err
			}
			entries++
		case strings.HasPrefix(s, "0x"):
			fs := strings.Fields(s)
			if len(fs) != 3 {
				return ls.errorf("entry", "%q is not \"0xSRCGUID DLID SL\"", clip(s))
			}
			g, ok := parseHex(fs[0], 64)
			node := f.NodeByGUID(g)
			if !ok || node < 0 {
				return ls.errorf("source GUID", "%q is not the node GUID of a node in the subnet", fs[0])
			}
			dlid, ok1 := parseUint(fs[1], 10, 16)
			sl, ok2 := parseUint(fs[2], 10, 8)
			if !ok1 || dlid == 0 || dlid > MaxLID {
				return ls.errorf("DLID", "%q is not a unicast LID in decimal", fs[1])
			}
			if !ok2 || sl > 15 {
				return ls.errorf("SL", "%q is not an SL 0..15", fs[2])
			}
			var refs []PortRef
			for p := range f.Nodes[node].Ports {
				if p > 0 || f.Nodes[node].Kind == Switch {
					refs = append(refs, PortRef{int32(node), uint8(p)})
				}
			}
			if err := f.setPathSL(name, ls.n, refs, uint16(dlid), uint8(sl)); err != nil {
				return err
			}
			entries++
		default:
			if !pr.in {
				return ls.errorf("line", "%q is not a path-SL entry", clip(s))
			}
		}
	}
	if ls.err != nil {
		return ls.err
	}
	if err := flushPR(); err != nil {
		return err
	}
	if entries == 0 {
		return &ParseError{File: name, Msg: "no path SLs (saquery PathRecord dumps, \"0xSRCGUID DLID SL\" lines, or \"0xDLID : SL\" under a port header)"}
	}
	return nil
}

func (f *Fabric) setPathSL(name string, line int, srcs []PortRef, dlid uint16, sl uint8) error {
	for _, s := range srcs {
		if old, ok := f.PathSL.sl[pathKey{s, dlid}]; ok && old != sl {
			return &ParseError{File: name, Line: line, Field: "SL", Msg: fmt.Sprintf("the path from %s to LID %d has SL %d on an earlier line and %d here", f.PortName(s), dlid, old, sl)}
		}
		f.PathSL.Set(s, dlid, sl)
	}
	return nil
}

// dotField splits "key..........value".
func dotField(s string) (string, string) {
	i := strings.Index(s, "..")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], ".")
}

func decField(v string, max int) (int, error) {
	n, ok := parseUint(v, 10, 32)
	if !ok || int(n) > max {
		return 0, fmt.Errorf("%q is not a LID in decimal", v)
	}
	return int(n), nil
}
