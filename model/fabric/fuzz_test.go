package fabric

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seed adds the first bytes of a real fabric file to a fuzz corpus, when present.
func seed(f *testing.F, name string) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "fabrics", "ib", name))
	if err == nil {
		f.Add(data[:min(len(data), 4096)])
	}
}

// oneLine fails when a parser's error is not one line.
func oneLine(t *testing.T, err error) {
	if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
		t.Fatalf("error is not one line: %q", err)
	}
}

const ringNet = "Switch 4 \"S\" # \"S\" lid 1\n[1] \"A\"[1]\n[2] \"B\"[1]\n\nHca 1 \"A\"\n[1] \"S\"[1] # lid 2\n\nHca 1 \"B\"\n[1] \"S\"[2] # lid 3\n"

func FuzzSubnetList(f *testing.F) {
	seed(f, "subnet.lst")
	f.Add([]byte("{ CA-SM Ports:02 NodeGUID:1 PortGUID:2 {h} LID:0002 PN:01 } { SW Ports:08 NodeGUID:3 {s} LID:0001 PN:01 } PHY=4x LOG=DWN SPD=2.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fab, err := ParseSubnetList("f", bytes.NewReader(data))
		oneLine(t, err)
		if err == nil {
			for _, l := range fab.Links() {
				if fab.Port(l.B).Remote != l.A {
					t.Fatalf("link %v is not mutual", l)
				}
			}
		}
	})
}

func FuzzNet(f *testing.F) {
	seed(f, "ibsim-net")
	seed(f, "ibsim-net.2sw2path4hca")
	f.Add([]byte(ringNet))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseNet("f", bytes.NewReader(data))
		oneLine(t, err)
	})
}

func FuzzCables(f *testing.F) {
	seed(f, "CreditLoopDemo.cables")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseCables("f", bytes.NewReader(data))
		oneLine(t, err)
	})
}

func FuzzTopo(f *testing.F) {
	seed(f, "credit-loops.topo")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseTopo("f", bytes.NewReader(data))
		oneLine(t, err)
	})
}

func FuzzDetect(f *testing.F) {
	seed(f, "subnet.lst")
	seed(f, "credit-loops.topo")
	seed(f, "CreditLoopDemo.cables")
	seed(f, "ibsim-net")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(DetectFormat(data), "f", bytes.NewReader(data))
		oneLine(t, err)
	})
}

// ringFabric is the small fabric the table fuzzers read tables into.
func ringFabric(t testing.TB) *Fabric {
	fab, err := ParseNet("ring", strings.NewReader(ringNet))
	if err != nil {
		t.Fatal(err)
	}
	return fab
}

func FuzzLFTs(f *testing.F) {
	seed(f, "osm.fdbs")
	f.Add([]byte("Unicast lids [0-3] of switch Lid 1 guid 0x0000000000200000 ('S'):\n0x0001 000 # x\n0x0002 001 # y\n3 lids dumped\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fab := ringFabric(t)
		err := fab.ParseLFTs("f", bytes.NewReader(data))
		oneLine(t, err)
		if err == nil {
			// Whatever the tables say, routing ends.
			for _, src := range []PortRef{{1, 1}, {2, 1}, {0, 0}} {
				for lid := uint16(1); lid <= 4; lid++ {
					fab.Route(src, lid)
				}
			}
		}
	})
}

func FuzzSL2VL(f *testing.F) {
	f.Add([]byte("Switch 0x0000000000200000, base LID 1, \"S\"\n1   2   : 3  3  3  3  3  3  3  3  3  3  3  3  3  3  3  3\n"))
	f.Add([]byte("0x0000000000200000 1 2 0x33 0x33 0x33 0x33 0x33 0x33 0x33 0x33\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		oneLine(t, ringFabric(t).ParseSL2VL("f", bytes.NewReader(data)))
	})
}

func FuzzPathSL(f *testing.F) {
	f.Add([]byte("PathRecord dump:\n\t\tdlid....................3\n\t\tslid....................2\n\t\tsl......................0x4\n"))
	f.Add([]byte("0x0000000000100000 3 4\n"))
	f.Add([]byte("Channel Adapter 0x0000000000100001, base LID 2, \"A\"\n0x0003 : 4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		oneLine(t, ringFabric(t).ParsePathSL("f", bytes.NewReader(data)))
	})
}
