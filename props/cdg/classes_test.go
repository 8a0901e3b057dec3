package cdg

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// searchGraph is the reference: the dependency graph one search per destination finds
// (every destination, no early stop at a cycle).
func searchGraph(t *testing.T, rel routing.Relation) *recorder {
	t.Helper()
	s, err := newSearcher(rel)
	if err != nil {
		t.Fatal(err)
	}
	s.rec = newRecorder(s)
	for d := 0; d < s.g.Nodes(); d++ {
		if err := s.search(topology.NodeID(d)); err != nil {
			t.Fatal(err)
		}
	}
	return s.rec
}

// TestClassGraphMatchesSearch is the optimised-vs-naive test of the class-based graph:
// for every built-in that promises routing.DestClassed, on meshes, tori and hypercubes
// up to 8x8, 4x4x4 and the 6-cube (square and not, rings of size 2, 3 and even sizes
// with ties; odd-even, with its source classes, on every 2-D mesh here, odd and even
// widths), the graph classGraph derives from classes has exactly the vertices, escape
// vertices and edges of the search per destination.
func TestClassGraphMatchesSearch(t *testing.T) {
	specs := []string{"mesh:2x2", "mesh:3x3", "mesh:4x4", "mesh:5x3", "mesh:2x7", "mesh:8x8", "mesh:3x5", "mesh:7x4", "mesh:6x7", "mesh:2x3", "mesh:3x2", "mesh:9x6", "mesh:6", "mesh:3x2x3", "mesh:4x4x4",
		"torus:3x3", "torus:4x4", "torus:5x3", "torus:2x5", "torus:6x6", "torus:8x8", "torus:4x4x4", "torus:3x4x2",
		"hypercube:2", "hypercube:3", "hypercube:4", "hypercube:5", "hypercube:6"}
	if testing.Short() {
		specs = specs[:len(specs)-1]
	}
	compared, edges, sourced := 0, 0, 0
	for _, spec := range specs {
		for _, name := range routing.Names() {
			if name == "nonminimal:B" {
				name = "nonminimal:1"
			}
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			s, err := newSearcher(rel)
			if err != nil {
				t.Fatal(err)
			}
			got := classGraph(s, true)
			_, promised := rel.(routing.DestClassed)
			if p, ok := rel.(routing.Positional); !ok || !p.Positional() {
				promised = false
			}
			if (got != nil) != promised {
				t.Fatalf("%s on %s: class graph applies %v, relation promises classes %v", name, spec, got != nil, promised)
			}
			if got == nil {
				continue
			}
			want := searchGraph(t, rel)
			for v := range want.used {
				if got.used[v] != want.used[v] || got.escUsed[v] != want.escUsed[v] {
					t.Errorf("%s on %s: vertex %v used %v/%v by classes, %v/%v by search", name, spec, s.vertex(int32(v)), got.used[v], got.escUsed[v], want.used[v], want.escUsed[v])
				}
			}
			for i := range want.edges {
				if got.edges[i] != want.edges[i] {
					t.Errorf("%s on %s: edge word %d is %064b by classes, %064b by search", name, spec, i, got.edges[i], want.edges[i])
				}
			}
			_, _, e := s.adjacency(want)
			edges += e
			compared++
			if _, ok := rel.(routing.SourceReached); ok {
				sourced++
			}
		}
	}
	if compared < 60 || edges == 0 || sourced < 10 {
		t.Fatalf("compared %d graphs with %d edges (%d with source classes): too few to mean anything", compared, edges, sourced)
	}
	t.Logf("compared %d graphs, %d edges (%d graphs with source classes)", compared, edges, sourced)
}

// TestClassGraphNotForFiles checks that routing files, which may route by explicit
// tables or turn rules per node class, never take the class-based graph: they keep the
// search per destination.
func TestClassGraphNotForFiles(t *testing.T) {
	files, err := filepath.Glob("../../model/routing/testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no routing files: %v", err)
	}
	tried := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range []string{"mesh:2x2", "mesh:3x3", "mesh:6x6"} {
			rel, err := routing.ParseFile(data, mustGrid(t, spec))
			if err != nil {
				continue
			}
			s, err := newSearcher(rel)
			if err != nil {
				continue
			}
			if classGraph(s, true) != nil {
				t.Errorf("%s on %s took the class-based graph", f, spec)
			}
			tried++
		}
	}
	if tried == 0 {
		t.Fatal("no routing file parsed")
	}
}

