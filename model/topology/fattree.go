package topology

import (
	"fmt"
	"strings"
)

// FatTree is the shape of a k-ary n-tree (Petrini & Vanneschi, "k-ary n-trees: High
// Performance Networks for Massively Parallel Architectures", IPPS 1997): K^N processing
// nodes (terminals) and N levels of K^(N-1) switches of 2K ports. Switch <w, l> (w a word
// of N-1 base-K digits w_0..w_{N-2}, level l in 0..N-1, 0 the roots) is joined to switch
// <w', l+1> when w and w' differ at most in digit l; terminal p (digits p_0..p_{N-1}) is
// joined to the leaf switch <p_0..p_{N-2}, N-1>. Every link is a channel each way.
//
// Node ids: switch <w, l> is node l*K^(N-1) + w (w = sum of w_i K^i), named
// "s<l>.<w_0..w_{N-2}>"; terminal p is node N*K^(N-1) + p, named "p<p_0..p_{N-1}>".
// Switch <w, l> is an ancestor of terminal p when w_i = p_i for every i < l.
type FatTree struct {
	K, N int
}

// parseFatTree builds the k-ary n-tree "K,N".
func parseFatTree(arg string) (*Network, error) {
	ks, ns, ok := strings.Cut(arg, ",")
	if !ok {
		return nil, fmt.Errorf("%q: write K,N (arity and levels), e.g. fattree:4,3", arg)
	}
	k, err := parseSize(strings.TrimSpace(ks))
	if err != nil {
		return nil, fmt.Errorf("K: %v", err)
	}
	n, err := parseSize(strings.TrimSpace(ns))
	if err != nil {
		return nil, fmt.Errorf("N: %v", err)
	}
	return NewFatTree(k, n)
}

// NewFatTree builds the k-ary n-tree.
func NewFatTree(k, n int) (*Network, error) {
	if k < 2 || k > 64 {
		return nil, fmt.Errorf("K (arity) is %d; it must be 2..64", k)
	}
	if n < 1 || n > 12 {
		return nil, fmt.Errorf("N (levels) is %d; it must be 1..12", n)
	}
	t := &FatTree{K: k, N: n}
	per := 1
	for i := 0; i < n-1 && per <= MaxGraphNodes; i++ {
		per *= k
	}
	if per > MaxGraphNodes || per*n+per*k > MaxGraphNodes {
		return nil, fmt.Errorf("fattree:%d,%d has more than %d nodes", k, n, MaxGraphNodes)
	}
	sw := per * n
	nodes := make([]GraphNode, sw+per*k)
	var links []Link
	both := func(a, b NodeID) { links = append(links, Link{From: a, To: b}, Link{From: b, To: a}) }
	for l := 0; l < n; l++ {
		for w := 0; w < per; w++ {
			v := NodeID(l*per + w)
			// a switch sits above the terminals of its leaves' subtree, centred
			nodes[v] = GraphNode{Name: fmt.Sprintf("s%d.%s", l, t.digits(w, n-1)), Placed: true,
				At: Point{X: float64(t.leafOrder(w)*k) + float64(k-1)/2, Y: float64(l)}}
			if l+1 < n {
				for x := 0; x < k; x++ {
					both(v, NodeID((l+1)*per+t.setDigit(w, l, x)))
				}
			}
		}
	}
	for p := 0; p < per*k; p++ {
		v := NodeID(sw + p)
		leaf := p % per
		nodes[v] = GraphNode{Name: "p" + t.digits(p, n), Terminal: true, Placed: true,
			At: Point{X: float64(t.leafOrder(leaf)*k + p/per), Y: float64(n)}}
		both(NodeID((n-1)*per+leaf), v)
	}
	return newGraph(fmt.Sprintf("fattree:%d,%d", k, n), nodes, links, t)
}

// digits writes the first m base-K digits of x, digit 0 first.
func (t *FatTree) digits(x, m int) string {
	var b strings.Builder
	for i := 0; i < m; i++ {
		fmt.Fprint(&b, x%t.K)
		x /= t.K
		if t.K > 10 && i+1 < m {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Digit returns digit i of x in base K.
func (t *FatTree) Digit(x, i int) int {
	for ; i > 0; i-- {
		x /= t.K
	}
	return x % t.K
}

// setDigit returns x with digit i replaced by d.
func (t *FatTree) setDigit(x, i, d int) int {
	p := 1
	for j := 0; j < i; j++ {
		p *= t.K
	}
	return x - t.Digit(x, i)*p + d*p
}

// leafOrder places word w of a leaf left to right so that leaves of one subtree are
// neighbours: the digits read last-first (digit N-2, the one the lowest level changes,
// varies fastest).
func (t *FatTree) leafOrder(w int) int {
	r := 0
	for i := 0; i < t.N-1; i++ {
		r = r*t.K + t.Digit(w, i)
	}
	return r
}

// PerLevel returns K^(N-1), the number of switches of a level.
func (t *FatTree) PerLevel() int {
	p := 1
	for i := 0; i < t.N-1; i++ {
		p *= t.K
	}
	return p
}

// Level returns the level of node v: 0..N-1 for a switch, N for a terminal.
func (t *FatTree) Level(v NodeID) int { return min(int(v)/t.PerLevel(), t.N) }

// Word returns the word of node v: w for switch <w, l>, p for terminal p.
func (t *FatTree) Word(v NodeID) int {
	if t.Level(v) == t.N {
		return int(v) - t.N*t.PerLevel()
	}
	return int(v) % t.PerLevel()
}

// FatTreeShape returns the shape of a generated fat-tree.
func (g *Network) FatTreeShape() (*FatTree, bool) {
	if g.net == nil {
		return nil, false
	}
	t, ok := g.net.shape.(*FatTree)
	return t, ok
}
