package routing

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/input/inputtest"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestParseFileLinear pins that reading a routing file costs time linear in its size:
// a table of many rows, and turn rules that each name many routers.
func TestParseFileLinear(t *testing.T) {
	g, err := topology.Parse("mesh:64x64")
	if err != nil {
		t.Fatal(err)
	}
	small, err := topology.Parse("mesh:8x8")
	if err != nil {
		t.Fatal(err)
	}
	for name, gen := range map[string]func(n int) []byte{
		"table": func(n int) []byte {
			var b strings.Builder
			b.WriteString(`{"format": "wormcheck-routing/1", "name": "big", "topology": "mesh:64x64", "table": [` + "\n")
			for i := range n {
				if i > 0 {
					b.WriteString(",\n")
				}
				v, d := topology.NodeID(i%4096), topology.NodeID((i/4096+1+i)%4096)
				if v == d {
					d = (d + 1) % 4096
				}
				out := "east"
				if v%64 == 63 {
					out = "west"
				}
				fmt.Fprintf(&b, `{"router": %q, "dst": %q, "out": [%q]}`, g.NodeName(v), g.NodeName(d), out)
			}
			b.WriteString("]}\n")
			return []byte(b.String())
		},
		"rules": func(n int) []byte {
			var b strings.Builder
			b.WriteString(`{"format": "wormcheck-routing/1", "name": "big", "topology": "mesh:8x8", "rules": [` + "\n")
			for i := range 64 {
				if i > 0 {
					b.WriteString(",\n")
				}
				b.WriteString(`{"nodes": {"at": [`)
				for j := range n / 64 {
					if j > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "%q", small.NodeName(topology.NodeID((i+j)%64)))
				}
				b.WriteString(`]}, "forbid": ["north->west"]}`)
			}
			b.WriteString("]}\n")
			return []byte(b.String())
		},
	} {
		n := 16384
		if name == "table" {
			n = 8192 // a quarter of the most rows a table may have
		}
		t.Run(name, func(t *testing.T) {
			inputtest.Linear(t, n, gen, func(data []byte) {
				if _, err := ParseFile(data, nil); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// TestRulesOnTooLargeGridRefusedFirst: turn rules on a grid too large for them are
// refused before the rules are read, since each rule's selector takes a flag per router
// (1024 rules on a million routers asked for a gigabyte before the refusal).
func TestRulesOnTooLargeGridRefusedFirst(t *testing.T) {
	g, err := topology.Parse("mesh:128x128")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"format": "wormcheck-routing/1", "name": "big", "rules": [`)
	for i := range MaxFileRules {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"nodes": {"at": ["(0,0)"]}, "forbid": ["north->west"]}`)
	}
	b.WriteString("]}")
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ParseFile(data, g)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "at most 4096 routers") {
		t.Fatalf("rules on mesh:128x128: %v, want the grid refused", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("refusing the rules allocated %d bytes for a file of %d", got, len(data))
	}
}
