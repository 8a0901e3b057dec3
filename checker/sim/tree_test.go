package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/model"
	flitmodel "github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// naiveLoneTree is the twin of a lone tree multicast with unbounded buffers: it follows
// the message format router by router (000 §2.1), each input unit sending one flit per
// cycle, a flit leaving a router no earlier than the cycle after it arrived, an address
// flit that opens a branch followed there by the D data flits from the auxiliary buffer
// once the data has passed. It returns the cycle each destination is served (its
// address flit and data delivered), with the source's worm ready at start.
func naiveLoneTree(g *topology.Network, src topology.NodeID, dests []topology.NodeID, D int, start int64) map[topology.NodeID]int64 {
	r := topology.NewDOR(g)
	paths := make([][]topology.ChannelID, len(dests))
	for i, d := range dests {
		paths[i] = r.Path(src, d)
	}
	const data = -1
	type fl struct {
		code int
		t    int64 // the cycle it arrived at this router
	}
	served := map[topology.NodeID]int64{}
	var visit func(v topology.NodeID, in []fl)
	visit = func(v topology.NodeID, in []fl) {
		branches := map[topology.ChannelID][]fl{} // topology.None: the delivery port
		var order []topology.ChannelID
		prev := int64(-1 << 40)
		cur := topology.ChannelID(-2)
		dataSeen := false
		send := func(k topology.ChannelID, code int, earliest int64) {
			d := max(earliest, prev+1)
			prev = d
			if _, ok := branches[k]; !ok {
				order = append(order, k)
			}
			branches[k] = append(branches[k], fl{code, d})
		}
		for _, f := range in {
			if f.code == data {
				dataSeen = true
				send(cur, data, f.t+1)
				continue
			}
			k := topology.ChannelID(topology.None)
			if dests[f.code] != v {
				for _, c := range paths[f.code] {
					if g.Channel(c).From == v {
						k = c
					}
				}
			}
			_, existed := branches[k]
			send(k, f.code, f.t+1)
			if !existed {
				cur = k
				if dataSeen {
					for j := 0; j < D; j++ {
						send(k, data, 0)
					}
				}
			}
		}
		for _, k := range order {
			b := branches[k]
			if k == topology.None {
				served[v] = b[len(b)-1].t + 1
				continue
			}
			visit(g.Channel(k).To, b)
		}
	}
	in := []fl{{0, start - 1}}
	for j := 0; j < D; j++ {
		in = append(in, fl{data, start - 1})
	}
	for i := 1; i < len(dests); i++ {
		in = append(in, fl{i, start - 1})
	}
	visit(src, in)
	return served
}

// loneTree runs one tree multicast through the simulator and returns the cycle each
// destination was served and how often.
func loneTree(t testing.TB, cfg Config, src topology.NodeID, dests []topology.NodeID) (map[topology.NodeID]int64, map[topology.NodeID]int, *Result) {
	cfg.Tree, cfg.Prune, cfg.StopSources, cfg.Cycles, cfg.DrainLimit = true, flitmodel.PruneOnStop, true, 1, 1<<20
	rn, err := newRunner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	at := map[topology.NodeID]int64{}
	times := map[topology.NodeID]int{}
	rn.treeLog = func(msg int32, v topology.NodeID, c int64) { at[v] = c; times[v]++ }
	msg := rn.newMessage(kindMulticast, len(dests), 0)
	rn.sendTree(src, dests, msg, 0)
	res := rn.run()
	return at, times, res
}

// Reference: 000 §2.1: with one destination the tree worm is a unicast of d1 and the
// data, so it takes ts + h + L + tr like TestLoneWormExact.
func TestTreeOneDestinationIsAUnicast(t *testing.T) {
	for _, spec := range []string{"mesh:8x8", "torus:8x8", "torus:4x4x4"} {
		g := mustGrid(t, spec)
		r := topology.NewDOR(g)
		for _, c := range []struct{ ts, tr, L int }{{0, 0, 2}, {3, 5, 2}, {1, 0, 9}} {
			d := topology.NodeID(g.Nodes() - 2)
			at, _, res := loneTree(t, Config{Grid: g, Length: c.L, Ts: c.ts, Tr: c.tr}, 1, []topology.NodeID{d})
			want := int64(c.ts + len(r.Path(1, d)) + c.L)
			if at[d] != want || res.Completed != 1 {
				t.Errorf("%s %v: served at %d (completed %d); want %d", spec, c, at[d], res.Completed, want)
			}
		}
	}
}