// TestClassResultMatchesSearch compares whole verdicts: for every built-in on the grids
// of TestClassGraphMatchesSearch, Analyze through the class-based graph (forced even
// where a search is cheaper) or the dateline products (dor on tori) and through the
// search per destination give byte-identical
// JSON — counts, the CDG's witness cycle with its sources and destinations, and Duato's
// verdict, escape vertices, extended edges and refinements. It counts how often the
// class path decided, so that a path that always falls back fails the test.
func TestClassResultMatchesSearch(t *testing.T) {
	specs := []string{"mesh:2x2", "mesh:3x3", "mesh:4x4", "mesh:5x3", "mesh:2x7", "mesh:8x8", "mesh:3x5", "mesh:7x4", "mesh:6x7", "mesh:2x3", "mesh:3x2", "mesh:9x6", "mesh:6", "mesh:3x2x3", "mesh:4x4x4",
		"torus:3x3", "torus:4x4", "torus:5x3", "torus:2x5", "torus:6x6", "torus:8x8", "torus:4x4x4", "torus:3x4x2", "torus:5x6",
		"hypercube:2", "hypercube:3", "hypercube:4", "hypercube:5", "hypercube:6"}
	compared, byClasses, duato, dateline, sourced := 0, 0, 0, 0, 0
	for _, spec := range specs {
		for _, name := range routing.Names() {
			if name == "nonminimal:B" {
				name = "nonminimal:1"
			}
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			fast, err := Analyze(rel, Options{forceClasses: true})
			if err != nil {
				t.Fatal(err)
			}
			slow, err := Analyze(rel, Options{searchOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(fast)
			b, _ := json.Marshal(slow)
			if !bytes.Equal(a, b) {
				t.Errorf("%s on %s: by classes\n%s\nby search\n%s", name, spec, a, b)
			}
			s, err := newSearcher(rel)
			if err != nil {
				t.Fatal(err)
			}
			if classResult(s, true) != nil {
				byClasses++
				if fast.Duato != nil {
					duato++
				}
				if _, ok := rel.(routing.SourceReached); ok {
					sourced++
				}
			}
			if datelineResult(s) != nil {
				dateline++
			}
			compared++
		}
	}
	if compared < 100 || byClasses < 60 || duato < 20 || dateline < 8 || sourced < 10 {
		t.Fatalf("compared %d verdicts, %d decided by classes (%d Duato's, %d with source classes), %d by dateline products: too few to mean anything", compared, byClasses, duato, sourced, dateline)
	}
	t.Logf("compared %d verdicts, %d decided by classes (%d of them Duato's, %d with source classes), %d by dateline products", compared, byClasses, duato, sourced, dateline)
}

// TestSourceReachedMatchesSearch checks routing.SourceReached state by state against
// the search per destination, for every relation that promises it on the 2-D meshes of
// TestClassGraphMatchesSearch: ReachedFrom(at, dst, sc) says yes exactly for the node
// states (at, sc), at != dst, the search reaches toward dst, and the source it names
// does reach at in class sc (a search of that source's header alone).
func TestSourceReachedMatchesSearch(t *testing.T) {
	checked := 0
	for _, spec := range []string{"mesh:2x2", "mesh:3x3", "mesh:4x4", "mesh:5x3", "mesh:2x7", "mesh:3x5", "mesh:7x4", "mesh:6x7", "mesh:9x6"} {
		for _, name := range routing.Names() {
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			sr, ok := rel.(routing.SourceReached)
			if !ok {
				continue
			}
			s, err := newSearcher(rel)
			if err != nil {
				t.Fatal(err)
			}
			n := s.g.Nodes()
			for dst := topology.NodeID(0); int(dst) < n; dst++ {
				if err := s.search(dst); err != nil {
					t.Fatal(err)
				}
				for at := topology.NodeID(0); int(at) < n; at++ {
					for sc := 0; sc < s.classes; sc++ {
						st := int(at)*s.classes + sc
						want := at != dst && s.stamp[st] == s.gen
						src, got := sr.ReachedFrom(at, dst, sc)
						if got != want {
							t.Fatalf("%s on %s: ReachedFrom(%s, %s, %d) = %v, the search reaches it: %v", name, spec, s.g.NodeName(at), s.g.NodeName(dst), sc, got, want)
						}
						if got && !reachesFrom(s, src, at, dst, sc) {
							t.Fatalf("%s on %s: ReachedFrom(%s, %s, %d) names source %s, whose header does not get there", name, spec, s.g.NodeName(at), s.g.NodeName(dst), sc, s.g.NodeName(src))
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("checked %d states: too few to mean anything", checked)
	}
	t.Logf("checked %d (router, destination, source class) triples", checked)
}

// reachesFrom reports whether the header injected at src toward dst can reach router
// at with source class sc, following every output of a positional relation.
func reachesFrom(s *searcher, src, at, dst topology.NodeID, sc int) bool {
	seen := map[topology.NodeID]bool{src: true}
	queue := []topology.NodeID{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		h := routing.Header{At: u, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
		if u == at && s.sc.SourceClass(h) == sc {
			return true
		}
		if u == dst {
			continue
		}
		for _, o := range s.rel.Route(h, nil) {
			if v := s.chTo[o.Channel]; !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	return false
}
