package partition

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model"
)

// Instance is one member of a DDN family sweep: a 2-D grid (its spec, e.g. "torus:6x4")
// with its sides, and the DDN parameters.
type Instance struct {
	Topology string
	S, T     int
	Params   Params
}

// Family lists the sweep of 001's claims: every s x t grid of the kind with lo <= s, t <=
// hi that keep accepts (nil: every one), every h dividing both sides and, for Type III,
// every delta in 1..h-1, for each type in types, in ascending (s, t, h, type, delta)
// order. The members are descriptions; the caller builds and judges each.
func Family(kind model.Kind, lo, hi int, keep func(s, t int) bool, types []Type) []Instance {
	name := "torus"
	if kind == model.Mesh {
		name = "mesh"
	}
	var out []Instance
	for s := lo; s <= hi; s++ {
		for t := lo; t <= hi; t++ {
			if keep != nil && !keep(s, t) {
				continue
			}
			spec := fmt.Sprintf("%s:%dx%d", name, s, t)
			for h := 1; h <= min(s, t); h++ {
				if s%h != 0 || t%h != 0 {
					continue
				}
				for _, typ := range types {
					if typ == TypeIII {
						for d := 1; d < h; d++ {
							out = append(out, Instance{spec, s, t, Params{Type: typ, H: h, Delta: d}})
						}
						continue
					}
					out = append(out, Instance{spec, s, t, Params{Type: typ, H: h}})
				}
			}
		}
	}
	return out
}