type loneCase struct {
	Spec  string
	Src   int
	K, D  int
	Ts    int
	Seed  uint64
	Ports bool
}

// TestPropLoneTreeMatchesTwin: a lone tree multicast with ample buffers serves every
// destination exactly once, at the cycle the naive twin computes, and never prunes.
func TestPropLoneTreeMatchesTwin(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261122)
	params.MinSuccessfulTests = 200
	if testing.Short() {
		params.MinSuccessfulTests = 60
	}
	p := gopter.NewProperties(params)
	g := gopter.CombineGens(gen.OneConstOf("mesh:8x8", "torus:8x8", "torus:4x4x4", "mesh:3x5", "hypercube:4"),
		gen.IntRange(0, 1<<20), gen.IntRange(1, 25), gen.IntRange(0, 4), gen.IntRange(0, 3), gen.UInt64(), gen.Bool()).
		Map(func(v []any) loneCase {
			return loneCase{v[0].(string), v[1].(int), v[2].(int), v[3].(int), v[4].(int), v[5].(uint64), v[6].(bool)}
		})
	p.Property("lone tree = twin", prop.ForAll(func(c loneCase) string {
		gr, _ := topology.Parse(c.Spec)
		src := topology.NodeID(c.Src % gr.Nodes())
		k := min(c.K, gr.Nodes()-1)
		rng := rand.New(rand.NewPCG(c.Seed, 1))
		var dests []topology.NodeID
		for _, i := range rng.Perm(gr.Nodes()) {
			if topology.NodeID(i) != src && len(dests) < k {
				dests = append(dests, topology.NodeID(i))
			}
		}
		ports := model.AllPort
		if c.Ports {
			ports = model.OnePort
		}
		at, times, res := loneTree(t, Config{Grid: gr, Length: c.D + 1, Ts: c.Ts, Buffer: 64, Ports: ports}, src, dests)
		want := naiveLoneTree(gr, src, dests, c.D, int64(c.Ts))
		if res.Prunes != 0 || res.Completed != 1 || res.Undelivered != 0 {
			return fmt.Sprintf("prunes %d completed %d undelivered %d", res.Prunes, res.Completed, res.Undelivered)
		}
		for _, d := range dests {
			if times[d] != 1 || at[d] != want[d] {
				return fmt.Sprintf("dest %s: served %d times at %d; twin %d", gr.NodeName(d), times[d], at[d], want[d])
			}
		}
		return ""
	}, g))
	p.TestingRun(t)
}

// TestTreeExactlyOnceUnderLoad: under multicast traffic with small buffers no
// destination is ever served twice; with on-stop pruning (the policy model/flit found
// deadlock-free) every destination is served and the network drains. On-no-free
// pruning deadlocks here as model/flit's checker finds it does (flitmodel.PrunePartial's doc:
// a message stopped by a full buffer upstream keeps its other branches there).
func TestTreeExactlyOnceUnderLoad(t *testing.T) {
	noFreeDeadlocks := 0
	for _, spec := range []string{"mesh:6x6", "torus:5x5", "torus:3x3x3"} {
		g := mustGrid(t, spec)
		for _, pr := range []flitmodel.Prune{flitmodel.PruneOnStop, flitmodel.PruneOnNoFree} {
			for _, ports := range []model.PortModel{model.OnePort, model.AllPort} {
				cfg := Config{Grid: g, Length: 2, Ports: ports, Ts: 1, Seed: 5, Cycles: 3000, StopSources: true, Tree: true, Prune: pr,
					Traffic: Traffic{Rate: 0.01, Multicast: 0.7, MinDests: 2, MaxDests: 12}}
				rn, err := newRunner(cfg)
				if err != nil {
					t.Fatal(err)
				}
				type key struct {
					msg int32
					v   topology.NodeID
				}
				seen := map[key]int{}
				rn.treeLog = func(msg int32, v topology.NodeID, c int64) { seen[key{msg, v}]++ }
				res := rn.run()
				for k, n := range seen {
					if n != 1 {
						t.Errorf("%s %v %v: message %d served %s %d times", spec, pr, ports, k.msg, g.NodeName(k.v), n)
					}
				}
				if pr == flitmodel.PruneOnNoFree {
					if res.Deadlocked {
						noFreeDeadlocks++
					}
					continue
				}
				if res.Completed != res.Generated || res.Undelivered != 0 || res.Deadlocked || res.Multicast.N == 0 {
					t.Errorf("%s %v %v: %+v", spec, pr, ports, *res)
				}
				if res.Prunes == 0 {
					t.Errorf("%s %v: no pruning under load", spec, ports)
				}
			}
		}
	}
	if noFreeDeadlocks == 0 {
		t.Errorf("on-no-free pruning never deadlocked")
	}
}

