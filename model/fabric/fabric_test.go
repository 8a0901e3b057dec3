package fabric

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shared returns the path of a file of ../shared/fabrics/ib, skipping the test with one
// line where the folder is absent.
func shared(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "fabrics", "ib", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real fabric files absent (%s): %v", p, err)
	}
	return p
}

func count(f *Fabric, k Kind) int {
	n := 0
	for _, x := range f.Nodes {
		if x.Kind == k {
			n++
		}
	}
	return n
}

// The real 62-switch cluster: its subnet list and OpenSM's dump of its tables.
func TestReal62SwitchCluster(t *testing.T) {
	f, format, err := Load(Files{Topology: shared(t, "subnet.lst"), LFTs: shared(t, "osm.fdbs")})
	if err != nil {
		t.Fatal(err)
	}
	if format != SubnetList {
		t.Fatalf("format %v", format)
	}
	if s, c := count(f, Switch), count(f, CA); s != 62 || c != 3 {
		t.Fatalf("%d switches and %d CAs; want 62 and 3 (two CAs and the CA of the SM)", s, c)
	}
	entries := 0
	for _, tb := range f.LFT {
		for _, p := range tb {
			if p != NoPort {
				entries++
			}
		}
	}
	// ibdmchk reads the same dump as "Defined 4030 fdb entries for:62 switches".
	if entries != 4030 {
		t.Fatalf("%d LFT entries; ibdmchk counts 4030", entries)
	}
	// Every port's link is mutual.
	for i, n := range f.Nodes {
		for p := 1; p < len(n.Ports); p++ {
			if r := n.Ports[p].Remote; r.Valid() && f.Port(r).Remote != (PortRef{int32(i), uint8(p)}) {
				t.Fatalf("%s links to %s, which links elsewhere", f.PortName(PortRef{int32(i), uint8(p)}), f.PortName(r))
			}
		}
	}
	// Every CA reaches every other CA.
	var cas []PortRef
	for i, n := range f.Nodes {
		if n.Kind == CA {
			for p := 1; p < len(n.Ports); p++ {
				if n.Ports[p].LID != 0 {
					cas = append(cas, PortRef{int32(i), uint8(p)})
				}
			}
		}
	}
	for _, s := range cas {
		for _, d := range cas {
			if s == d {
				continue
			}
			p := f.Route(s, f.Port(d).LID)
			if p.End != Delivered {
				t.Errorf("%s to %s: %v at %s", f.PortName(s), f.PortName(d), p.End, f.NodeName(p.At))
			}
		}
	}
}

func TestCablesAndTopo(t *testing.T) {
	f, format, err := Load(Files{Topology: shared(t, "CreditLoopDemo.cables")})
	if err != nil {
		t.Fatal(err)
	}
	if format != CableList || count(f, Switch) != 4 || count(f, CA) != 4 || len(f.Links()) != 8 {
		t.Fatalf("%v: %d switches, %d CAs, %d links; want a cable list of 4, 4, 8", format, count(f, Switch), count(f, CA), len(f.Links()))
	}
	f, format, err = Load(Files{Topology: shared(t, "credit-loops.topo")})
	if err != nil {
		t.Fatal(err)
	}
	// 8 leaf, 8 middle and 4 top switches, 16 hosts; 16 + 16 + 16 cables.
	if format != TopoFile || count(f, Switch) != 20 || count(f, CA) != 16 || len(f.Links()) != 48 {
		t.Fatalf("%v: %d switches, %d CAs, %d links; want a topology file of 20, 16, 48", format, count(f, Switch), count(f, CA), len(f.Links()))
	}
}

func TestNetFiles(t *testing.T) {
	for _, c := range []struct {
		file          string
		sw, ca, links int
	}{{"ibsim-net", 2, 2, 4}, {"ibsim-net.2sw2path4hca", 2, 4, 6}} {
		f, format, err := Load(Files{Topology: shared(t, c.file)})
		if err != nil {
			t.Fatal(err)
		}
		if format != NetFile || count(f, Switch) != c.sw || count(f, CA) != c.ca || len(f.Links()) != c.links {
			t.Errorf("%s: %v with %d switches, %d CAs, %d links; want %d, %d, %d", c.file, format, count(f, Switch), count(f, CA), len(f.Links()), c.sw, c.ca, c.links)
		}
	}
}

