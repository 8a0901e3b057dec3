package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSimAnyNetwork runs sim on irregular networks: generated dragonflies and fat-trees,
// a BookSim2 configuration with its anynet file, a mesh with failed links; light load
// delivers with the zero-load latency beside it, a relation without its VC classes
// deadlocks under heavy load and says so with exit 1.
func TestSimAnyNetwork(t *testing.T) {
	short := []string{"--cycles", "1500", "--warmup", "200"}
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
	}{
		{[]string{"sim", "--topo", "dragonfly:a=4,p=2,h=2", "--routing", "dragonfly-min", "--load", "0.1"}, 0, "zero-load latency: unicast 36.34"},
		{[]string{"sim", "--topo", "fattree:4,2", "--routing", "fattree-nca", "--traffic", "hotspot"}, 0, "sim fattree:4,2: rate"},
		{[]string{"sim", "--topo", "fattree:4,3", "--routing", "fattree-nca", "--selection", "hash", "--load", "0.2"}, 0, "zero-load latency: unicast 37.43"},
		{[]string{"sim", "--topo", "mesh:8x8", "--faults", "(1,1)-(2,1),(3,3)-(3,4),(5,5)-(5,6)", "--routing", "updown", "--multicast", "0.2", "--dests", "2..4"}, 0, "multicast latency"},
		{[]string{"sim", "--topo", "dragonfly:a=4,p=2,h=2", "--routing", "dragonfly-min-1vc", "--load", "0.8"}, 1, "DEADLOCKED: flits stopped moving for good"},
	} {
		code, out, errOut := runCLI(t, append(tc.args, short...)...)
		if code != tc.code || !strings.Contains(out, tc.stdout) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q", tc.args, code, out, errOut, tc.code, tc.stdout)
		}
	}
	code, out, _ := runCLI(t, "sim", "--topo", "dragonfly:a=4,p=2,h=2", "--routing", "dragonfly-min-1vc", "--load", "0.8", "--cycles", "500", "--warmup", "0", "--json")
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil || code != exitViolated {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if obj["verdict"] != "violated" || !strings.Contains(obj["reason"].(string), "deadlocked") ||
		obj["instance"].(map[string]any)["parameters"].(map[string]any)["routing"] != "dragonfly-min-1vc" {
		t.Errorf("deadlock report %v", obj)
	}
}

// TestSimAnyNetworkBadInput: what sim cannot run on an irregular network exits 2 with one
// line naming the flag.
func TestSimAnyNetworkBadInput(t *testing.T) {
	df := []string{"sim", "--topo", "dragonfly:a=2,p=1,h=1"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{df, "--routing is missing"},
		{append(df, "--routing", "dor"), "--routing: routing \"dor\" needs a mesh, torus or hypercube"},
		{append(df, "--routing", "nosuch"), "--routing"},
		{append(df, "--routing", "dragonfly-min", "--algo", "tree"), "--algo tree goes by dimension order"},
		{append(df, "--routing", "dragonfly-min", "--algo", "umesh"), "--algo umesh goes by dimension order"},
		{append(df, "--routing", "dragonfly-min", "--compare", "tree,separate"), "--compare goes by dimension order"},
		{append(df, "--routing", "dragonfly-min", "--traffic", "broadcast"), "a broadcast (--b, --traffic broadcast) goes by dimension order"},
		{append(df, "--routing", "dragonfly-min", "--traffic", "hotspot", "--hot-node", "0"), "--hot-node 0: g0r0 is a router"},
		{append(df, "--routing", "dragonfly-min", "--load", "2"), "can inject (1 flits a cycle"},
		{append(df, "--routing", "dragonfly-min", "--traffic", "multicast", "--dests", "9"), "need 1 <= min <= max <= 5"},
		{[]string{"sim", "--topo", "mesh:3x3", "--faults", "(1,0)-(2,0)", "--routing", "dor"}, "routing \"dor\" strands a worm"},
		{[]string{"sim", "--topo", "file:testdata/booksim/bad.anynet", "--routing", "updown"}, `anynet line 1, field 5: "rooter"`},
		{[]string{"sim", "--topo", "banyan:8"}, "--topo"},
		{append(df, "--routing", "dragonfly-min", "--selection", "random"), `--selection "random": want first or hash`},
		{[]string{"sim", "--topo", "mesh:4x4", "--selection", "hash"}, "give --routing"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		msg := strings.TrimSpace(errOut)
		if code != exitUsage || out != "" || !strings.Contains(msg, tc.want) || strings.Count(msg, "\n") > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
