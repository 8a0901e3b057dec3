package booksim

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestDefaults pins BookSim's defaults for the keys wormcheck and its simulator read
// (booksim_config.cpp): a file that sets nothing runs an 8-ary 2-cube torus with 16 VCs
// of 8 flits, 1-flit packets of uniform traffic at 0.1.
func TestDefaults(t *testing.T) {
	c, err := Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Set) != 0 || len(c.Unknown) != 0 {
		t.Fatalf("empty file sets %v, unknown %v", c.Set, c.Unknown)
	}
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"topology", c.Network.Topology, "torus"},
		{"k", c.Network.K, 8},
		{"n", c.Network.N, 2},
		{"c", c.Network.C, 1},
		{"routing_function", c.Network.RoutingFunction, "none"},
		{"x,y,xr,yr", [4]int{c.Network.X, c.Network.Y, c.Network.XR, c.Network.YR}, [4]int{8, 8, 1, 1}},
		{"num_vcs", c.Router.NumVCs, 16},
		{"vc_buf_size", c.Router.VCBufSize, 8},
		{"buf_size", c.Router.BufSize, -1},
		{"wait_for_tail_credit", c.Router.WaitForTailCredit, false},
		{"routing_delay", c.Router.RoutingDelay, 1},
		{"vc_alloc_delay", c.Router.VCAllocDelay, 1},
		{"sw_alloc_delay", c.Router.SWAllocDelay, 1},
		{"st_final_delay", c.Router.STFinalDelay, 1},
		{"credit_delay", c.Router.CreditDelay, 0},
		{"internal_speedup", c.Router.InternalSpeedup, 1.0},
		{"vc_allocator", c.Allocators.VCAllocator, "islip"},
		{"arb_type", c.Allocators.ArbType, "round_robin"},
		{"traffic", c.Traffic.Pattern, []string{"uniform"}},
		{"injection_rate", c.Traffic.InjectionRate, []float64{0.1}},
		{"packet_size", c.Traffic.PacketSize, [][]int{{1}}},
		{"injection_process", c.Traffic.InjectionProcess, []string{"bernoulli"}},
		{"burst_r1", c.Traffic.BurstR1, -1.0},
		{"read_reply_end_vc", c.Traffic.ReadReplyEndVC, 13},
		{"sim_type", c.Sim.Type, "latency"},
		{"warmup_periods", c.Sim.WarmupPeriods, 3},
		{"sample_period", c.Sim.SamplePeriod, 1000},
		{"max_samples", c.Sim.MaxSamples, 10},
		{"latency_thres", c.Sim.LatencyThres, []float64{500}},
		{"include_queuing", c.Sim.IncludeQueuing, true},
		{"seed", c.Sim.Seed, Seed{}},
		{"watch_flits", c.Sim.WatchFlits, []int(nil)},
		{"power_output_file", c.Power.PowerOutputFile, "pwr_tmp"},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("default %s = %#v; want %#v", tc.name, tc.got, tc.want)
		}
	}
	// Every key booksim_config.cpp defines outside its #ifdef blocks and comments: 121.
	if n := len(Keys()); n != 121 {
		t.Errorf("%d keys; booksim_config.cpp defines 121", n)
	}
}

