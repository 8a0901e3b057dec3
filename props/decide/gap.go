package decide

// Repeats within a worm's length: a route on which a worm holding h channels cannot be
// stuck, for any worm length and buffer depth.
//
// Take a worm stuck for good in a flit-level run (any L, any B): it holds the VCs from
// its tail's, t, to its header's, e, positions t..e on its route, h = e-t+1 of them.
// Flits move forward into a VC of their own worm that has room, so a stuck worm's VCs
// t+1..e are full and t holds its tail: L >= (h-1)B + 1. Now let a VC appear twice on
// the route, at positions p < q. The worm owned it from its header's move into p until
// its tail left it, so when the header moved into q every flit was in positions p+1 ..
// q-1, at most B a VC: L <= (q-p-1)B. Both together give h <= q-p-1: any two visits
// of one VC are at least h+1 positions apart. A route that repeats a VC closer than
// that — the header bouncing back into the VC its own tail has just left — is no route
// of a stuck worm, whatever L and B are.
//
// So a configuration whose worm has no such route, among every legal route to its
// held states, is no deadlock the flit model reaches, for any L and B: the search
// passes over it (routeable) instead of asking the flit model, and, when every
// configuration is of that kind, the relation is deadlock-free. Most worms' first route
// (the search's parent chain) repeats nothing; for the others a backward search over
// the predecessors of the held states, keeping the last h VCs, looks for one that
// keeps repeats apart, up to maxGapSearch pairs of (state, window); past that the worm
// is kept (not excluded), so the exclusion stays sound.

// maxGapSearch bounds the (state, window) pairs routeable visits for one worm.
const maxGapSearch = 1 << 16

// gapRoute is a route found for a worm: the state its held path starts from and the
// vertices before it, oldest first.
type gapRoute struct {
	start  int32
	prefix []int32
	src    int32 // the source the route starts at
}

// routeable reports whether worm w has a route on which it can be stuck (its repeats
// kept h+1 apart, h its held vertices), and returns one (nil when the search's parent
// chain of w.sets[0][0] is one). It reports true when the search passes its bound.
func (sp *space) routeable(w *wormPart) (bool, *gapRoute) {
	h := len(w.path)
	if h <= 1 {
		return true, nil // no VC can come back within one position
	}
	if apart(append(sp.route(w.sets[0][0]), w.path[1:]...), h) {
		return true, nil
	}
	// Backward from the held path's start states: a pair is a state and the h vertices
	// that follow it on the route (the window a predecessor's vertex must avoid).
	type item struct {
		root   int32 // the held path's start state the walk left from
		st     int32
		window []int32
		prefix []int32 // vertices from st's back to the held path's, newest last
	}
	seen := map[string]bool{} // lookup only
	key := func(st int32, window []int32) string {
		b := make([]byte, 0, 4*(len(window)+1))
		for _, v := range append([]int32{st}, window...) {
			b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
		return string(b)
	}
	var queue []item
	for _, st := range w.sets[0] {
		win := append([]int32(nil), w.path[:h]...)
		if k := key(st, win); !seen[k] {
			seen[k] = true
			queue = append(queue, item{st, st, win, nil})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if sp.parent[it.st] < 0 {
			// Injected at its source: the route is the prefix, then the held path.
			p := make([]int32, len(it.prefix))
			for i, v := range it.prefix {
				p[len(p)-1-i] = v
			}
			return true, &gapRoute{start: it.root, prefix: p, src: sp.src[it.st]}
		}
		if len(seen) > maxGapSearch {
			return true, nil // not searched to the end: kept
		}
		for _, y := range sp.pred[sp.predFirst[it.st]:sp.predFirst[it.st+1]] {
			v := sp.vtx[y]
			if contains32(it.window, v) {
				continue // a repeat within h+1 positions
			}
			win := append([]int32{v}, it.window[:h-1]...)
			if k := key(y, win); !seen[k] {
				seen[k] = true
				queue = append(queue, item{it.root, y, win, append(append([]int32(nil), it.prefix...), v)})
			}
		}
	}
	return false, nil
}

// apart reports whether every two equal vertices of route are at least h+1 positions
// apart.
func apart(route []int32, h int) bool {
	last := map[int32]int{} // lookup only
	for i, v := range route {
		if j, ok := last[v]; ok && i-j < h+1 {
			return false
		}
		last[v] = i
	}
	return true
}

// contains32 reports whether v is in s.
func contains32(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
