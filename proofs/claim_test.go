package proofs

import (
	"strings"
	"testing"
)

// TestEveryCatalogueIDIsRegistered: every id of DESIGN.md's catalogue (and the two this
// project added, MN6B and TM4) has a registered claim, and nothing is registered that
// the catalogue order does not know. The routing ids RT1-RT6 have their place in the
// order and are registered by the routing claims' own file.
func TestEveryCatalogueIDIsRegistered(t *testing.T) {
	known := map[string]bool{}
	for _, id := range order {
		known[id] = true
		if _, ok := Lookup(id); !ok && !strings.HasPrefix(id, "RT") {
			t.Errorf("catalogue id %s has no registered claim", id)
		}
	}
	for _, c := range All() {
		if !known[c.ID] {
			t.Errorf("claim %s is registered but not in the catalogue order", c.ID)
		}
	}
}

// TestEveryClaimRunsAtEverySize: each claim has at least one family at every size, and
// each family names itself.
func TestEveryClaimRunsAtEverySize(t *testing.T) {
	for _, c := range All() {
		for s := Quick; s < numSizes; s++ {
			n := 0
			for _, f := range c.Families {
				if f.Name == "" || f.Judge == nil {
					t.Errorf("%s: a family without a name or judge", c.ID)
				}
				if f.Sizes[s] != "" {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: no family at size %s", c.ID, s)
			}
		}
	}
}
