package proofs

import "testing"

// TestEveryCatalogueIDIsRegistered: every id of DESIGN.md's catalogue (and the two this
// project added, MN6B and TM4) has a registered claim, and nothing is registered that
// the catalogue order does not know.
func TestEveryCatalogueIDIsRegistered(t *testing.T) {
	known := map[string]bool{}
	for _, id := range order {
		known[id] = true
		if _, ok := Lookup(id); !ok {
			t.Errorf("catalogue id %s has no registered claim", id)
		}
	}
	for _, c := range All() {
		if !known[c.ID] {
			t.Errorf("claim %s is registered but not in the catalogue order", c.ID)
		}
	}
}