// GUIDs follow ibsim's order, so that a net file and the subnet list OpenSM writes
// for ibsim's simulation of it name the same nodes.
func TestNetGUIDsAsIbsim(t *testing.T) {
	f, err := ParseNet("ring", strings.NewReader(`Switch 8 "RD1"
[1] "H1"[1]
[2] "RD2"[3]

Switch 8 "RD2"
[3] "RD1"[2]

Hca 2 "H1"
[1] "RD1"[1]

Hca 2 "H2"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"RD1": 0x200000, "RD2": 0x200001, "H1": 0x100000, "H2": 0x100003}
	for _, n := range f.Nodes {
		if n.GUID != want[n.Desc] {
			t.Errorf("%s: GUID 0x%x; ibsim gives 0x%x", n.Desc, n.GUID, want[n.Desc])
		}
	}
	if f.Nodes[2].Ports[1].GUID != 0x100001 {
		t.Errorf("H1 port 1 GUID 0x%x; ibsim gives 0x100001", f.Nodes[2].Ports[1].GUID)
	}
}

// Bad input is one line naming the file, the line and the field.
func TestBadInput(t *testing.T) {
	cases := []struct {
		parse func(string) error
		text  string
		want  string
	}{
		{subnet, "{ SW Ports:08 NodeGUID:01 {x} LID:0001 PN:09 } { SW Ports:08 NodeGUID:02 {y} LID:0002 PN:01 } LOG=ACT", "t:1: first port: PN \"09\" is not a port number 1..8"},
		{subnet, "{ SX Ports:08 NodeGUID:01 {x} LID:0001 PN:01 }", "t:1: first port: type \"SX\""},
		{subnet, "{ SW Ports:08 NodeGUID:01 {x} LID:0001 PN:01 } { SW Ports:08 NodeGUID:02 {y} LID:0002 PN:01 } LOG=XYZ", "t:1: link: LOG=XYZ"},
		{cables, "Reindeer A P1 Reindeer B\n", "t:1: cable: \"Reindeer A P1 Reindeer B\" has 5 fields"},
		{cables, "Reindeer A P1 Gnu B P1\n", "t:1: second end: system type \"Gnu\" is a chassis"},
		{cables, "Reindeer A P1 Frob B P1\n", "t:1: second end: system type \"Frob\" has no definition"},
		{cables, "Reindeer A P25 Reindeer B P1\n", "t:1: first end: system A of type Reindeer: \"P25\" is not a port P1..P24"},
		{cables, "Reindeer A P1 Reindeer B P1\nReindeer A P1 Reindeer C P1\n", "t:2: cable: switch \"A\""},
		{topo, "MTS400 A CFG:x\n   P1 -> MTS400 B P1\n", "t:1: CFG:"},
		{topo, "   P1 -> MTS400 B P1\n", "t:1: cable: a port line outside a system"},
		{netf, "Switch 8 \"A\"\n[9] \"B\"[1]\n", "t:2: port: port \"9\" is not 1..8"},
		{netf, "Switch 8 \"A\"\n[1] \"B\"[1]\n", "t:2: remote: no node record has id \"B\""},
		{netf, "@alias \"A\"\n", "t:1: line:"},
	}
	for _, c := range cases {
		err := c.parse(c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v; want one line starting %q", c.text, err, c.want)
		}
	}
}

func subnet(s string) error { _, err := ParseSubnetList("t", strings.NewReader(s)); return err }
func cables(s string) error { _, err := ParseCables("t", strings.NewReader(s)); return err }
func topo(s string) error   { _, err := ParseTopo("t", strings.NewReader(s)); return err }
func netf(s string) error   { _, err := ParseNet("t", strings.NewReader(s)); return err }

// The tables: both LFT forms, both SL2VL forms and the three path-SL forms name the same
// entries.
func TestTables(t *testing.T) {
	f, err := ParseNet("ring", strings.NewReader("Switch 4 \"S\" # \"S\" lid 1\n[1] \"A\"[1]\n[2] \"B\"[1]\n\nHca 1 \"A\"\n[1] \"S\"[1] # lid 2\n\nHca 1 \"B\"\n[1] \"S\"[2] # lid 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	sw := int32(0)
	a, b := PortRef{1, 1}, PortRef{2, 1}
	for _, dump := range []string{
		"dump_ucast_routes: Switch 0x0000000000200000\nLID    : Port : Hops : Optimal\n0x0001 : 000  : 00   : yes\n0x0002 : 001  : 01   : yes\n0x0003 : 002  : 01   : yes\n0x0004 : UNREACHABLE\n",
		"Unicast lids [0-3] of switch Lid 1 guid 0x0000000000200000 ('S'):\n0x0001 000 # Switch portguid 0x0000000000200000: 'S'\n0x0002 001 # x\n0x0003 002 # y\n3 lids dumped\n",
	} {
		g := f.Clone()
		g.LFT = nil
		if err := g.ParseLFTs("lft", strings.NewReader(dump)); err != nil {
			t.Fatal(err)
		}
		if g.LFTPort(sw, 1) != 0 || g.LFTPort(sw, 2) != 1 || g.LFTPort(sw, 3) != 2 || g.LFTPort(sw, 4) != NoPort {
			t.Errorf("LFT %v", g.LFT[0])
		}
		if p := g.Route(a, 3); p.End != Delivered || len(p.Hops) != 2 {
			t.Errorf("route A->B: %+v", p)
		}
	}
	for _, dump := range []string{
		"Switch 0x0000000000200000, base LID 1, \"S\"\n#in out : 0 1\n1   2   : 3  3  3  3  3  3  3  3  3  3  3  3  3  3  3  3\nChannel Adapter 0x0000000000100001, base LID 2, \"A\"\n0   0   : 1  1  1  1  1  1  1  1  1  1  1  1  1  1  1  1\n",
		"0x0000000000200000 1 2 0x33 0x33 0x33 0x33 0x33 0x33 0x33 0x33\n0x0000000000100000 0 1 0x11 0x11 0x11 0x11 0x11 0x11 0x11 0x11\n",
	} {
		g := f.Clone()
		g.SL2VL = nil
		if err := g.ParseSL2VL("sl2vl", strings.NewReader(dump)); err != nil {
			t.Fatal(err)
		}
		if v := g.SL2VL[0].VL(1, 2, 5); v != 3 {
			t.Errorf("switch VL %d, want 3", v)
		}
		if v := g.SL2VL[0].VL(2, 1, 5); v != 5 {
			t.Errorf("switch VL for an absent entry %d, want the SL 5", v)
		}
		if v := g.SL2VL[1].VL(0, 1, 9); v != 1 {
			t.Errorf("CA VL %d, want 1", v)
		}
	}
	for _, dump := range []string{
		"PathRecord dump:\n\t\tdlid....................3\n\t\tslid....................2\n\t\tsl......................0x4\n",
		"0x0000000000100000 3 4\n",
		"Channel Adapter 0x0000000000100001, base LID 2, \"A\"\n0x0003 : 4\n",
	} {
		g := f.Clone()
		g.PathSL = nil
		if err := g.ParsePathSL("psl", strings.NewReader(dump)); err != nil {
			t.Fatal(err)
		}
		if sl := g.PathSL.SL(a, 3); sl != 4 {
			t.Errorf("%q: SL %d, want 4", dump, sl)
		}
		if sl := g.PathSL.SL(b, 2); sl != 0 {
			t.Errorf("SL of an unlisted pair %d, want 0", sl)
		}
	}
}

// Every read is bounded: an endless line stops with an error, not with the memory.
func TestBoundedLine(t *testing.T) {
	r := strings.NewReader("{ " + strings.Repeat("x", MaxLineBytes+10))
	_, err := ParseSubnetList("big", r)
	if err == nil || !strings.Contains(err.Error(), "line longer than") {
		t.Fatalf("error %v", err)
	}
}

func TestRouteEnds(t *testing.T) {
	// A line of three switches with a CA at each end; the middle table is varied.
	f, err := ParseNet("line", strings.NewReader(`Switch 3 "S1" # "S1" lid 1
[1] "A"[1]
[2] "S2"[1]

Switch 3 "S2" # "S2" lid 2
[1] "S1"[2]
[2] "S3"[1]

Switch 3 "S3" # "S3" lid 3
[1] "S2"[2]
[2] "B"[1]
[3] "C"[1]

Hca 1 "A"
[1] "S1"[1] # lid 4

Hca 1 "B"
[1] "S3"[2] # lid 5

Hca 1 "C"
[1] "S3"[3] # lid 6
`))
	if err != nil {
		t.Fatal(err)
	}
	a := PortRef{3, 1}
	set := func(s2, s3 uint8) *Fabric {
		g := f.Clone()
		g.SetLFT(0, 5, 2)
		g.SetLFT(1, 5, s2)
		g.SetLFT(2, 5, s3)
		return g
	}
	for _, c := range []struct {
		s2, s3 uint8
		end    End
		at     string
	}{{2, 2, Delivered, "B"}, {NoPort, 2, NoEntry, "S2"}, {0, 2, PortZero, "S2"}, {3, 2, DownPort, "S2"}, {1, 2, Loop, "S1"}, {2, 3, WrongNode, "C"}, {2, 1, Loop, "S2"}} {
		p := set(c.s2, c.s3).Route(a, 5)
		if p.End != c.end || f.Nodes[p.At].Desc != c.at {
			t.Errorf("S2 port %d, S3 port %d: %v at %s; want %v at %s", c.s2, c.s3, p.End, f.Nodes[p.At].Desc, c.end, c.at)
		}
	}
}
