package creditloop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
)

// randomFabric is n switches with a host each and random extra switch links, routed by
// a random spanning tree towards each destination (every route is delivered; routes to
// different destinations may cross into credit loops).
func randomFabric(t *testing.T, rnd *rand.Rand, n int) *fabric.Fabric {
	type link struct{ a, b int }
	links := []link{}
	for i := 0; i < n; i++ {
		links = append(links, link{i, (i + 1) % n})
	}
	for i := 0; i < n; i++ {
		for j := i + 2; j < n; j++ {
			if (i != 0 || j != n-1) && rnd.IntN(3) == 0 {
				links = append(links, link{i, j})
			}
		}
	}
	ports := make([]int, n) // next free port per switch; port 1 is the host
	for i := range ports {
		ports[i] = 2
	}
	var b strings.Builder
	recs := make([][]string, n)
	for _, l := range links {
		pa, pb := ports[l.a], ports[l.b]
		ports[l.a]++
		ports[l.b]++
		recs[l.a] = append(recs[l.a], fmt.Sprintf("[%d] \"S%d\"[%d]", pa, l.b, pb))
		recs[l.b] = append(recs[l.b], fmt.Sprintf("[%d] \"S%d\"[%d]", pb, l.a, pa))
	}
	for i := range n {
		fmt.Fprintf(&b, "Switch 8 \"S%d\" # \"S%d\" lid %d\n[1] \"H%d\"[1]\n%s\n\n", i, i, i+1, i, strings.Join(recs[i], "\n"))
	}
	for i := range n {
		fmt.Fprintf(&b, "Hca 1 \"H%d\"\n[1] \"S%d\"[1] # lid %d\n\n", i, i, n+i+1)
	}
	f, err := fabric.ParseNet("random", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for d := range n {
		if rnd.IntN(2) == 0 {
			// Clockwise round the ring, the routes that close credit loops.
			for i := range n {
				if i == d {
					continue
				}
				for p, port := range f.Nodes[i].Ports {
					if p >= 2 && port.Remote.Valid() && port.Remote.Node == int32((i+1)%n) {
						f.SetLFT(i, uint16(n+d+1), uint8(p))
						f.SetLFT(i, uint16(d+1), uint8(p))
						break
					}
				}
			}
			f.SetLFT(d, uint16(n+d+1), 1)
			f.SetLFT(d, uint16(d+1), 0)
			continue
		}
		// A random spanning tree towards switch d: each switch forwards to its parent.
		parent := make([]int, n)
		for i := range parent {
			parent[i] = -1
		}
		parent[d] = d
		frontier := []int{d}
		for len(frontier) > 0 {
			k := rnd.IntN(len(frontier))
			u := frontier[k]
			added := false
			for _, p := range rnd.Perm(len(f.Nodes[u].Ports)) {
				r := f.Nodes[u].Ports[p].Remote
				if p < 2 || !r.Valid() || parent[r.Node] >= 0 {
					continue
				}
				parent[r.Node] = u
				f.SetLFT(int(r.Node), uint16(n+d+1), r.Port)
				f.SetLFT(int(r.Node), uint16(d+1), r.Port)
				frontier = append(frontier, int(r.Node))
				added = true
				break
			}
			if !added {
				frontier = append(frontier[:k], frontier[k+1:]...)
			}
		}
		f.SetLFT(d, uint16(n+d+1), 1)
		f.SetLFT(d, uint16(d+1), 0)
	}
	return f
}

// reference decides a fabric the plain way: every route as a flow with K packets per
// channel it takes (no deadlock needs more), the whole model searched exhaustively for
// a reachable local deadlock, without loops, cycles or constructions.
func reference(t *testing.T, f *fabric.Fabric, k int) (props.Verdict, int64) {
	var flows []vct.Flow
	for i, src := range f.Nodes {
		if src.Kind != fabric.CA {
			continue
		}
		for _, dst := range f.Nodes {
			if dst.Kind != fabric.CA || dst.GUID == src.GUID {
				continue
			}
			r := fabric.PortRef{Node: int32(i), Port: 1}
			p := f.Route(r, dst.Ports[1].LID)
			flows = append(flows, vct.Flow{Src: r, DLID: dst.Ports[1].LID, Route: p.Hops, Packets: k * (len(p.Hops) - 2)})
		}
	}
	var keep []vct.Flow
	for _, fl := range flows {
		if fl.Packets > 0 {
			keep = append(keep, fl)
		}
	}
	m, err := vct.New(vct.Config{Fabric: f, Flows: keep, Buffer: 32 * k, Packet: 32})
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Explore[vct.State](m, checker.Options[vct.State]{CheckLocalDeadlock: true, MaxStates: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return res.Verdict, res.Stats.States
}

// The decision against the plain exhaustive search of the whole model, on random small
// fabrics: the same verdict whenever the reference finishes. (Only switch-to-switch
// channels can be in a credit loop, so a route's packets beyond K per such channel
// never matter; the reference counts K per switch-to-switch channel of each route.)
func TestDecisionAgainstReference(t *testing.T) {
	n := 12
	if os.Getenv("WORMCHECK_LONG") != "" {
		n = 200
	}
	rnd := rand.New(rand.NewPCG(7, 34))
	var agree, violated, holdsWithLoops, skipped int
	for i := range n {
		f := randomFabric(t, rnd, 3)
		a, err := Analyze(context.Background(), f, Options{Buffer: 32, Packet: 32})
		if err != nil {
			t.Fatal(err)
		}
		want, states := reference(t, f, 1)
		if want == props.Inconclusive {
			skipped++
			continue
		}
		got := a.Verdict()
		if got != want {
			t.Fatalf("fabric %d: %s, verdict %v; the exhaustive search (%d states) says %v", i, a, got, states, want)
		}
		agree++
		if got == props.Violated {
			violated++
		} else if len(a.Loops) > 0 {
			holdsWithLoops++
		}
	}
	if violated == 0 || agree-violated == 0 {
		t.Fatalf("%d fabrics agree, %d violated: the table must pin both verdicts", agree, violated)
	}
	t.Logf("%d random fabrics: %d agree (%d deadlock, %d hold, of which %d with credit loops), %d too large for the reference", n, agree, violated, agree-violated, holdsWithLoops, skipped)
}

// The exhaustive search tier on its own: on the minhop ring (buffers of two packets) it
// finds the deadlock the construction finds, with one packet per buffer, and runs it
// with platoons of two; the trace replays.
func TestSearchTier(t *testing.T) {
	f := ring(t, 4, shortest(4))
	a, err := Analyze(context.Background(), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srcs, dsts := endpoints(f, false)
	loopOf := make([]int32, a.Channels.Len())
	for i := range loopOf {
		loopOf[i] = -1
	}
	for _, v := range a.Loops[0].Channels {
		loopOf[v] = 0
	}
	lf := collectFlows(f, a.Channels, srcs, dsts, loopOf, 1)
	d := a.search(context.Background(), &a.Loops[0], &lf[0])
	if d.Verdict != props.Violated || d.How != "search" || d.States == 0 {
		t.Fatalf("search: %v %s (%d states): %s", d.Verdict, d.How, d.States, d.Reason)
	}
	m, _, err := d.Instance.Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := checker.Replay[vct.State](m, 0, d.Actions)
	if err != nil {
		t.Fatal(err)
	}
	if stuck := m.LocalDeadlock(tr.Steps[len(tr.Steps)-1].State, nil); len(stuck) == 0 || len(d.Cycle) != 4 {
		t.Fatalf("the searched deadlock: %d stuck, cycle %v", len(stuck), d.Cycle)
	}
	// The search's trace is a shortest one with one packet per buffer, run by platoons
	// of two: no longer than the construction's.
	if len(d.Actions) > len(a.Loops[0].Decision.Actions) || len(d.Stuck) != 8 {
		t.Fatalf("the search's trace has %d steps (the construction's %d), %d packets stuck", len(d.Actions), len(a.Loops[0].Decision.Actions), len(d.Stuck))
	}
}
