package decide

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
)

// naiveMinWorms is the brute-force twin of the search for minimal configurations: for
// every c = 1..maxC it returns the fewest worms of a configuration holding exactly c
// (channel, VC) vertices that is connected (its held vertices linked by the vertex
// graph's arcs, either way), 0 when there is none. It shares nothing with the search
// but the header-state space: it tries every connected set of c vertices (each once,
// from its least vertex), every worm inside the set (a path of states along arcs
// through distinct vertices of the set, its last state not at its destination and
// every output of it in the set) and the fewest worms that partition the set, by
// dynamic programming over its subsets. A configuration with the fewest worms, and then
// the fewest channels, is connected (a part of it that is closed is a configuration of
// its own), so the twin's least sizes are the search's.
func naiveMinWorms(sp *space, maxC int) []int {
	nv := sp.vertices()
	nbr := make([][]int32, nv) // the vertex graph, both ways
	link := func(a, b int32) {
		if a != b && !slices.Contains(nbr[a], b) {
			nbr[a] = append(nbr[a], b)
		}
	}
	for s := range int32(sp.states()) {
		_, vs := sp.arcs(s)
		for _, w := range vs {
			link(sp.vtx[s], w)
			link(w, sp.vtx[s])
		}
	}
	best := make([]int, maxC+1)
	pos := make([]int, nv) // index of a vertex in the current set, -1 outside
	for i := range pos {
		pos[i] = -1
	}
	var set []int32
	judge := func() {
		c := len(set)
		for i, v := range set {
			pos[v] = i
		}
		// Every vertex of a configuration has an arc into it (the next of its worm, or
		// an output of its header).
		for _, v := range set {
			out := false
			for _, s := range sp.at(v) {
				_, vs := sp.arcs(s)
				for _, w := range vs {
					out = out || pos[w] >= 0
				}
			}
			if !out {
				for _, v := range set {
					pos[v] = -1
				}
				return
			}
		}
		// Every worm inside the set, as the mask of its vertices.
		masks := map[uint32]bool{}
		type visit struct {
			s    int32
			mask uint32
		}
		seen := map[visit]bool{}
		var walk func(s int32, mask uint32)
		walk = func(s int32, mask uint32) {
			if sp.atDst[s] || seen[visit{s, mask}] {
				return
			}
			seen[visit{s, mask}] = true
			to, vs := sp.arcs(s)
			closed := true
			for _, w := range vs {
				closed = closed && pos[w] >= 0
			}
			if closed {
				masks[mask] = true
			}
			for i, t := range to {
				if t < 0 || pos[vs[i]] < 0 || mask&(1<<pos[vs[i]]) != 0 {
					continue
				}
				walk(t, mask|1<<pos[vs[i]])
			}
		}
		for i, v := range set {
			for _, s := range sp.at(v) {
				walk(s, 1<<i)
			}
		}
		// The fewest worms partitioning each subset.
		full := uint32(1)<<c - 1
		var list []uint32
		for pm := range masks {
			list = append(list, pm)
		}
		dp := make([]int, full+1)
		for m := uint32(1); m <= full; m++ {
			dp[m] = 1 << 20
			low := m & -m
			for _, pm := range list {
				if pm&low != 0 && pm&^m == 0 && dp[m&^pm]+1 < dp[m] {
					dp[m] = dp[m&^pm] + 1
				}
			}
		}
		if dp[full] < 1<<20 && (best[c] == 0 || dp[full] < best[c]) {
			best[c] = dp[full]
		}
		for _, v := range set {
			pos[v] = -1
		}
	}
	// Connected sets by their least vertex: ESU (Wernicke 2006), each set once.
	inSet := make([]bool, nv)
	var extend func(root int32, ext []int32)
	extend = func(root int32, ext []int32) {
		judge()
		if len(set) == maxC {
			return
		}
		for i := len(ext) - 1; i >= 0; i-- {
			w := ext[i]
			next := slices.Clone(ext[:i])
			for _, u := range nbr[w] {
				if u <= root || inSet[u] || slices.Contains(next, u) {
					continue
				}
				// u is exclusive to w: no neighbour of the set (w aside) has it.
				excl := true
				for _, x := range set {
					if slices.Contains(nbr[x], u) {
						excl = false
						break
					}
				}
				if excl {
					next = append(next, u)
				}
			}
			set = append(set, w)
			inSet[w] = true
			extend(root, next)
			set = set[:len(set)-1]
			inSet[w] = false
		}
	}
	for v := range int32(nv) {
		set = append(set[:0], v)
		inSet[v] = true
		var ext []int32
		for _, u := range nbr[v] {
			if u > v {
				ext = append(ext, u)
			}
		}
		extend(v, ext)
		inSet[v] = false
	}
	return best
}

