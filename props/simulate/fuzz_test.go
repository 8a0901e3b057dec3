package simulate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/model/topology/topologytest"
)

// FuzzParseDests checks that --dests parses to a valid range or a one-line error.
func FuzzParseDests(f *testing.F) {
	for _, s := range []string{"4..25", "1", "0..3", "5..2", "x", "..", "3..", "-1..4", "99999999999999999999..1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mn, mx, err := parseDests(s)
		if err == nil && (mn < 1 || mx < mn) {
			t.Fatalf("%q parsed to %d..%d", s, mn, mx)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}

// FuzzOptions reaches the simulator's flags through the entry (Run), on any topology the
// parser accepts, large ones included: every value is refused with a one-line error
// naming what is wrong, or runs (cut short by a 100 ms context) and reports an outcome;
// nothing panics, nothing overflows into a nonsense figure, and nothing allocates more
// than the guards allow. Inputs that the guards accept but that would allocate hundreds
// of megabytes (legal, only slow) are skipped; inputs above the guards are not (they
// must be refused before allocating: sim --buffers 100000000 ran out of memory).
func FuzzOptions(f *testing.F) {
	f.Add("mesh:4x4", uint8(0), uint8(0), 2, 0, 32, 0, 0, int64(200), int64(50), 0.05, "4..25")
	f.Add("mesh:4x4", uint8(0), uint8(0), 100000000, 0, 32, 0, 0, int64(200), int64(50), 0.05, "4..25")
	f.Add("mesh:4x4", uint8(0), uint8(0), 1000000000, 0, 32, 0, 0, int64(200), int64(50), 0.05, "4..25")
	f.Add("mesh:4x4", uint8(0), uint8(0), 2, 0, 32, 0, 0, int64(9223372036854775000), int64(50), 0.05, "4..25")
	f.Add("mesh:4x4", uint8(0), uint8(0), 2, 0, 32, 0, 0, int64(200), int64(9223372036854775000), 0.05, "4..25")
	f.Add("mesh:4x4", uint8(0), uint8(0), 2, 0, 32, 0, 9223372036854775807, int64(200), int64(50), 0.05, "4..25")
	f.Add("torus:8x8", uint8(0), uint8(3), 2, 0, 32, 9223372036854775807, 0, int64(200), int64(50), 0.0, "5")
	f.Add("mesh:4x4", uint8(0), uint8(0), 2, 0, 32, 4611686018427387904, 0, int64(200), int64(50), 0.05, "4..25")
	f.Add("torus:8x8", uint8(0), uint8(3), 0, 0, 32, 0, 0, int64(200), int64(50), 0.0, "5")
	f.Add("torus:8x8", uint8(0), uint8(3), 2, 0, 100000000, 0, 9223372036854775807, int64(200), int64(50), 0.0, "5")
	f.Add("mesh:64x64", uint8(0), uint8(0), 100000, 1, 32, 0, 0, int64(200), int64(50), 0.05, "4..25")
	f.Add("hypercube:6", uint8(3), uint8(1), 2, 3, 32, 1, 1, int64(300), int64(100), 0.01, "4..25")
	f.Add("mesh:8x8", uint8(2), uint8(6), 2, 0, 2, 0, 0, int64(300), int64(100), 0.01, "4..11")
	traffics := []string{"uniform", "hotspot", "multicast", "broadcast"}
	algos := []string{"", "separate", "tree", "dcf", "edn", "zblock", "dual-path", "umesh", "sbt"}
	f.Fuzz(func(t *testing.T, topo string, traffic, algo uint8, buffers, vcs, length, ts, tr int, cycles, warmup int64, load float64, dests string) {
		if !topologytest.Small(topo) {
			return // a valid network of up to a million nodes takes a second to build
		}
		g, err := topology.Parse(topo)
		if err != nil {
			return
		}
		slots := float64(g.Channels()) * float64(max(vcs, 1)) * float64(buffers)
		if (slots > 1<<22 && slots <= 1<<27) || g.Channels() > 1<<20 || (g.Nodes() > 4096 && load == 0) {
			return // legal but slow to allocate or to build
		}
		o := Options{Traffic: traffics[int(traffic)%len(traffics)], Algo: algos[int(algo)%len(algos)], Ports: "all", Process: "poisson",
			Dests: dests, Prune: "on-stop", Load: load, B: -1, Multicast: -1, HotSpot: 0.1, HotNode: -1,
			Length: length, VCs: vcs, Buffers: buffers, Ts: ts, Tr: tr, Cycles: cycles, Warmup: warmup, Seed: 1}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		out, err := Run(ctx, Request{Grid: g, Options: o, Points: 2})
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("%s %+v: took %v", topo, o, d)
		}
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s %+v: multi-line error %q", topo, o, err)
			}
			return
		}
		obj := out.Report("fuzz")
		if _, err := json.Marshal(obj); err != nil {
			t.Fatalf("%s %+v: outcome does not encode: %v", topo, o, err)
		}
	})
}
