package topology

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dragonfly is the shape of a generated dragonfly (Kim, Dally, Scott & Abts, ISCA 2008):
// G groups of A routers, every router joined to every other router of its group (local
// channels), with P terminals and H global links to other groups. G is at most A*H+1
// (every pair of groups joined once); the Arrangement says which router of a group holds
// the link to which group.
//
// Node ids: router r of group i is node i*A + r, named "g<i>r<r>"; terminal t of router
// R (a node id) is node G*A + R*P + t, named "g<i>r<r>t<t>".
//
// The global port k (0 <= k < A*H) of group i is global link k%H of router k/H, and leads
// to group:
//   - absolute (BookSim's dragonflynew, "consecutive"): k if k < i, else k+1;
//   - relative: (i + k + 1) mod G;
//   - palmtree (Camarero, Vallejo & Beivide, 2014): (i - k - 1) mod G.
//
// Ports k >= G-1 are unused when G < A*H+1. Reference: Hastings et al., "Comparing
// global link arrangements for dragonfly networks", CLUSTER 2015.
type Dragonfly struct {
	A, P, H, G  int
	Arrangement string
}

// Arrangements lists the global arrangements parseDragonfly accepts.
var Arrangements = []string{"absolute", "relative", "palmtree"}

// parseDragonfly builds a dragonfly from "a=A,p=P,h=H[,g=G][,arrangement=NAME]" (G
// defaults to A*H+1, the arrangement to absolute).
func parseDragonfly(arg string) (*Network, error) {
	d := Dragonfly{Arrangement: "absolute"}
	seen := map[string]bool{}
	for _, kv := range strings.Split(arg, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not KEY=VALUE; write a=4,p=2,h=2[,g=9][,arrangement=absolute]", kv)
		}
		if seen[k] {
			return nil, fmt.Errorf("%s is given twice", k)
		}
		seen[k] = true
		if k == "arrangement" {
			d.Arrangement = v
			continue
		}
		n, err := parseSize(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		switch k {
		case "a":
			d.A = n
		case "p":
			d.P = n
		case "h":
			d.H = n
		case "g":
			d.G = n
		default:
			return nil, fmt.Errorf("key %q is unknown; use a (routers per group), p (terminals per router), h (global links per router), g (groups), arrangement", k)
		}
	}
	for _, k := range []string{"a", "p", "h"} {
		if !seen[k] {
			return nil, fmt.Errorf("%s is missing; write a=4,p=2,h=2[,g=9][,arrangement=absolute]", k)
		}
	}
	if !seen["g"] {
		d.G = d.A*d.H + 1
	}
	return NewDragonfly(d)
}

// NewDragonfly builds the dragonfly d.
func NewDragonfly(d Dragonfly) (*Network, error) {
	switch {
	case d.A < 1 || d.A > 256:
		return nil, fmt.Errorf("a (routers per group) is %d; it must be 1..256", d.A)
	case d.P < 0 || d.P > 64:
		return nil, fmt.Errorf("p (terminals per router) is %d; it must be 0..64", d.P)
	case d.H < 1 || d.H > 64:
		return nil, fmt.Errorf("h (global links per router) is %d; it must be 1..64", d.H)
	case d.G < 2 || d.G > d.A*d.H+1:
		return nil, fmt.Errorf("g (groups) is %d; with a=%d, h=%d it must be 2..%d", d.G, d.A, d.H, d.A*d.H+1)
	case d.G*d.A*(1+d.P) > MaxGraphNodes:
		return nil, fmt.Errorf("%d routers and %d terminals; at most %d nodes are supported", d.G*d.A, d.G*d.A*d.P, MaxGraphNodes)
	}
	switch d.Arrangement {
	case "absolute", "relative", "palmtree":
	default:
		return nil, fmt.Errorf("arrangement %q is unknown; use %s", d.Arrangement, strings.Join(Arrangements, ", "))
	}
	routers := d.G * d.A
	nodes := make([]GraphNode, routers*(1+d.P))
	var links []Link
	both := func(a, b NodeID) { links = append(links, Link{From: a, To: b}, Link{From: b, To: a}) }
	for i := 0; i < d.G; i++ {
		gx, gy := math.Cos(2*math.Pi*float64(i)/float64(d.G)), math.Sin(2*math.Pi*float64(i)/float64(d.G))
		radius := float64(d.G) * float64(d.A) / math.Pi
		for r := 0; r < d.A; r++ {
			v := NodeID(i*d.A + r)
			// routers of a group on a short arc facing the centre, terminals outside it
			off := (float64(r) - float64(d.A-1)/2)
			at := Point{X: gx*radius - gy*off, Y: gy*radius + gx*off}
			nodes[v] = GraphNode{Name: "g" + strconv.Itoa(i) + "r" + strconv.Itoa(r), At: at, Placed: true}
			for t := 0; t < d.P; t++ {
				w := NodeID(routers + int(v)*d.P + t)
				o := 1 + 0.8*float64(t+1)/float64(d.P)
				toff := off + (float64(t)-float64(d.P-1)/2)*0.8/float64(d.P)
				nodes[w] = GraphNode{Name: nodes[v].Name + "t" + strconv.Itoa(t), Terminal: true, Placed: true,
					At: Point{X: gx*(radius+o) - gy*toff, Y: gy*(radius+o) + gx*toff}}
				both(v, w)
			}
			for s := r + 1; s < d.A; s++ {
				both(v, NodeID(i*d.A+s))
			}
		}
		for k := 0; k < d.G-1; k++ {
			j := d.target(i, k)
			if j < i {
				continue // the pair was joined from group j
			}
			back := d.portTo(j, i)
			both(NodeID(i*d.A+k/d.H), NodeID(j*d.A+back/d.H))
		}
	}
	spec := fmt.Sprintf("dragonfly:a=%d,p=%d,h=%d,g=%d,arrangement=%s", d.A, d.P, d.H, d.G, d.Arrangement)
	dd := d
	return newGraph(spec, nodes, links, &dd)
}

// target is the group global port k of group i leads to (k < G-1).
func (d *Dragonfly) target(i, k int) int {
	switch d.Arrangement {
	case "relative":
		return (i + k + 1) % d.G
	case "palmtree":
		return ((i-k-1)%d.G + d.G) % d.G
	}
	if k < i {
		return k
	}
	return k + 1
}

// portTo is the global port of group i that leads to group j (j != i).
func (d *Dragonfly) portTo(i, j int) int {
	switch d.Arrangement {
	case "relative":
		return ((j-i-1)%d.G + d.G) % d.G
	case "palmtree":
		return ((i-j-1)%d.G + d.G) % d.G
	}
	if j < i {
		return j
	}
	return j - 1
}

// DragonflyShape returns the shape of a generated dragonfly.
func (g *Network) DragonflyShape() (*Dragonfly, bool) {
	if g.net == nil {
		return nil, false
	}
	d, ok := g.net.shape.(*Dragonfly)
	return d, ok
}

// Router returns the router of node v: v itself for a router, its router for a terminal.
func (d *Dragonfly) Router(v NodeID) NodeID {
	if int(v) < d.G*d.A {
		return v
	}
	return NodeID((int(v) - d.G*d.A) / d.P)
}

// Group returns the group of node v.
func (d *Dragonfly) Group(v NodeID) int { return int(d.Router(v)) / d.A }

// Gateway returns the router of group i that holds the global link to group j (i != j).
func (d *Dragonfly) Gateway(i, j int) NodeID { return NodeID(i*d.A + d.portTo(i, j)/d.H) }
