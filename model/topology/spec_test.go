package topology

import (
	"fmt"
	"strings"
	"testing"
)

// TestHypercubeLabelsRoundTrip: every node name a hypercube prints is read back as the
// same node (on hypercube:4, "0011" is node 3, where a decimal reading gave node 11),
// while numbers and coordinates keep their meaning.
func TestHypercubeLabelsRoundTrip(t *testing.T) {
	for n := 1; n <= 7; n++ {
		g, err := Parse(fmt.Sprintf("hypercube:%d", n))
		if err != nil {
			t.Fatal(err)
		}
		for v := range NodeID(g.Nodes()) {
			if got, err := g.ParseNode(g.NodeName(v)); err != nil || got != v {
				t.Fatalf("hypercube:%d: ParseNode(%q) = %d, %v; want %d", n, g.NodeName(v), got, err, v)
			}
		}
	}
	g, err := Parse("hypercube:4")
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]NodeID{"0011": 3, "11": 11, "1111": 15, "(1,1,0,0)": 3, "1": 1} {
		if got, err := g.ParseNode(s); err != nil || got != want {
			t.Errorf("hypercube:4: ParseNode(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	if _, err := g.ParseNode("10101"); err == nil || !strings.Contains(err.Error(), "4 binary digits") {
		t.Errorf("hypercube:4: ParseNode(\"10101\") = %v; want an error naming the label form", err)
	}
}
