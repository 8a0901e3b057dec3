package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSimBadInputExit2(t *testing.T) {
	for _, args := range [][]string{
		{"sim"},
		{"sim", "--topo", "mesh:0x3", "--rate", "0.01"},
		{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--load", "0.1"},
		{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--ports", "two"},
		{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--length", "0"},
		{"sim", "--topo", "torus:4x4", "--rate", "0.01", "--vcs", "1"},
		{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--traffic", "broadcast"},
		{"sim", "--topo", "torus:4x4", "--rate", "0.01", "--traffic", "multicast", "--algo", "pm"},
		{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--dests", "x"},
		{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--algo", "nosuch"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
}

// TestSimErrorsNameFlags: the simulator's refusals, in Go terms for a Go caller
// (Options.Rate, Request.Points), reach sim's user in the flags they typed.
func TestSimErrorsNameFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rate", "0.01", "--load", "0.1"}, "wormcheck sim: --rate and --load: give one of them\n"},
		{[]string{"--load", "0.1", "--plot", filepath.Join(t.TempDir(), "p.svg"), "--points", "1"}, "wormcheck sim: --points 1: want 2..100\n"},
		{[]string{"--load", "0.1", "--warmup", "-1"}, "wormcheck sim: --warmup must not be negative\n"},
	} {
		code, _, stderr := runCLI(t, append([]string{"sim", "--topo", "mesh:4x4"}, c.args...)...)
		if code != exitUsage || stderr != c.want {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestSimJSONAndPlot(t *testing.T) {
	code, out, stderr := runCLI(t, "sim", "--topo", "hypercube:4", "--rate", "0.01", "--b", "0.05", "--vcs", "3", "--length", "8", "--ts", "1", "--cycles", "3000", "--warmup", "500", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if obj["command"] != "sim" || obj["model"].(map[string]any)["name"] != "003 model" {
		t.Errorf("unexpected object %v", obj)
	}
	svg := filepath.Join(t.TempDir(), "p.svg")
	code, _, stderr = runCLI(t, "sim", "--topo", "mesh:4x4", "--load", "0.2", "--length", "4", "--cycles", "2000", "--warmup", "200", "--plot", svg, "--points", "3")
	if code != 0 {
		t.Fatalf("plot exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, new(struct{})); err != nil {
		t.Errorf("SVG is not XML: %v", err)
	}
}

func TestSimTracePcap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.pcap")
	code, _, stderr := runCLI(t, "sim", "--topo", "mesh:4x4", "--rate", "0.01", "--length", "4", "--cycles", "500", "--warmup", "0", "--trace", p, "--trace-limit", "50")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Global header 24 bytes; the network record 16 + 4 + len("mesh:4x4") bytes naming
	// the topology; each move 16 + 28 bytes; at most 50 moves.
	const net = 16 + 4 + len("mesh:4x4")
	if len(b) < 24+net+44 || (len(b)-24-net)%44 != 0 || (len(b)-24-net)/44 > 50 {
		t.Fatalf("pcap of %d bytes", len(b))
	}
	if rec := string(b[24+16 : 24+net]); rec != "\x02\x00\x00\x00mesh:4x4" {
		t.Errorf("first record %q; want the network record of mesh:4x4", rec)
	}
	if lt := uint32(b[20]) | uint32(b[21])<<8 | uint32(b[22])<<16 | uint32(b[23])<<24; lt != 149 {
		t.Errorf("link type %d; want 149 (USER2, simulator moves)", lt)
	}
}

// TestSimCompareTable: `sim --compare` prints one table per destination count with the
// reduction of tree against separate addressing, writes one SVG series per algorithm and
// count, and refuses bad input with exit 2.
func TestSimCompareTable(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "c.svg")
	code, out, stderr := runCLI(t, "sim", "--topo", "mesh:4x4", "--compare", "tree,separate,dual-path", "--ports", "one", "--length", "2",
		"--load", "0.05", "--points", "2", "--compare-dests", "3,6", "--cycles", "2000", "--warmup", "200", "--plot", svg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Count(out, "mesh:4x4 n=") != 2 || !strings.Contains(out, "reduction") || !strings.Contains(out, "%") {
		t.Errorf("unexpected table:\n%s", out)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, new(struct{})); err != nil || strings.Count(string(b), "class=\"legend\">") != 6 || !strings.Contains(string(b), "class=\"ci\"") {
		t.Errorf("SVG not XML (%v) or not 6 series:\n%s", err, b)
	}
	code, out, _ = runCLI(t, "sim", "--topo", "mesh:4x4", "--compare", "tree,separate", "--compare-loads", "0.01,0.05", "--compare-dests", "3", "--length", "2", "--cycles", "1000", "--warmup", "100", "--json")
	var obj map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &obj) != nil || obj["compare"] == nil {
		t.Errorf("JSON exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"sim", "--topo", "mesh:4x4", "--compare", "tree,separate"},
		{"sim", "--topo", "mesh:4x4", "--compare", "tree,nosuch", "--load", "0.1"},
		{"sim", "--topo", "mesh:4x4", "--compare", "tree", "--load", "0.1", "--compare-dests", "3,x"},
		{"sim", "--topo", "torus:4x4", "--compare", "tree,pm", "--load", "0.1"},
		{"sim", "--topo", "mesh:4x4", "--compare", "tree", "--load", "0.1", "--prune", "sometimes"},
		{"sim", "--topo", "mesh:4x4", "--compare", "tree", "--compare-loads", "0.1,-2"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
}

// TestSimDefaultLoad: without --rate or --load, sim runs at the default load.
func TestSimDefaultLoad(t *testing.T) {
	code, out, stderr := runCLI(t, "sim", "--topo", "mesh:4x4", "--cycles", "2000")
	if code != 0 || !strings.Contains(out, "(0.05 flits)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}