// TestMinimalTwin compares the decision's minimal configurations with the brute-force
// twin (naiveMinWorms) on small networks, for every built-in relation defined there
// and the routing files of model/routing/testdata: with the sufficient conditions
// skipped, the search's fewest worms k and fewest channels c among them agree with the
// twin's sizes up to twinChannels: no connected configuration of fewer than k worms, none of
// k worms on fewer than c channels, and one of k worms on c channels when c is within
// reach; a relation that holds has none at all.
func TestMinimalTwin(t *testing.T) {
	type inst struct {
		topo, name string
		maxC       int // the twin's channels
	}
	var cases []inst
	builtins := []string{"dor", "dor-1vc", "west-first", "north-last", "negative-first", "odd-even",
		"adaptive", "duato", "nonminimal", "nonminimal:1", "nonminimal:2", "updown", "shortest-path"}
	// The twin's cost grows with the channels and the states per vertex (budgeted
	// non-minimal relations have most): six channels for the small networks, five for
	// the budgeted relations on torus:3x3; beyond -short the 4-node-wide networks to six
	// and the lone worms of unbudgeted non-minimal routing to eight.
	for _, spec := range []string{"mesh:2x2", "mesh:3x3", "torus:3x3", "hypercube:3"} {
		for _, name := range builtins {
			maxC := 6
			if spec == "torus:3x3" && strings.HasPrefix(name, "nonminimal:") {
				maxC = 5
			}
			if !testing.Short() && name == "nonminimal" && spec != "torus:3x3" {
				maxC = 8
			}
			cases = append(cases, inst{spec, name, maxC})
		}
	}
	if !testing.Short() {
		for _, spec := range []string{"torus:4x4", "hypercube:4", "mesh:4x3"} {
			for _, name := range builtins {
				cases = append(cases, inst{spec, name, 6})
			}
		}
	}
	for _, file := range []string{"two-turns.json", "ring-table.json", "strand.json", "west-first.json"} {
		cases = append(cases, inst{"file:" + file, "", 6})
	}
	for _, c := range cases {
		var rel routing.Relation
		var err error
		if file, ok := strings.CutPrefix(c.topo, "file:"); ok {
			data, rerr := os.ReadFile("../../model/routing/testdata/" + file)
			if rerr != nil {
				t.Fatal(rerr)
			}
			spec := "mesh:3x3"
			if file == "ring-table.json" {
				spec = "mesh:2x2"
			}
			rel, err = routing.ParseFile(data, mustGrid(t, spec))
			if err != nil {
				t.Fatal(err)
			}
		} else if rel, err = routing.ByName(mustGrid(t, c.topo), c.name); err != nil {
			continue // not defined there
		}
		sp, err := buildSpace(t.Context(), rel, 1<<22, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sp.stranded != nil {
			continue // a header stranded at its source: no search
		}
		best := naiveMinWorms(sp, c.maxC)
		// Both ways: the exact search alone, and after the sufficient conditions and
		// the scout (whose configuration the search then only tries to beat).
		for _, opt := range []Options{{SkipSufficient: true}, {}} {
			d, err := Decide(rel, opt)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s on %s (scout %v)", rel.Name(), rel.Grid().Spec(), !opt.SkipSufficient)
			checkTwin(t, name, d, best, c.maxC)
		}
	}
}

// checkTwin compares decision d with the twin's fewest worms per number of channels.
func checkTwin(t *testing.T, name string, d *Decision, best []int, maxC int) {
	t.Helper()
	switch d.Verdict {
	case props.Holds:
		for ch, k := range best {
			if k > 0 {
				t.Errorf("%s holds, but the twin has %d worms on %d channels", name, k, ch)
			}
		}
	case props.Violated:
		cf := d.Configuration
		k, ch := len(cf.Worms), cf.Channels
		if !d.Minimal {
			t.Errorf("%s: %d worms on %d channels, not proved minimal (%s)", name, k, ch, d.NotMinimal)
		}
		for n, kn := range best {
			switch {
			case kn == 0:
			case kn < k:
				t.Errorf("%s: the search's fewest worms are %d on %d channels, but the twin has %d worms on %d", name, k, ch, kn, n)
			case kn == k && n < ch:
				t.Errorf("%s: the search's fewest channels of %d worms are %d, but the twin has %d", name, k, ch, n)
			}
		}
		if ch <= maxC && best[ch] != k {
			t.Errorf("%s: the search has %d worms on %d channels, the twin %d there", name, k, ch, best[ch])
		}
		t.Logf("%s: %d worms on %d channels", name, k, ch)
	default:
		t.Errorf("%s: %s (%s)", name, d.Verdict, d.Bound)
	}
}
