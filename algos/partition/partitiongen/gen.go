// Package partitiongen holds gopter generators for network-partitioning instances, so
// that a user's property test over DDN families is a few lines.
//
// Reference: 001 Definitions 4-8.
package partitiongen

import (
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Instance is a generated grid with a DDN family that fits it.
type Instance struct {
	Grid   *topology.Network
	Params partition.Params
}

// Torus generates tori of (a*h) x (b*h) nodes with 1 <= a, b <= maxBlocks and
// 1 <= h <= maxH, every side at least 3 (a side of 2 has no wrap-around in the model),
// and a DDN type with a delta in 1..h-1 for Type III (whose h is then at least 2).
func Torus(maxBlocks, maxH int) gopter.Gen {
	return family(topology.Torus, maxBlocks, maxH)
}

// Mesh is Torus on meshes (sides at least 2).
func Mesh(maxBlocks, maxH int) gopter.Gen {
	return family(topology.Mesh, maxBlocks, maxH)
}

func family(kind topology.Kind, maxBlocks, maxH int) gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(1, max(1, maxBlocks)), gen.IntRange(1, max(1, maxBlocks)),
		gen.IntRange(1, max(1, maxH)), gen.IntRange(0, 3), gen.IntRange(0, 1<<20),
	).Map(func(v []any) Instance {
		a, b, h, ty, d := v[0].(int), v[1].(int), v[2].(int), v[3].(int), v[4].(int)
		p := partition.Params{Type: partition.Types()[ty], H: h}
		if p.Type == partition.TypeIII {
			p.H = max(2, h)
			p.Delta = 1 + d%(p.H-1)
		}
		low := 2
		if kind == topology.Torus {
			low = 3
		}
		for a*p.H < low {
			a++
		}
		for b*p.H < low {
			b++
		}
		var g *topology.Network
		if kind == topology.Torus {
			g, _ = topology.NewTorus(a*p.H, b*p.H)
		} else {
			g, _ = topology.NewMesh(a*p.H, b*p.H)
		}
		return Instance{Grid: g, Params: p}
	})
}
