package cdg

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
)

// TestWorkersIdentical checks that searching destinations on two goroutines merges to
// exactly what one goroutine finds: byte-identical JSON (verdicts, witness cycles with
// their sources and destinations, counts) for every built-in, through the node-state
// search and through the general header-state search (the twin wrappers, which also
// take Duato's path without an EscapeRank hint), on node counts that are and are not
// powers of two (the split point of a relation without an escape subfunction).
func TestWorkersIdentical(t *testing.T) {
	compared, cyclic := 0, 0
	for _, spec := range []string{"mesh:8x8", "mesh:5x7", "torus:6x6", "torus:3x5", "torus:4x4x4", "hypercube:3"} {
		for _, name := range routing.Names() {
			if name == "nonminimal:B" {
				name = "nonminimal:1"
			}
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			rels := []routing.Relation{rel}
			if e, ok := rel.(routing.Escaping); ok {
				rels = append(rels, notPositionalEscaping{rel, e})
			} else if c, ok := rel.(routing.SourceClasser); ok {
				rels = append(rels, notPositionalClassed{rel, c})
			} else {
				rels = append(rels, notPositional{rel})
			}
			for _, r := range rels {
				var out [2][]byte
				for i, w := range []int{1, 2} {
					res, err := Analyze(r, Options{Workers: w})
					if err != nil {
						t.Fatalf("%s %s workers %d: %v", spec, name, w, err)
					}
					if !res.Acyclic && w == 2 {
						cyclic++
					}
					if out[i], err = json.Marshal(res); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(out[0], out[1]) {
					t.Errorf("%s %s (%T): one worker gives\n%s\ntwo give\n%s", spec, name, r, out[0], out[1])
				}
				compared++
			}
		}
	}
	if compared < 50 || cyclic == 0 {
		t.Fatalf("compared %d analyses, %d cyclic: too few to mean anything", compared, cyclic)
	}
}
