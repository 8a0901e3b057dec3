package fabric

import (
	"strings"
	"testing"
)

// A fat tree of 5 hosts on 4-port switches: 3 leaves of 2 hosts (the last has 1), 2
// spines, every leaf linked to every spine; a tree too wide for its spines is refused.
func TestWriteFatTree(t *testing.T) {
	var b strings.Builder
	if err := WriteFatTree(&b, 5, 4); err != nil {
		t.Fatal(err)
	}
	f, err := ParseNet("ft", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if sw, links := len(f.Switches()), len(f.Links()); sw != 5 || len(f.Nodes)-sw != 5 || links != 5+3*2 {
		t.Fatalf("%d switches, %d CAs, %d links; want 5, 5 and 11", sw, len(f.Nodes)-sw, links)
	}
	if err := WriteFatTree(&b, 9, 4); err == nil || !strings.Contains(err.Error(), "5 leaf switches") {
		t.Fatalf("9 hosts on 4-port switches: %v", err)
	}
}