// TestParseValues reads every kind of value BookSim's lexer and vector syntax give.
func TestParseValues(t *testing.T) {
	c, err := Parse([]byte(`
topology = cmesh; // a comment
k = 4; n = 2;
injection_rate = {0.1,0.25};
packet_size = {{1,2},{20}};
traffic = {uniform,transpose};
seed = time;
perm_seed = 7;
internal_speedup = 2;
wait_for_tail_credit = 1;
watch_out = -;
const_flits_per_packet = 10;
k = 8;
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"topology":       c.Network.Topology == "cmesh",
		"k (last wins)":  c.Network.K == 8,
		"injection_rate": reflect.DeepEqual(c.Traffic.InjectionRate, []float64{0.1, 0.25}),
		"packet_size":    reflect.DeepEqual(c.Traffic.PacketSize, [][]int{{1, 2}, {20}}),
		"traffic":        reflect.DeepEqual(c.Traffic.Pattern, []string{"uniform", "transpose"}),
		"seed":           c.Sim.Seed == Seed{Time: true},
		"perm_seed":      c.Traffic.PermSeed == Seed{Value: 7},
		"speedup":        c.Router.InternalSpeedup == 2,
		"tail credit":    c.Router.WaitForTailCredit,
		"watch_out":      c.Sim.WatchOut == "-",
		"unknown":        reflect.DeepEqual(c.Unknown, []string{"const_flits_per_packet"}),
		"set":            strings.Join(c.Set, " ") == "topology k n injection_rate packet_size traffic seed perm_seed internal_speedup wait_for_tail_credit watch_out const_flits_per_packet",
		"line":           c.Line["k"] == 13,
	}
	for name, ok := range want {
		if ok != true {
			t.Errorf("%s: got %+v", name, c)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"topology = mesh;\nk = four;\n", `booksim line 2: k = four: "four" is not a whole number`},
		{"k = 4.5;", `booksim line 1: k = 4.5: "4.5" is not a whole number`},
		{"topology = mesh;\nk\n", `booksim line 2: "k" is not KEY = VALUE;`},
		{"k = ;", "booksim line 1: k has no value"},
		{"injection_rate = {0.1,fast};", `"fast" is not a number`},
		{"seed = now;", `"now" is not a whole number, nor the word time`},
		{"/* open", "comment is not closed"},
		{"packet_size = 99999999999;", "is not a whole number"},
	} {
		if _, err := Parse([]byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want %q", tc.text, err, tc.want)
		}
	}
}

// TestExamples reads configurations modelled on BookSim2's eight examples
// (src/examples): each parses with no unknown key.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/examples/*")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "anynet_file") {
			continue
		}
		n++
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(c.Unknown) > 0 {
			t.Errorf("%s: unknown keys %v", f, c.Unknown)
		}
	}
	if n != 8 {
		t.Errorf("%d example configurations; want BookSim's 8", n)
	}
}

// FuzzParse: any bytes give a configuration or an error of one line.
func FuzzParse(f *testing.F) {
	f.Add([]byte("topology = anynet;\nrouting_function = min;\nnetwork_file = anynet_file;\nnum_vcs = 1;\n"))
	f.Add([]byte("topology = fattree; k = 4; n = 3; routing_function = nca; // c\npacket_size = {{1,2},{3}};"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		if _, err := c.Map("d"); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("map error of several lines: %q", err)
		}
	})
}

// TestKeysDocumented checks that docs/booksim.md's table names every key BookSim
// defines, so that a user finds what wormcheck does with each.
func TestKeysDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/booksim.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys() {
		if !strings.Contains(string(doc), "`"+k.Name+"`") {
			t.Errorf("docs/booksim.md does not mention key %s", k.Name)
		}
	}
}

// FuzzMapSizes reaches the size paths of a configuration: any topology BookSim names
// with any k, n, c, x, y and packet, VC and buffer counts (huge, zero, negative). Parse
// and Map either give a mapping or a one-line error, and they build no network, so that
// even a configuration of 4096^8 routers costs less than 256 KiB to read and map (a
// count of bytes allocated, not a clock).
func FuzzMapSizes(f *testing.F) {
	f.Add(uint8(0), int64(4), int64(2), int64(1), int64(4), int64(4), int64(4), int64(2))
	f.Add(uint8(1), int64(4096), int64(8), int64(1), int64(1), int64(1), int64(1), int64(1))
	f.Add(uint8(4), int64(1<<40), int64(-3), int64(0), int64(1<<31), int64(-1), int64(1<<62), int64(0))
	kinds := []string{"mesh", "torus", "cmesh", "flatfly", "fly", "fattree", "dragonflynew", "qtree", "tree4", "anynet", "kncube"}
	f.Fuzz(func(t *testing.T, kind uint8, k, n, c, x, y, size, vcs int64) {
		text := fmt.Sprintf("topology = %s; k = %d; n = %d; c = %d; x = %d; y = %d; xr = %d; yr = %d; packet_size = %d; num_vcs = %d; vc_buf_size = %d; routing_function = dim_order;\n",
			kinds[int(kind)%len(kinds)], k, n, c, x, y, x, y, size, vcs, size)
		var err error
		least := uint64(1 << 63)
		for range 3 { // the least of three: another goroutine's allocation does not count
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var cfg Config
			if cfg, err = Parse([]byte(text)); err == nil {
				_, err = cfg.Map("d")
			}
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s: error of several lines: %q", text, err)
		}
		if least > 256<<10 {
			t.Fatalf("%s: reading and mapping allocated %d bytes", text, least)
		}
	})
}
