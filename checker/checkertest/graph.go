package checkertest

import (
	"encoding/binary"
	"fmt"
	"reflect"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"

	"github.com/wormcheck/wormcheck/checker"
)

// Graph is an explicit directed graph as a model: states are node numbers, action j
// from node v follows Edges[v][j]. Nodes listed in Final are Terminal; any other node
// without out-edges is a deadlock. Parallel edges and self-loops are allowed, and Init
// may repeat a node.
type Graph struct {
	Nodes int
	Inits []int
	Edges [][]int
	Final []bool
}

// Init returns the initial nodes.
func (g Graph) Init() []int { return g.Inits }

// Successors follows every out-edge of v, action j for Edges[v][j].
func (g Graph) Successors(v int, dst []checker.Transition[int]) []checker.Transition[int] {
	for j, w := range g.Edges[v] {
		dst = append(dst, checker.Transition[int]{Action: checker.Action(j), Next: w})
	}
	return dst
}

// Encode appends v as a uvarint.
func (Graph) Encode(v int, buf []byte) []byte { return binary.AppendUvarint(buf, uint64(v)) }

// Terminal reports whether v is a final node.
func (g Graph) Terminal(v int) bool { return g.Final[v] }

// Describe renders action j from v as "v -> w".
func (g Graph) Describe(v int, a checker.Action) string {
	return fmt.Sprintf("%d -> %d", v, g.Edges[v][a])
}

// GenGraph generates Graphs of 1..maxNodes nodes with 0..3 out-edges per node, one or
// two initial nodes and random final nodes; small enough to brute-force.
func GenGraph(maxNodes int) gopter.Gen {
	return gen.IntRange(1, maxNodes).FlatMap(func(v any) gopter.Gen {
		n := v.(int)
		// Fixed-length slices throughout (gopter applies one element's sieve to every
		// element of a slice); -1 marks an absent edge or second initial node.
		slot := gen.IntRange(-1, n-1)
		return gopter.CombineGens(gen.IntRange(0, n-1), slot, gen.SliceOfN(n, gen.SliceOfN(3, slot)), gen.SliceOfN(n, gen.Bool())).
			Map(func(vs []any) Graph {
				g := Graph{Nodes: n, Inits: []int{vs[0].(int)}, Edges: make([][]int, n), Final: vs[3].([]bool)}
				if second := vs[1].(int); second >= 0 {
					g.Inits = append(g.Inits, second)
				}
				for u, slots := range vs[2].([][]int) {
					for _, w := range slots {
						if w >= 0 {
							g.Edges[u] = append(g.Edges[u], w)
						}
					}
				}
				return g
			})
	}, reflect.TypeOf(Graph{}))
}
