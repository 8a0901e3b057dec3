package unicastmc

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestWorkedExample pins 001 §4.2's example: U-torus from p(4,2) on an 8x8 torus.
func TestWorkedExample(t *testing.T) {
	g, _ := topology.NewTorus(8, 8)
	p := func(i, j int) topology.NodeID { return g.Node(i, j) }
	m := Multicast{Source: p(4, 2), Destinations: []topology.NodeID{p(0, 3), p(1, 1), p(2, 6), p(3, 4), p(5, 7), p(6, 0), p(6, 4)}}
	sorted, a := Chain(g, m)
	want := []topology.NodeID{p(0, 3), p(1, 1), p(2, 6), p(3, 4), p(4, 2), p(5, 7), p(6, 0), p(6, 4)}
	if fmt.Sprint(sorted) != fmt.Sprint(want) || a != 4 {
		t.Fatalf("sorted %v (source at %d), want %v", sorted, a, want)
	}
	rot := []topology.NodeID{p(4, 2), p(5, 7), p(6, 0), p(6, 4), p(0, 3), p(1, 1), p(2, 6), p(3, 4)}
	if got := Rotated(g, m); fmt.Sprint(got) != fmt.Sprint(rot) {
		t.Fatalf("rotated %v, want %v", got, rot)
	}
	s, err := Build(g, UTorus, m)
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps() != 3 || s.Unicasts[0].To != p(0, 3) {
		t.Errorf("steps %d, first send to %s", s.Steps(), g.NodeName(s.Unicasts[0].To))
	}
	if r := schedule.Depth(s, schedule.DepthOptions{}); r.Verdict != checker.Holds {
		t.Errorf("depth: %s %s", r.Verdict, r.Reason)
	}
}

// TestStepsAndExactlyOnce over gopter-random instances of every scheme.
func TestStepsAndExactlyOnce(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(7)
	params.MinSuccessfulTests = 60
	ps := gopter.NewProperties(params)
	tor, _ := topology.NewTorus(8, 8)
	mesh, _ := topology.NewMesh(8, 8)
	ps.Property("exactly once, doubling steps", prop.ForAll(func(src int, ds []int, sch uint8) bool {
		g := tor
		s := Scheme(sch % 4)
		if s == UMesh || s == SPU {
			g = mesh
		}
		m := Multicast{Source: topology.NodeID(src)}
		seen := map[int]bool{src: true}
		for _, d := range ds {
			if !seen[d] {
				seen[d] = true
				m.Destinations = append(m.Destinations, topology.NodeID(d))
			}
		}
		if len(m.Destinations) == 0 {
			return true
		}
		sc, err := Build(g, s, m)
		if err != nil {
			return false
		}
		want := Steps(len(m.Destinations))
		if s == Separate {
			want = len(m.Destinations)
		}
		return sc.Steps() == want && plantest.ExactlyOnce(sc) == nil && plantest.Valid(sc) == nil
	}, gen.IntRange(0, 63), gen.SliceOfN(12, gen.IntRange(0, 63)), gen.UInt8()))
	ps.TestingRun(t)
}

// TestUTorus16 checks U-torus on torus:16x16 over gopter-random instances: the
// doubling step count ceil(log2(1+|D|)), exactly-once delivery and Definition 1. Depth
// contention is claim NP8's business (it finds physical-channel contention there).
func TestUTorus16(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(16)
	params.MinSuccessfulTests = 40
	ps := gopter.NewProperties(params)
	g, _ := topology.NewTorus(16, 16)
	ps.Property("U-torus on 16x16", prop.ForAll(func(src int, ds []int) bool {
		m := Multicast{Source: topology.NodeID(src)}
		seen := map[int]bool{src: true}
		for _, d := range ds {
			if !seen[d] {
				seen[d] = true
				m.Destinations = append(m.Destinations, topology.NodeID(d))
			}
		}
		if len(m.Destinations) == 0 {
			return true
		}
		s, err := Build(g, UTorus, m)
		return err == nil && s.Steps() == Steps(len(m.Destinations)) && s.Unicasts[0].From == m.Source &&
			plantest.ExactlyOnce(s) == nil && plantest.Valid(s) == nil
	}, gen.IntRange(0, 255), gen.SliceOfN(60, gen.IntRange(0, 255))))
	ps.TestingRun(t)
}

// TestSingleUMeshDepth: one U-mesh multicast on a mesh is depth contention-free (001
// §5.1 "congestion free when supporting a single multicast").
func TestSingleUMeshDepth(t *testing.T) {
	g, _ := topology.NewMesh(6, 6)
	for k := 0; k < 20; k++ {
		m := Multicast{Source: topology.NodeID((k * 7) % 36)}
		for j := 1; j <= 9; j++ {
			d := topology.NodeID((k*7 + j*j*5 + j) % 36)
			if d != m.Source {
				m.Destinations = append(m.Destinations, d)
			}
		}
		m.Destinations = dedup(m.Destinations)
		for _, s := range []Scheme{UMesh, SPU} {
			sc, _ := Build(g, s, m)
			if r := schedule.Depth(sc, schedule.DepthOptions{NoTheorem1: true}); r.Verdict != checker.Holds {
				t.Errorf("%v %v: %s", s, m, r.Reason)
			}
		}
	}
}

func dedup(v []topology.NodeID) []topology.NodeID {
	seen := map[topology.NodeID]bool{}
	var out []topology.NodeID
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// TestManyUMeshNodeContention: several U-mesh multicasts contend at nodes (001 §5.1).
func TestManyUMeshNodeContention(t *testing.T) {
	g, _ := topology.NewMesh(4, 4)
	ms := []Multicast{
		{Source: 5, Destinations: []topology.NodeID{0, 1, 2, 3}},
		{Source: 10, Destinations: []topology.NodeID{0, 1, 2, 3}},
	}
	s, err := BuildMany(g, UMesh, ms)
	if err != nil {
		t.Fatal(err)
	}
	if r := schedule.NodeContention(s); r.Verdict != checker.Violated {
		t.Errorf("node contention: %s %s", r.Verdict, r.Reason)
	}
	if r := schedule.ExactlyOnce(s); r.Verdict != checker.Holds {
		t.Errorf("exactly-once: %s", r.Reason)
	}
}

func TestBadInput(t *testing.T) {
	g, _ := topology.NewTorus(4, 4)
	if _, err := Build(g, UTorus, Multicast{Source: 0, Destinations: []topology.NodeID{0}}); err == nil {
		t.Error("source as destination accepted")
	}
	if _, err := Build(g, UTorus, Multicast{Source: 0, Destinations: []topology.NodeID{99}}); err == nil {
		t.Error("bad node accepted")
	}
	if _, err := ParseScheme("x"); err == nil {
		t.Error("bad scheme accepted")
	}
}

func ExampleRotated() {
	g, _ := topology.NewTorus(8, 8)
	p := func(i, j int) topology.NodeID { return g.Node(i, j) }
	m := Multicast{Source: p(4, 2), Destinations: []topology.NodeID{p(0, 3), p(1, 1), p(2, 6), p(3, 4), p(5, 7), p(6, 0), p(6, 4)}}
	for _, v := range Rotated(g, m) {
		fmt.Print(g.NodeName(v), " ")
	}
	fmt.Println()
	// Output: (4,2) (5,7) (6,0) (6,4) (0,3) (1,1) (2,6) (3,4)
}
