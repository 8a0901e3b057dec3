package topology

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/input/inputtest"
)

// manyLinks returns n links between routers 0..M-1 of a network of M = 1024 routers:
// a ring, then chords of growing length, so no link is given twice.
func manyLinks(n int) [][2]int {
	const m = 1024
	out := make([][2]int, n)
	for i := range out {
		a, d := i%m, 1+i/m
		out[i] = [2]int{a, (a + d) % m}
	}
	return out
}

// linkFiles writes a network of n links in each file format, one element per line.
var linkFiles = map[string]func(n int) []byte{
	"json": func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"format": "wormcheck-topology/1", "name": "many", "routers": [` + "\n")
		for i := range 1024 {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"name": "r%d"}`, i)
		}
		b.WriteString("],\n\"links\": [\n")
		for i, l := range manyLinks(n) {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"from": "r%d", "to": "r%d"}`, l[0], l[1])
		}
		b.WriteString("]}\n")
		return []byte(b.String())
	},
	"anynet": func(n int) []byte {
		var b strings.Builder
		for _, l := range manyLinks(n) {
			fmt.Fprintf(&b, "router %d router %d\n", l[0], l[1])
		}
		return []byte(b.String())
	},
	"dot": func(n int) []byte {
		var b strings.Builder
		b.WriteString("graph many {\n")
		for _, l := range manyLinks(n) {
			fmt.Fprintf(&b, "  r%d -- r%d;\n", l[0], l[1])
		}
		b.WriteString("}\n")
		return []byte(b.String())
	},
	"dot-comments": func(n int) []byte {
		var b strings.Builder
		b.WriteString("graph many {\n")
		for i, l := range manyLinks(n) {
			fmt.Fprintf(&b, "  /* link\n %d */ r%d -- r%d; // and back\n#x\n", i, l[0], l[1])
		}
		b.WriteString("}\n")
		return []byte(b.String())
	},
	"blank-lines": func(n int) []byte {
		return []byte(strings.Repeat("\n", 16*n) + "router 0 router 1\nrouter 1 router 0\n")
	},
}

// TestTopologyFilesLinear pins that reading a topology file takes time linear in its
// size, in every format: each JSON element's line number was recounted from the file's
// start, so 250k links or 300k routers took a minute.
func TestTopologyFilesLinear(t *testing.T) {
	for name, gen := range linkFiles {
		t.Run(name, func(t *testing.T) {
			inputtest.Linear(t, 8192, gen, func(data []byte) {
				if _, err := parseFile("file:many", data); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestLineCounter(t *testing.T) {
	data := []byte("a\nb\n\nc")
	c := &lineCounter{data: data, line: 1}
	for _, tc := range []struct{ off, want int }{{0, 1}, {2, 2}, {4, 3}, {5, 4}, {99, 4}, {1, 1}, {6, 4}} {
		if got := c.lineOf(int64(tc.off)); got != tc.want {
			t.Errorf("lineOf(%d) = %d, want %d", tc.off, got, tc.want)
		}
	}
}
