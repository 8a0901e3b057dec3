package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/input/inputtest"
)

// TestParseScheduleLinear pins that reading a schedule file costs time linear in its
// size: many unicasts, many sources of a broadcast (whose destinations, every other
// node, were found by a scan of the sources per node), long explicit paths.
func TestParseScheduleLinear(t *testing.T) {
	head := func(topo, routing string) *strings.Builder {
		var b strings.Builder
		fmt.Fprintf(&b, `{"format": "wormcheck-schedule/1", "topology": %q, "routing": %s, `, topo, routing)
		return &b
	}
	for name, gen := range map[string]func(n int) []byte{
		"unicasts": func(n int) []byte {
			b := head("torus:64x64", "[0, 1]")
			b.WriteString(`"sources": [0], "unicasts": [`)
			for i := range n {
				if i > 0 {
					b.WriteString(",\n")
				}
				fmt.Fprintf(b, `{"from": 0, "to": %d, "step": 1, "order": %d}`, 1+i%4095, i+1)
			}
			b.WriteString("]}")
			return []byte(b.String())
		},
		"sources": func(n int) []byte {
			b := head(fmt.Sprintf("torus:64x%d", n/64), "[0, 1]")
			b.WriteString(`"sources": [`)
			for i := range n / 2 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(b, "%d", 2*i)
			}
			b.WriteString(`], "unicasts": []}`)
			return []byte(b.String())
		},
		"path": func(n int) []byte {
			// A snake through every node of mesh:64xM, row by row.
			snake := make([]int, 0, n)
			for y := range n / 64 {
				for i := range 64 {
					x := i
					if y%2 == 1 {
						x = 63 - i
					}
					snake = append(snake, y*64+x)
				}
			}
			last := snake[len(snake)-1]
			b := head(fmt.Sprintf("mesh:64x%d", n/64), `"explicit"`)
			fmt.Fprintf(b, `"sources": [0], "destinations": [%d], "unicasts": [{"from": 0, "to": %d, "step": 1, "order": 1, "path": [`, last, last)
			for i, v := range snake {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(b, "%d", v)
			}
			b.WriteString("]}]}")
			return []byte(b.String())
		},
	} {
		t.Run(name, func(t *testing.T) {
			inputtest.Linear(t, 8192, gen, func(data []byte) {
				if _, err := ParseSchedule(data); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}
