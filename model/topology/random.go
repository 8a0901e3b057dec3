package topology

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// NewRandomNetwork builds a random connected irregular network of routers (no
// terminals) from a seed: a random spanning tree (each router joined to a uniformly
// chosen earlier one, in a random order), then links-(routers-1) further links between
// distinct unjoined pairs, every link a channel each way. The same arguments give the
// same network. Its spec is "random:ROUTERS,LINKS,SEED"; nodes are named r0, r1, ...
// It is how the claims draw irregular graphs (AN1, AN2).
func NewRandomNetwork(routers, links int, seed uint64) (*Network, error) {
	switch {
	case routers < 2 || routers > 256:
		return nil, fmt.Errorf("routers is %d; it must be 2..256", routers)
	case links < routers-1 || links > routers*(routers-1)/2:
		return nil, fmt.Errorf("links is %d; %d routers take %d..%d", links, routers, routers-1, routers*(routers-1)/2)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	nodes := make([]GraphNode, routers)
	for i := range nodes {
		nodes[i] = GraphNode{Name: "r" + strconv.Itoa(i)}
	}
	joined := map[[2]int]bool{}
	var ls []Link
	join := func(a, b int) {
		if a > b {
			a, b = b, a
		}
		joined[[2]int{a, b}] = true
		ls = append(ls, Link{From: NodeID(a), To: NodeID(b)}, Link{From: NodeID(b), To: NodeID(a)})
	}
	perm := rng.Perm(routers)
	for i := 1; i < routers; i++ {
		join(perm[i], perm[rng.IntN(i)])
	}
	for len(joined) < links {
		a, b := rng.IntN(routers), rng.IntN(routers)
		if a == b || joined[[2]int{min(a, b), max(a, b)}] {
			continue
		}
		join(a, b)
	}
	return newGraph(fmt.Sprintf("random:%d,%d,%d", routers, links, seed), nodes, ls, nil)
}

// parseRandom reads "ROUTERS,LINKS,SEED".
func parseRandom(arg string) (*Network, error) {
	parts := strings.Split(arg, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: write ROUTERS,LINKS,SEED, e.g. random:8,10,1", arg)
	}
	var v [3]int
	for i, p := range parts {
		n, err := parseSize(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", [3]string{"ROUTERS", "LINKS", "SEED"}[i], err)
		}
		v[i] = n
	}
	return NewRandomNetwork(v[0], v[1], uint64(v[2]))
}
