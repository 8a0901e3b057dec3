package topology

import (
	"fmt"
	"strconv"
)

// tree is the shape of BookSim2's two fixed trees of 64 terminals (k = 4, n = 3, which
// BookSim asserts), three levels of routers, the leaves (level 2) each with four
// terminals: leaf l serves the terminals BookSim numbers 4l..4l+3, at its ports 0..3.
//
//   - "qtree" (src/networks/qtree.cpp), a quad tree: one root, 4 routers on level 1 and
//     16 leaves; router p of level h has the children 4p..4p+3 of level h+1 at its
//     ports 0..3 and, below the root, its parent p div 4 at port 4.
//   - "tree4" (src/networks/tree4.cpp), a 4-ary tree with doubled middle and top:
//     4 roots, 8 routers on level 1 and 16 leaves; middle router m has the leaves
//     4(m div 2)..4(m div 2)+3 at its ports 0..3 and the roots 0..3 at ports 4..7;
//     root r has the middle routers 0..7 at its ports 0..7; leaf l has the middle
//     routers 2(l div 4) and 2(l div 4)+1 at ports 4 and 5.
//
// Node ids: the routers level by level (BookSim's router order), router p of level h
// named "r<h>.<p>"; then terminal t, node t plus the number of routers, named "n<t>".
// Network's BookSimTree, TreeRouter and TreeNode read it.
type tree struct {
	kind  string // "qtree" or "tree4"
	first [4]int // the node of level h's first router; first[3] is the number of routers
}

// treeLevels are the routers on each level of a tree of kind.
var treeLevels = map[string][3]int{"qtree": {1, 4, 16}, "tree4": {4, 8, 16}}

// parseTree builds kind from "k=4,n=3" (BookSim's keys, the only values it takes; an
// empty argument means them).
func parseTree(kind, arg string) (*Network, error) {
	if arg != "" {
		kv, err := parseKeyValues(arg, []string{"k", "n"}, "k=4,n=3")
		if err != nil {
			return nil, err
		}
		if k, n := kv["k"], kv["n"]; k != 0 && k != 4 || n != 0 && n != 3 {
			return nil, fmt.Errorf("BookSim's %s has k=4 and n=3 (it asserts them); k=%d, n=%d", kind, k, n)
		}
	}
	return newTree(kind)
}

// newTree builds BookSim's qtree or tree4.
func newTree(kind string) (*Network, error) {
	levels, ok := treeLevels[kind]
	if !ok {
		return nil, fmt.Errorf("%q is not one of BookSim's trees; use qtree or tree4", kind)
	}
	t := &tree{kind: kind}
	for h := 0; h < 3; h++ {
		t.first[h+1] = t.first[h] + levels[h]
	}
	nodes := make([]GraphNode, t.routers()+64)
	var links []Link
	for h := 0; h < 3; h++ {
		for p := 0; p < levels[h]; p++ {
			r := t.router(h, p)
			nodes[r] = GraphNode{Name: "r" + strconv.Itoa(h) + "." + strconv.Itoa(p), Placed: true,
				At: Point{X: (float64(p) + 0.5) * 64 / float64(levels[h]), Y: float64(2 * h)}}
			for _, next := range t.ports(h, p) {
				links = append(links, Link{From: r, To: next})
			}
		}
	}
	for n := 0; n < 64; n++ {
		v := t.terminal(n)
		nodes[v] = GraphNode{Name: "n" + strconv.Itoa(n), Terminal: true, Placed: true, At: Point{X: float64(n) + 0.5, Y: 6}}
		links = append(links, Link{From: v, To: t.router(2, n/4)})
	}
	return newGraph(kind+":k=4,n=3", nodes, links, t)
}

// ports returns, in the order of its ports, the nodes router p of level h sends to.
func (t *tree) ports(h, p int) []NodeID {
	var out []NodeID
	switch {
	case h == 2:
		for i := 0; i < 4; i++ {
			out = append(out, t.terminal(4*p+i))
		}
	case t.kind == "qtree":
		for i := 0; i < 4; i++ {
			out = append(out, t.router(h+1, 4*p+i))
		}
	case h == 1:
		for i := 0; i < 4; i++ {
			out = append(out, t.router(2, 4*(p/2)+i))
		}
	default: // a root of tree4
		for m := 0; m < 8; m++ {
			out = append(out, t.router(1, m))
		}
	}
	switch {
	case t.kind == "qtree" && h > 0:
		out = append(out, t.router(h-1, p/4))
	case t.kind == "tree4" && h == 1:
		for r := 0; r < 4; r++ {
			out = append(out, t.router(0, r))
		}
	case t.kind == "tree4" && h == 2:
		out = append(out, t.router(1, 2*(p/4)), t.router(1, 2*(p/4)+1))
	}
	return out
}

// BookSimTree returns the kind of BookSim's tree g is, "qtree" or "tree4", and false
// when it is neither.
func (g *Network) BookSimTree() (string, bool) {
	if t, ok := g.treeShape(); ok {
		return t.kind, true
	}
	return "", false
}

// TreeRouter returns the level and position of router r of a BookSim tree.
func (g *Network) TreeRouter(r NodeID) (h, p int) {
	t, _ := g.treeShape()
	return t.level(r)
}

// TreeNode returns router p of level h of a BookSim tree.
func (g *Network) TreeNode(h, p int) NodeID {
	t, _ := g.treeShape()
	return t.router(h, p)
}

func (g *Network) treeShape() (*tree, bool) {
	if g.net == nil {
		return nil, false
	}
	t, ok := g.net.shape.(*tree)
	return t, ok
}

// routers returns the number of routers.
func (t *tree) routers() int { return t.first[3] }

// router returns router p of level h.
func (t *tree) router(h, p int) NodeID { return NodeID(t.first[h] + p) }

// level returns the level and position of router r.
func (t *tree) level(r NodeID) (h, p int) {
	for h = 2; int(r) < t.first[h]; h-- {
	}
	return h, int(r) - t.first[h]
}

// terminal returns the node of the terminal BookSim numbers n.
func (t *tree) terminal(n int) NodeID { return NodeID(t.routers() + n) }