// TestTreeWithoutPruningDeadlocks: 000 §3's reason for pruning. Without it, tree
// multicasts on a loaded torus deadlock (the check can fail); with on-stop pruning the
// same run drains.
func TestTreeWithoutPruningDeadlocks(t *testing.T) {
	g := mustGrid(t, "mesh:4x4")
	found := false
	for seed := uint64(1); seed <= 20 && !found; seed++ {
		cfg := Config{Grid: g, Length: 2, Ports: model.OnePort, Seed: seed, Cycles: 2000, DrainLimit: 4000, StopSources: true, Tree: true, Prune: flitmodel.PruneNone,
			Traffic: Traffic{Rate: 0.05, Multicast: 1, MinDests: 4, MaxDests: 12}}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Deadlocked {
			continue
		}
		found = true
		cfg.Prune = flitmodel.PruneOnStop
		res, err = Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Deadlocked || res.Completed != res.Generated {
			t.Errorf("seed %d: on-stop pruning did not drain: %+v", seed, *res)
		}
	}
	if !found {
		t.Errorf("no deadlock without pruning in 20 seeds")
	}
}

func TestTreeDeterministic(t *testing.T) {
	g := mustGrid(t, "torus:8x8")
	cfg := Config{Grid: g, Length: 2, Ports: model.OnePort, Seed: 9, Warmup: 500, Cycles: 3000, Tree: true, Prune: flitmodel.PruneOnStop,
		Traffic: Traffic{Rate: 0.004, Multicast: 1, MinDests: 4, MaxDests: 25}}
	a := runString(t, cfg)
	if b := runString(t, cfg); a != b {
		t.Fatalf("same seed, different results:\n%s\n%s", a, b)
	}
	cfg.Queue = Heap
	if b := runString(t, cfg); a != b {
		t.Fatalf("heap and calendar queues differ:\n%s\n%s", a, b)
	}
}

func TestTreeBadConfig(t *testing.T) {
	g := mustGrid(t, "mesh:8x8")
	for _, cfg := range []Config{
		{Grid: g, Tree: true, Prune: 7},
		{Grid: g, Tree: true, Prune: flitmodel.PruneOnStop, Traffic: Traffic{Rate: 0.01, Multicast: 1, MinDests: 4, MaxDests: 63}},
		{Grid: g, Tree: true, Prune: flitmodel.PruneOnStop, MulticastSchedule: func(topology.NodeID, []topology.NodeID) (*model.Schedule, error) { return nil, nil }},
	} {
		if _, err := Run(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// TestPropTreeDrainsExactlyOnce: on random small configurations (topology, VCs,
// buffers, length, ports, software latencies) mixed unicast and tree multicast traffic
// with on-stop pruning drains, serving every destination exactly once.
func TestPropTreeDrainsExactlyOnce(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261123)
	params.MinSuccessfulTests = 60
	if testing.Short() {
		params.MinSuccessfulTests = 20
	}
	p := gopter.NewProperties(params)
	p.Property("tree traffic drains exactly once", prop.ForAll(func(c smallConfig) string {
		g, err := topology.Parse(c.Spec)
		if err != nil {
			return err.Error()
		}
		V := max(c.V, topology.NewDOR(g).Classes())
		ports := model.AllPort
		if c.OnePort {
			ports = model.OnePort
		}
		cfg := Config{Grid: g, VCs: V, Buffer: c.B, Length: c.L, Ts: c.Ts, Tr: c.Tr, Ports: ports, Seed: c.Seed, Cycles: 800, StopSources: true, Tree: true, Prune: flitmodel.PruneOnStop,
			Traffic: Traffic{Rate: 0.03, Multicast: 0.6, MinDests: 1, MaxDests: g.Nodes() - 1}}
		rn, err := newRunner(cfg)
		if err != nil {
			return err.Error()
		}
		seen := map[[2]int32]int{}
		rn.treeLog = func(msg int32, v topology.NodeID, _ int64) { seen[[2]int32{msg, int32(v)}]++ }
		res := rn.run()
		for k, n := range seen {
			if n != 1 {
				return fmt.Sprintf("message %d served node %d %d times", k[0], k[1], n)
			}
		}
		if res.Completed != res.Generated || res.Undelivered != 0 || res.Deadlocked {
			return fmt.Sprintf("%+v", *res)
		}
		return ""
	}, genSmall()))
	p.TestingRun(t)
}
