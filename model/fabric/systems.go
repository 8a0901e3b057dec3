package fabric

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SystemType is a product type a cable list or topology file names ("MTS2400",
// "Cougar"): one switch or CA chip whose ports P1..PN are the system's ports.
type SystemType struct {
	Names []string // the type and its aliases, as ibdm's IBNL files list them
	Kind  Kind
	Ports int
	// Source says where the definition comes from.
	Source string
}

// systemTypes are the single-node systems ibdm defines (its ibnl/*.ibnl files whose
// TOPSYSTEM holds one NODE, with port N wired to system port PN), and MTS400, which
// ibdm's own credit-loop demonstration names but ships no IBNL file for. Chassis made
// of several nodes wired inside (Gnu, Gazelle/MTS9600, MTS14400, MTS3610, IS5x00, ...)
// need their internal wiring and are refused by name.
var systemTypes = []SystemType{
	{[]string{"Buffalo", "MTS800"}, Switch, 8, "ibdm ibnl/Buffalo.ibnl"},
	{[]string{"MTS400"}, Switch, 8, "the MTS400 (InfiniScale MT43132, 8 ports); ibdm's demo/credit-loops.topo names it, ibdm ships no IBNL for it"},
	{[]string{"Reindeer", "MTS2400", "MTS2400-24"}, Switch, 24, "ibdm ibnl/MTS2400-24.ibnl"},
	{[]string{"Reindeer-12x12x", "MTS2400-12T4"}, Switch, 24, "ibdm ibnl/MTS2400-12T4.ibnl"},
	{[]string{"MTS3600", "Shark"}, Switch, 36, "ibdm ibnl/MTS3600.ibnl"},
	{[]string{"IS4", "F464M"}, Switch, 36, "ibdm ibnl/IS4_NATIVE.ibnl"},
	{[]string{"SUNDCS36QDR", "NM2-36P"}, Switch, 36, "ibdm ibnl/SUNDCS36QDR.ibnl"},
	{[]string{"Cougar", "MT23108", "MTPB23108", "MHX-CE128-T", "MHX-CE256-T", "MHX-CE512-T", "MHXL-CF128-T", "MHXL-CF256-T", "MHXL-CF512-T"}, CA, 2, "ibdm ibnl/Cougar.ibnl"},
	{[]string{"Cheetah", "MHGS18-XT", "MT25204"}, CA, 1, "ibdm ibnl/Cheetah.ibnl"},
	{[]string{"Eagle", "MT25408", "MHEH28", "MHGH28"}, CA, 2, "ibdm ibnl/Eagle.ibnl"},
	{[]string{"Lion", "MT25208", "MTLP25208", "MHEL-CF128-T", "MHEL-CF256-T", "MHEL-CF512-T"}, CA, 2, "ibdm ibnl/Lion.ibnl"},
	{[]string{"LionMini", "MHEA28-XT", "MT25218"}, CA, 2, "ibdm ibnl/LionMini.ibnl"},
}

// chassisTypes are ibdm's multi-node systems: their ports reach switches inside the
// chassis through wiring only their IBNL definition gives.
var chassisTypes = []string{"Gnu", "Gazelle", "MTS9600", "GZ", "MTS14400", "Rhino", "MTS14400-48", "Rhino12X",
	"Rhino-12x", "MTS14400-DDR", "RhinoDDR", "MTS14400-IntraDDR", "Rhino-IntraDDR", "MTS3610", "Mammoth",
	"IS5100", "MIS5100", "Orca108", "IS5200", "MIS5200", "Orca216", "IS5300", "MIS5300", "Orca324",
	"IS5600", "MIS5600", "Orca", "SUNDCS648QDR", "SUN-M9-648", "SUNDCS72QDR", "NM2-72P", "SUNBQNEM48", "SUN-QNEM"}

// SystemTypes lists the system types cable lists and topology files may name.
func SystemTypes() []SystemType { return slices.Clone(systemTypes) }

// lookupSystem finds a system type by name (case-sensitive, as ibdm).
func lookupSystem(name string) (SystemType, error) {
	for _, t := range systemTypes {
		if slices.Contains(t.Names, name) {
			return t, nil
		}
	}
	if slices.Contains(chassisTypes, name) {
		return SystemType{}, fmt.Errorf("system type %q is a chassis of several switches wired inside; its IBNL definition is needed and wormcheck has none (single-node types: %s)", name, knownTypes())
	}
	return SystemType{}, fmt.Errorf("system type %q has no definition (wormcheck knows the single-node types %s)", name, knownTypes())
}

func knownTypes() string {
	var out []string
	for _, t := range systemTypes {
		out = append(out, fmt.Sprintf("%s (%s, %d ports)", t.Names[0], t.Kind, t.Ports))
	}
	return strings.Join(out, ", ")
}

// systemPort parses a system port name "P<n>" (also a bare number) within 1..ports.
func systemPort(name string, ports int) (int, error) {
	s := strings.TrimPrefix(name, "P")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > ports {
		return 0, fmt.Errorf("%q is not a port P1..P%d", name, ports)
	}
	return n, nil
}

// builder assembles a fabric from named nodes (cable lists, topology and net files),
// giving GUIDs the way ibsim does: switches from 0x200000 one each, CAs and routers
// from 0x100000 with one GUID for the node and one per port.
type builder struct {
	f      *Fabric
	byName map[string]int32
	nextSW uint64
	nextCA uint64
}

func newBuilder(name string) *builder {
	return &builder{f: &Fabric{Name: name}, byName: map[string]int32{}, nextSW: 0x200000, nextCA: 0x100000}
}

// node returns the node called name, making it a kind with ports ports; guid 0 takes
// the next GUID in ibsim's order.
func (b *builder) node(name string, kind Kind, ports int, guid uint64) (int32, error) {
	if i, ok := b.byName[name]; ok {
		n := &b.f.Nodes[i]
		if n.Kind != kind || n.NumPorts() != ports {
			return -1, fmt.Errorf("%q is a %s with %d ports earlier and a %s with %d here", name, n.Kind, n.NumPorts(), kind, ports)
		}
		return i, nil
	}
	if len(b.f.Nodes) >= MaxNodes {
		return -1, fmt.Errorf("more than %d nodes", MaxNodes)
	}
	if ports < 1 || ports > 254 {
		return -1, fmt.Errorf("%q has %d ports; a node has 1..254", name, ports)
	}
	n := Node{Kind: kind, Desc: name, Ports: make([]Port, ports+1)}
	for p := range n.Ports {
		n.Ports[p].Remote = None
	}
	switch {
	case guid != 0:
		n.GUID = guid
	case kind == Switch:
		n.GUID = b.nextSW
		b.nextSW++
	default:
		n.GUID = b.nextCA
		b.nextCA += uint64(ports) + 1
	}
	n.SystemGUID = n.GUID
	for p := range n.Ports {
		if kind == Switch {
			n.Ports[p].GUID = n.GUID
		} else if p > 0 {
			n.Ports[p].GUID = n.GUID + uint64(p)
		}
	}
	i := int32(len(b.f.Nodes))
	b.f.Nodes = append(b.f.Nodes, n)
	b.byName[name] = i
	return i, nil
}

// finish checks that the fabric has nodes and indexes it.
func (b *builder) finish(what string) (*Fabric, error) {
	if len(b.f.Nodes) == 0 {
		return nil, &ParseError{File: b.f.Name, Msg: "no " + what}
	}
	if err := b.f.Index(); err != nil {
		return nil, &ParseError{File: b.f.Name, Msg: strings.TrimPrefix(err.Error(), b.f.Name+": ")}
	}
	return b.f, nil
}
