package topology

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// routersFile is a JSON topology listing n routers one per line (and no links).
func routersFile(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"format": "wormcheck-topology/1", "name": "many", "routers": [` + "\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name": "r%d"}`, i)
	}
	b.WriteString("],\n\"links\": []}\n")
	return []byte(b.String())
}

// TestGraphJSONLinear pins that reading a JSON topology takes time linear in its size:
// each element's line number was recounted from the file's start, so 300k routers took
// a minute. Four times the elements must cost well under the sixteen times a quadratic
// reader would (the best of three runs each, to ride out a loaded machine).
func TestGraphJSONLinear(t *testing.T) {
	best := func(data []byte) time.Duration {
		d := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			if _, err := parseFile("file:many.json", data); err == nil {
				t.Fatal("a network of more routers than supported was accepted")
			}
			d = min(d, time.Since(start))
		}
		return d
	}
	small, large := routersFile(10000), routersFile(40000)
	ts, tl := best(small), best(large)
	if tl > 9*ts {
		t.Fatalf("%d routers took %v, %d took %v: %.1fx for 4x the input", 10000, ts, 40000, tl, float64(tl)/float64(ts))
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
