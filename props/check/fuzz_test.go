package check_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/model/topology/topologytest"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// FuzzRun: whatever a user passes — algorithm, topology, parameter values — Run either
// returns a report or a one-line error that is bad input; it never panics and never
// reports an internal error for input it refuses.
func FuzzRun(f *testing.F) {
	names := check.Names()
	algo := func(name string) uint8 { return algoIndex(names, name) }
	f.Add(algo("unicast"), "torus:4", "msgs", "0->2,1->3", "deadlock")
	f.Add(algo("tree-mcast"), "mesh:3x3", "msgs", "(0,0)->(2,0),(2,2);(2,2)->(0,2)", "exactly-once")
	f.Add(algo("banyan-route"), "banyan:8", "pattern", "0->5,3->5", "nonblocking")
	f.Add(algo("two-phase"), "banyan:16", "msgs", "1->5,6,7,8;15->7-12", "deadlock")
	f.Add(algo("dcf"), "torus:4x4", "dests", "all", "depth")
	f.Add(algo("umesh"), "mesh:4x4", "multicasts", "5:0,1;10:2,3", "any-delay")
	f.Add(algo("multinode"), "torus:8x8", "type", "II", "stepwise")
	f.Add(algo("unicast"), "torus:4", "length", "99999999999999999999", "deadlock")
	f.Add(algo("tree-mcast"), "mesh:1x1", "family", "pairs:9", "deadlock")
	f.Fuzz(func(t *testing.T, algo uint8, topo, param, value, prop string) {
		if !topologytest.Small(topo) {
			return // FuzzRunLarge's; a network of a million nodes takes a second to build
		}
		if n, ok := specNodes(topo); ok && n > 64 {
			// Large instances are valid input but slow (a depth decision is quadratic
			// in the unicasts); the fuzzer looks for panics and bad errors.
			return
		}
		a, _ := check.Lookup(names[int(algo)%len(names)])
		in := check.Instance{Algorithm: a.Name, Topology: topo, Params: map[string]string{param: value}}
		if a.Name == "multinode" {
			in.Params["sources"], in.Params["dests"] = "3", "3" // keep the instance small
		}
		rep, err := runWithin(t, context.Background(), in, checker.Property(prop), check.Options{MaxStates: 2000}, 30*time.Second)
		if err != nil {
			return
		}
		if rep == nil || rep.Schema == "" || rep.Property == "" || rep.Semantics == "" {
			t.Fatalf("%+v %q: incomplete report %+v", in, prop, rep)
		}
	})
}

// FuzzRunLarge is FuzzRun on the large topologies FuzzRun skips (banyan:4096 ran out of
// memory, banyan:65536 panicked): with a one-second context and a 256 MiB budget, Run
// must return within a few seconds with a report (inconclusive when a bound stopped it)
// or a one-line bad-input error, whatever the size.
func FuzzRunLarge(f *testing.F) {
	names := check.Names()
	algo := func(name string) uint8 { return algoIndex(names, name) }
	f.Add(algo("banyan-route"), "banyan:4096", "family", "monotone", "nonblocking")
	f.Add(algo("banyan-route"), "banyan:8192", "family", "monotone", "nonblocking")
	f.Add(algo("banyan-route"), "banyan:16384", "family", "monotone", "nonblocking")
	f.Add(algo("banyan-route"), "banyan:32768", "family", "monotone", "nonblocking")
	f.Add(algo("banyan-route"), "banyan:65536", "family", "monotone", "nonblocking")
	f.Add(algo("unicast"), "torus:64x64", "msgs", "0->2,1->3", "deadlock")
	f.Add(algo("dcf"), "torus:256x256", "source", "0", "depth")
	f.Fuzz(func(t *testing.T, algo uint8, topo, param, value, prop string) {
		if n, ok := specNodes(topo); !ok || n <= 64 {
			return
		}
		a, _ := check.Lookup(names[int(algo)%len(names)])
		in := check.Instance{Algorithm: a.Name, Topology: topo, Params: map[string]string{param: value}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		rep, err := runWithin(t, ctx, in, checker.Property(prop), check.Options{MaxStates: 2000, MaxMemoryBytes: 256 << 20}, 10*time.Second)
		if err != nil {
			return
		}
		if rep == nil || rep.Schema == "" {
			t.Fatalf("%+v %q: incomplete report %+v", in, prop, rep)
		}
	})
}

// algoIndex returns the fuzz argument that selects the algorithm called name in names,
// so that a seed says which algorithm it is for.
func algoIndex(names []string, name string) uint8 {
	i := slices.Index(names, name)
	if i < 0 {
		panic("no algorithm " + name)
	}
	return uint8(i)
}

// runWithin runs the entry and fails the test when it takes longer than most or returns
// an error that is not one line of bad input; it returns what Run returned.
func runWithin(t *testing.T, ctx context.Context, in check.Instance, prop checker.Property, opt check.Options, most time.Duration) (*props.Report, error) {
	t.Helper()
	start := time.Now()
	rep, err := check.Run(ctx, in, prop, opt)
	if d := time.Since(start); d > most {
		t.Fatalf("%+v %q: took %v", in, prop, d)
	}
	if err != nil && (!errors.Is(err, check.ErrBadInput) || strings.Contains(err.Error(), "\n")) {
		t.Fatalf("%+v %q: error %q is not one line of bad input", in, prop, err)
	}
	return rep, err
}

// specNodes returns the number of nodes of a network or banyan spec, and false when the
// spec is neither or names more than 2^17 nodes by its numbers (topologytest.NodesBound):
// counting them would take the second building them takes.
func specNodes(spec string) (int, bool) {
	if topologytest.NodesBound(spec) > 1<<17 {
		return 0, false
	}
	if g, err := topology.Parse(spec); err == nil {
		return g.Nodes(), true
	}
	if b, err := topology.ParseBanyan(spec); err == nil {
		return b.Nodes(), true
	}
	return 0, false
}
