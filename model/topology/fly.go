package topology

import (
	"fmt"
	"strconv"
)

// Fly is the shape of a k-ary n-fly as BookSim2 builds it (src/networks/fly.cpp; Dally &
// Towles §4.1): N stages of K^(N-1) routers of K inputs and K outputs, channels only
// from one stage to the next, terminals on both sides. The terminal BookSim numbers t
// injects into stage-0 router t div K and is delivered by the last stage's router
// t div K at its port t mod K. Router a of stage s (a with the base-K digits
// a_0..a_{N-2}) sends on its port p to router a' of stage s+1, a with digit N-2-s set
// to p (BookSim's KNFly::_InChannel). A 1-fly (N = 1) is one K by K crossbar.
//
// Node ids: router a of stage s is node s*K^(N-1) + a (BookSim's router number),
// named "r<s>.<a>"; terminal t is node N*K^(N-1) + t, named "n<t>". A terminal has one
// channel to its stage-0 router and one from its last-stage router: the network is
// strongly connected only through the terminals, which route nothing.
type Fly struct {
	K, N     int
	perStage int
}

// parseFly builds a k-ary n-fly from "k=K,n=N" (BookSim's keys).
func parseFly(arg string) (*Network, error) {
	kv, err := parseKeyValues(arg, []string{"k", "n"}, "k=2,n=3")
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"k", "n"} {
		if _, ok := kv[k]; !ok {
			return nil, fmt.Errorf("%s is missing; write k=2,n=3", k)
		}
	}
	return NewFly(kv["k"], kv["n"])
}

// NewFly builds the k-ary n-fly.
func NewFly(k, n int) (*Network, error) {
	if k < 2 || k > 64 {
		return nil, fmt.Errorf("k (router radix) is %d; it must be 2..64", k)
	}
	if n < 1 || n > 12 {
		return nil, fmt.Errorf("n (stages) is %d; it must be 1..12", n)
	}
	f := Fly{K: k, N: n, perStage: 1}
	for i := 0; i < n-1; i++ {
		f.perStage *= k
		if f.perStage > MaxGraphNodes {
			break
		}
	}
	routers, terms := n*f.perStage, f.perStage*k
	if f.perStage > MaxGraphNodes || routers+terms > MaxGraphNodes {
		return nil, fmt.Errorf("fly:k=%d,n=%d has more than %d nodes", k, n, MaxGraphNodes)
	}
	nodes := make([]GraphNode, routers+terms)
	var links []Link
	for s := 0; s < n; s++ {
		for a := 0; a < f.perStage; a++ {
			r := NodeID(s*f.perStage + a)
			nodes[r] = GraphNode{Name: "r" + strconv.Itoa(s) + "." + strconv.Itoa(a), Placed: true,
				At: Point{X: float64(2 * (s + 1)), Y: float64(a*k) + float64(k-1)/2}}
			for p := 0; p < k; p++ {
				if s+1 < n {
					links = append(links, Link{From: r, To: f.Next(r, p)})
				}
			}
		}
	}
	for t := 0; t < terms; t++ {
		v := NodeID(routers + t)
		nodes[v] = GraphNode{Name: "n" + strconv.Itoa(t), Terminal: true, Placed: true, At: Point{X: 0, Y: float64(t)}}
		links = append(links, Link{From: v, To: NodeID(t / k)}, Link{From: NodeID((n-1)*f.perStage + t/k), To: v})
	}
	ff := f
	return newGraph(fmt.Sprintf("fly:k=%d,n=%d", k, n), nodes, links, &ff)
}

// FlyShape returns the shape of a k-ary n-fly.
func (g *Network) FlyShape() (*Fly, bool) {
	if g.net == nil {
		return nil, false
	}
	f, ok := g.net.shape.(*Fly)
	return f, ok
}

// PerStage returns K^(N-1), the routers of a stage.
func (f *Fly) PerStage() int { return f.perStage }

// Stage returns the stage of router r (N for a terminal).
func (f *Fly) Stage(r NodeID) int { return min(int(r)/f.perStage, f.N) }

// Next returns the router of the next stage that router r's port p leads to (r not
// in the last stage).
func (f *Fly) Next(r NodeID, p int) NodeID {
	s, a := int(r)/f.perStage, int(r)%f.perStage
	pow := 1
	for i := 0; i < f.N-2-s; i++ {
		pow *= f.K
	}
	digit := a / pow % f.K
	return NodeID((s+1)*f.perStage + a + (p-digit)*pow)
}

// Terminal returns the node of the terminal BookSim numbers t.
func (f *Fly) Terminal(t int) NodeID { return NodeID(f.N*f.perStage + t) }
