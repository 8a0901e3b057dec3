package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// FlatFly is the shape of a flattened butterfly as BookSim2 builds it
// (src/networks/flatfly_onchip.cpp; Kim, Balfour & Dally, MICRO 2007): K^N routers,
// router r has the base-K digits r_0..r_{N-1} (r_0 varies fastest), and every router is
// joined to every router that differs from it in exactly one digit (K-1 channels each
// way per dimension). Each router has C terminals. The routers are laid out X by Y
// (X = Y; router r at column r mod X, row r div X), each with XR by YR terminals
// (XR = YR, XR*YR = C). BookSim numbers the terminals row by row over the whole
// layout: terminal t sits at column t mod (X*XR) and row t div (X*XR), and belongs to
// the router at column (t mod (X*XR)) div XR, row (t div (X*XR)) div YR.
//
// Node ids: router r is node r, named "r<r>"; the terminal BookSim numbers t is node
// K^N + t, named "n<t>". A router's port p < C is its terminal at row p div XR, column
// p mod XR of its block (BookSim's port numbering).
type FlatFly struct {
	K, N, C       int
	X, Y, XR, YR  int
	routers, term int
}

// parseFlatFly builds a flattened butterfly from "k=K,n=N,c=C[,x=X,y=Y,xr=XR,yr=YR]",
// BookSim's keys. Without x and y the routers are laid out in the squarest X by X
// arrangement BookSim accepts, without xr and yr the terminals of a router XR by XR
// with XR*XR = C.
func parseFlatFly(arg string) (*Network, error) {
	kv, err := parseKeyValues(arg, []string{"k", "n", "c", "x", "y", "xr", "yr"}, "k=4,n=2,c=4[,x=4,y=4,xr=2,yr=2]")
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"k", "n", "c"} {
		if _, ok := kv[k]; !ok {
			return nil, fmt.Errorf("%s is missing; write k=4,n=2,c=4[,x=4,y=4,xr=2,yr=2]", k)
		}
	}
	f := FlatFly{K: kv["k"], N: kv["n"], C: kv["c"], X: kv["x"], Y: kv["y"], XR: kv["xr"], YR: kv["yr"]}
	return NewFlatFly(f)
}

// NewFlatFly builds the flattened butterfly f; zero X, Y, XR, YR take the defaults
// parseFlatFly describes. The checks are BookSim's own assertions.
func NewFlatFly(f FlatFly) (*Network, error) {
	switch {
	case f.K < 2 || f.K > 64:
		return nil, fmt.Errorf("k (routers per dimension) is %d; it must be 2..64", f.K)
	case f.N < 1 || f.N > 4:
		return nil, fmt.Errorf("n (dimensions) is %d; BookSim's flatfly takes 1..4", f.N)
	case f.C < 1 || f.C > 64:
		return nil, fmt.Errorf("c (terminals per router) is %d; it must be 1..64", f.C)
	}
	f.routers = 1
	for i := 0; i < f.N; i++ {
		f.routers *= f.K
		if f.routers > MaxGraphNodes {
			return nil, fmt.Errorf("%d^%d routers; at most %d nodes are supported", f.K, f.N, MaxGraphNodes)
		}
	}
	f.term = f.routers * f.C
	if f.routers+f.term > MaxGraphNodes {
		return nil, fmt.Errorf("%d routers and %d terminals; at most %d nodes are supported", f.routers, f.term, MaxGraphNodes)
	}
	if err := concentrationLayout(&f.X, &f.Y, &f.XR, &f.YR, f.routers, f.C); err != nil {
		return nil, err
	}
	nodes := make([]GraphNode, f.routers+f.term)
	var links []Link
	both := func(a, b NodeID, w int) {
		links = append(links, Link{From: a, To: b, Weight: w}, Link{From: b, To: a, Weight: w})
	}
	for r := 0; r < f.routers; r++ {
		col, row := r%f.X, r/f.X
		nodes[r] = GraphNode{Name: "r" + strconv.Itoa(r), Placed: true,
			At: Point{X: float64(col*(f.XR+1)) + float64(f.XR-1)/2, Y: float64(row*(f.YR+1)) + float64(f.YR-1)/2}}
		for p := 0; p < f.C; p++ {
			t := f.TerminalAt(NodeID(r), p)
			v := NodeID(f.routers + t)
			nodes[v] = GraphNode{Name: "n" + strconv.Itoa(t), Terminal: true, Placed: true,
				At: Point{X: float64(col*(f.XR+1)+p%f.XR) + 0.3, Y: float64(row*(f.YR+1)+p/f.XR) + 0.3}}
			both(NodeID(r), v, f.terminalLatency(p))
		}
		for d, pow := 0, 1; d < f.N; d, pow = d+1, pow*f.K {
			digit := r / pow % f.K
			for x := digit + 1; x < f.K; x++ {
				o := r + (x-digit)*pow
				dx, dy := abs(r%f.X-o%f.X), abs(r/f.X-o/f.X)
				both(NodeID(r), NodeID(o), f.XR*dx+f.YR*dy)
			}
		}
	}
	spec := fmt.Sprintf("flatfly:k=%d,n=%d,c=%d,x=%d,y=%d,xr=%d,yr=%d", f.K, f.N, f.C, f.X, f.Y, f.XR, f.YR)
	ff := f
	return newGraph(spec, nodes, links, &ff)
}

