package creditloop

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/fabric/sm"
	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/props"
)

// Spec is what `wormcheck fabric` is asked: the fabric's files, how it is routed, the
// failed links and the sizes.
type Spec struct {
	Files fabric.Files
	// Route is "" (the tables of Files.LFTs), "minhop" or "updn" (wormcheck routes the
	// fabric as OpenSM's engine; updn with Roots, switch names or GUIDs).
	Route string
	Roots []string
	// Faults are failed links, each one end "NODE/PORT" (a node description or 0xGUID,
	// a port number or PN).
	Faults []string
	All    bool
	// MTU and Buffer are in bytes (an IB credit is 64 bytes); 0 takes 2048 and 4096.
	MTU, Buffer int
	MaxStates   int64
	// MaxMemoryBytes bounds what the files may take (model/input: half of it per file);
	// 0 for input's own caps.
	MaxMemoryBytes int64
	// Progress receives progress lines (Options.Progress).
	Progress io.Writer
}

// Check reads, routes and analyses a fabric as spec says and returns the report.
// Input errors are props.ErrBadInput, one line naming the field of spec (a
// props.FieldError) or the file's line.
func Check(ctx context.Context, spec Spec) (*Report, error) {
	if spec.MTU == 0 {
		spec.MTU = 2048
	}
	if spec.Buffer == 0 {
		spec.Buffer = 4096
	}
	switch spec.MTU {
	case 256, 512, 1024, 2048, 4096:
	default:
		return nil, props.FieldErrorf("{Spec.MTU} %d: an InfiniBand MTU is 256, 512, 1024, 2048 or 4096 bytes", spec.MTU)
	}
	if spec.Buffer < spec.MTU || spec.Buffer%64 != 0 || spec.Buffer > 1<<24 {
		return nil, props.FieldErrorf("{Spec.Buffer} %d: the buffer of one port and VL must hold at least one packet ({Spec.MTU} %d) and be whole 64-byte credits", spec.Buffer, spec.MTU)
	}
	if spec.Files.Read == nil {
		spec.Files.Read = input.Reader(ctx, input.Fabric.Within(spec.MaxMemoryBytes))
	}
	f, format, err := fabric.Load(spec.Files)
	if err != nil {
		return nil, props.BadInputf("%v", err)
	}
	routed, err := route(f, format, spec)
	if err != nil {
		return nil, err
	}
	opt := Options{All: spec.All, Packet: spec.MTU / 64, Buffer: spec.Buffer / 64, MaxStates: spec.MaxStates, Progress: spec.Progress}
	a, err := Analyze(ctx, f, opt)
	if err != nil {
		return nil, err
	}
	meta := Meta{File: spec.Files.Topology, Format: format.String(), Routed: routed, MTU: spec.MTU, Params: spec.params()}
	if len(spec.Faults) == 0 {
		return NewReport(a, meta, nil, nil), nil
	}
	g := f.Clone()
	if err := fail(g, spec.Faults); err != nil {
		return nil, err
	}
	if spec.Route != "" {
		if _, err := route(g, format, spec); err != nil {
			return nil, err
		}
	}
	b, err := Analyze(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	return NewReport(a, meta, b, spec.Faults), nil
}

// params are the report's instance parameters.
func (s Spec) params() map[string]any {
	p := map[string]any{"mtu": s.MTU, "buffer": s.Buffer, "all": s.All}
	for k, v := range map[string]string{"lft": s.Files.LFTs, "sl2vl": s.Files.SL2VL, "path_sl": s.Files.PathSL, "route": s.Route} {
		if v != "" {
			p[k] = v
		}
	}
	if s.Files.LMC != 0 {
		p["lmc"] = s.Files.LMC
	}
	if len(s.Roots) > 0 {
		p["roots"] = strings.Join(s.Roots, ",")
	}
	if len(s.Faults) > 0 {
		p["faults"] = strings.Join(s.Faults, ",")
	}
	return p
}

// route gives f its tables as spec says and names who routed it.
func route(f *fabric.Fabric, format fabric.Format, spec Spec) (string, error) {
	switch {
	case spec.Route == "" && spec.Files.LFTs != "":
		return "the dumped tables", nil
	case spec.Route == "":
		return "", props.FieldErrorf("%s is a %s without forwarding tables: give the LFT dump ({Spec.Files.LFTs}) or route it as the subnet manager would ({Spec.Route} minhop, or {Spec.Route} updn {Spec.Roots} SWITCHES)", spec.Files.Topology, format)
	case spec.Files.LFTs != "":
		return "", props.FieldErrorf("{Spec.Route} %s and {Spec.Files.LFTs} exclude each other: either check the dumped tables or let wormcheck route", spec.Route)
	}
	if f.MaxLIDInUse() == 0 {
		if err := sm.AssignLIDs(f); err != nil {
			return "", props.BadInputf("%s: %v", spec.Files.Topology, err)
		}
	}
	switch spec.Route {
	case "minhop":
		if len(spec.Roots) > 0 {
			return "", props.FieldErrorf("{Spec.Roots} is for {Spec.Route} updn; minhop has no roots")
		}
		if err := sm.MinHop(f); err != nil {
			return "", props.FieldErrorf("{Spec.Route} minhop: %v", err)
		}
		return "wormcheck as OpenSM's minhop", nil
	case "updn":
		var roots []int32
		for _, r := range spec.Roots {
			i, err := nodeByName(f, r)
			if err != nil {
				return "", props.FieldErrorf("{Spec.Roots} %s: %v", r, err)
			}
			roots = append(roots, int32(i))
		}
		if len(roots) == 0 {
			return "", props.FieldErrorf("{Spec.Route} updn needs {Spec.Roots}: the root switches, by name or GUID (OpenSM's -a file)")
		}
		if err := sm.UpDown(f, roots); err != nil {
			return "", props.FieldErrorf("{Spec.Route} updn: %v", err)
		}
		return "wormcheck as OpenSM's updn, roots " + strings.Join(spec.Roots, ","), nil
	}
	return "", props.FieldErrorf("{Spec.Route} %q: wormcheck routes as minhop or updn (other engines: route with OpenSM and give its dumps)", spec.Route)
}

// nodeByName finds a node by description (unique) or 0xGUID.
func nodeByName(f *fabric.Fabric, s string) (int, error) {
	if strings.HasPrefix(s, "0x") {
		g, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return -1, fmt.Errorf("%q is not a hexadecimal GUID", s)
		}
		if i := f.NodeByGUID(g); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("no node has GUID %s", s)
	}
	found := -1
	for i, n := range f.Nodes {
		if n.Desc == s {
			if found >= 0 {
				return -1, fmt.Errorf("several nodes are called %q; name it by GUID", s)
			}
			found = i
		}
	}
	if found < 0 {
		return -1, fmt.Errorf("no node is called %q", s)
	}
	return found, nil
}

// fail takes down the links whose ends the faults name ("NODE/PORT").
func fail(f *fabric.Fabric, faults []string) error {
	for _, x := range faults {
		node, port, ok := strings.Cut(x, "/")
		if !ok {
			return props.FieldErrorf("{Spec.Faults} %s: name a link by one end, NODE/PORT (a node description or 0xGUID, and a port number)", x)
		}
		i, err := nodeByName(f, node)
		if err != nil {
			return props.FieldErrorf("{Spec.Faults} %s: %v", x, err)
		}
		p, err := strconv.Atoi(strings.TrimPrefix(port, "P"))
		if err != nil || p < 1 || p > f.Nodes[i].NumPorts() {
			return props.FieldErrorf("{Spec.Faults} %s: port %q is not 1..%d", x, port, f.Nodes[i].NumPorts())
		}
		ref := fabric.PortRef{Node: int32(i), Port: uint8(p)}
		r := f.Port(ref).Remote
		if !r.Valid() {
			return props.FieldErrorf("{Spec.Faults} %s: %s has no link", x, f.PortName(ref))
		}
		f.Port(ref).Down, f.Port(r).Down = true, true
	}
	return nil
}
