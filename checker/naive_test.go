package checker_test

import (
	"github.com/wormcheck/wormcheck/checker"
)

// naive is the deliberately simple twin of Explore: a recursive depth-first search
// with a map of encodings, then a plain BFS for distances. It shares nothing with the
// explorer but the Model.
type naive[S any] struct {
	reach     map[string]S
	deadlocks map[string]S
	dist      map[string]int // shortest distance from an initial state
}

func naiveSearch[S any](m checker.Model[S]) naive[S] {
	n := naive[S]{reach: map[string]S{}, deadlocks: map[string]S{}, dist: map[string]int{}}
	var visit func(s S)
	visit = func(s S) {
		k := string(m.Encode(s, nil))
		if _, ok := n.reach[k]; ok {
			return
		}
		n.reach[k] = s
		succ := m.Successors(s, nil)
		if len(succ) == 0 && !m.Terminal(s) {
			n.deadlocks[k] = s
		}
		for _, t := range succ {
			visit(t.Next)
		}
	}
	var queue []S
	for _, s := range m.Init() {
		visit(s)
		k := string(m.Encode(s, nil))
		if _, ok := n.dist[k]; !ok {
			n.dist[k] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		d := n.dist[string(m.Encode(s, nil))]
		for _, t := range m.Successors(s, nil) {
			k := string(m.Encode(t.Next, nil))
			if _, ok := n.dist[k]; !ok {
				n.dist[k] = d + 1
				queue = append(queue, t.Next)
			}
		}
	}
	return n
}

// minDeadlockDist is the shortest distance to a deadlock, or -1 if there is none.
func (n naive[S]) minDeadlockDist() int {
	best := -1
	for k := range n.deadlocks {
		if d := n.dist[k]; best < 0 || d < best {
			best = d
		}
	}
	return best
}