// terminalLatency is BookSim's latency (use_noc_latency, its default) of the channels
// between a router and its terminal at port p: one cycle, and one more for each row and
// column the terminal sits beyond the router's middle (flatfly_onchip.cpp's ileng).
func (f *FlatFly) terminalLatency(p int) int {
	yleng, xleng := -f.YR/2, -f.XR/2
	for i := 0; ; i++ {
		if yleng == 0 && f.YR%2 == 0 {
			yleng++
		}
		if xleng == 0 && f.XR%2 == 0 {
			xleng++
		}
		l := 1 + max(abs(yleng)-1, 0) + max(abs(xleng)-1, 0)
		if i == p {
			return l
		}
		yleng++
		if yleng > f.YR/2 {
			yleng, xleng = -f.YR/2, xleng+1
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// concentrationLayout fills in and checks BookSim's layout keys of a network of
// routers with c terminals each: x = y routers a row (routers a multiple of x), xr = yr
// terminals a row of a router, xr*yr = c.
func concentrationLayout(x, y, xr, yr *int, routers, c int) error {
	if *xr == 0 && *yr == 0 {
		s := isqrt(c)
		if s*s != c {
			return fmt.Errorf("c = %d is not a square; BookSim lays a router's terminals out xr by yr with xr = yr", c)
		}
		*xr, *yr = s, s
	}
	if *x == 0 && *y == 0 {
		*x = routers
		for s := isqrt(routers); s >= 1; s-- {
			if routers%s == 0 {
				*x = routers / s
				break
			}
		}
		*y = *x
	}
	switch {
	case *x != *y:
		return fmt.Errorf("x = %d and y = %d differ; BookSim asserts x = y", *x, *y)
	case *xr != *yr:
		return fmt.Errorf("xr = %d and yr = %d differ; BookSim asserts xr = yr", *xr, *yr)
	case *xr**yr != c:
		return fmt.Errorf("xr*yr = %d but c = %d; BookSim asserts c = xr*yr", *xr**yr, c)
	case *x < 1 || routers%*x != 0:
		return fmt.Errorf("x = %d does not divide the %d routers into rows; BookSim would number terminals outside 0..%d", *x, routers, routers*c-1)
	}
	return nil
}

func isqrt(n int) int {
	s := 0
	for (s+1)*(s+1) <= n {
		s++
	}
	return s
}

// FlatFlyShape returns the shape of a flattened butterfly.
func (g *Network) FlatFlyShape() (*FlatFly, bool) {
	if g.net == nil {
		return nil, false
	}
	f, ok := g.net.shape.(*FlatFly)
	return f, ok
}

// Routers returns K^N.
func (f *FlatFly) Routers() int { return f.routers }

// TerminalAt returns the BookSim number of router r's terminal at port p < C.
func (f *FlatFly) TerminalAt(r NodeID, p int) int {
	col, row := int(r)%f.X, int(r)/f.X
	return (f.X*f.XR)*(f.YR*row+p/f.XR) + f.XR*col + p%f.XR
}

// Terminal returns the node of the terminal BookSim numbers t.
func (f *FlatFly) Terminal(t int) NodeID { return NodeID(f.routers + t) }

// Router returns the router of node v: v itself for a router, its router for a
// terminal (BookSim's flatfly_transformation, divided by C).
func (f *FlatFly) Router(v NodeID) NodeID {
	if int(v) < f.routers {
		return v
	}
	t := int(v) - f.routers
	w := f.X * f.XR
	return NodeID((t/w/f.YR)*f.X + (t%w)/f.XR)
}

// Port returns the port of terminal node v at its router.
func (f *FlatFly) Port(v NodeID) int {
	t := int(v) - f.routers
	w := f.X * f.XR
	return f.XR*((t/w)%f.YR) + (t%w)%f.XR
}

// Digit returns digit d of router r in base K.
func (f *FlatFly) Digit(r NodeID, d int) int {
	x := int(r)
	for ; d > 0; d-- {
		x /= f.K
	}
	return x % f.K
}

// WithDigit returns router r with digit d set to x.
func (f *FlatFly) WithDigit(r NodeID, d, x int) NodeID {
	pow := 1
	for i := 0; i < d; i++ {
		pow *= f.K
	}
	return NodeID(int(r) + (x-f.Digit(r, d))*pow)
}

// parseKeyValues reads "key=N,key=N" with each key from allowed at most once.
func parseKeyValues(arg string, allowed []string, example string) (map[string]int, error) {
	out := map[string]int{}
	for _, kv := range strings.Split(arg, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not KEY=VALUE; write %s", kv, example)
		}
		known := false
		for _, a := range allowed {
			known = known || a == k
		}
		if !known {
			return nil, fmt.Errorf("key %q is unknown; use %s", k, strings.Join(allowed, ", "))
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s is given twice", k)
		}
		n, err := parseSize(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		out[k] = n
	}
	return out, nil
}
