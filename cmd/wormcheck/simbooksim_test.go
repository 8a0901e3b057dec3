package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bookSimExample is BookSim2's example configuration name as model/booksim's tests keep it.
func bookSimExample(name string) string {
	return filepath.Join("..", "..", "model", "booksim", "testdata", "examples", name)
}

// TestSimBookSim runs BookSim's own experiment from its configurations: mesh88_lat's
// transpose traffic at its injection rate (its lone packets take 25 cycles and more),
// the anynet example, a sweep drawn to a file, and overrides by flag.
func TestSimBookSim(t *testing.T) {
	code, out, errOut := runCLI(t, "sim", "--booksim", bookSimExample("mesh88_lat"))
	if code != 0 || !strings.Contains(out, "traffic transpose") || !strings.Contains(out, "injection rate 0.005 packets/terminal/cycle (0.1 flits)") ||
		!strings.Contains(out, "packet latency ") || !strings.Contains(out, "min 25,") || !strings.Contains(out, "accepted ") {
		t.Errorf("mesh88_lat: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "sim", "--booksim", bookSimExample("anynet_config"), "--json")
	var rep struct {
		Instance struct{ Algorithm string } `json:"instance"`
		BookSim  struct {
			Router struct {
				VCs    int    `json:"num_vcs"`
				Buffer int    `json:"vc_buf_size"`
				VCA    string `json:"vc_allocator"`
			} `json:"router"`
			Points []struct {
				Stable  bool     `json:"stable"`
				Latency *float64 `json:"packet_latency"`
				Zero    *float64 `json:"zero_load"`
			} `json:"points"`
		} `json:"booksim"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("anynet --json: exit %d, %v: %s", code, err, out)
	}
	r, p := rep.BookSim.Router, rep.BookSim.Points
	if rep.Instance.Algorithm != "booksim" || r.VCs != 1 || r.Buffer != 3 || r.VCA != "separable_input_first" ||
		len(p) != 1 || !p[0].Stable || p[0].Latency == nil || p[0].Zero == nil || *p[0].Latency < *p[0].Zero {
		t.Errorf("anynet report %s", out)
	}
	svg := filepath.Join(t.TempDir(), "curve.svg")
	code, out, _ = runCLI(t, "sim", "--booksim", bookSimExample("anynet_config"), "--load", "0.4", "--points", "4", "--plot", svg)
	if data, err := os.ReadFile(svg); code != 0 || err != nil || !strings.Contains(string(data), "average packet latency") ||
		!strings.Contains(out, "load 0.1000") || !strings.Contains(out, "unstable") {
		t.Errorf("anynet sweep to 0.4 flits: exit %d, %v\n%s", code, err, out)
	}
	code, out, _ = runCLI(t, "sim", "--booksim", bookSimExample("mesh88_lat"), "--traffic", "bitrev", "--length", "4", "--vcs", "2", "--buffers", "4", "--rate", "0.01")
	if code != 0 || !strings.Contains(out, "traffic bitrev") || !strings.Contains(out, "packets of [4] flits") || !strings.Contains(out, "2 VCs x 4 flits") {
		t.Errorf("overrides: exit %d\n%s", code, out)
	}
}

// TestSimBookSimBadInput: what the BookSim experiment cannot run exits 2 with one line
// naming the flag or the configuration's key and line.
func TestSimBookSimBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mesh := "topology = mesh; k = 4; n = 2; routing_function = dor; num_vcs = 2;\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--booksim", bookSimExample("mesh88_lat"), "--algo", "tree"}, "--algo: --booksim runs BookSim's own experiment"},
		{[]string{"--booksim", bookSimExample("mesh88_lat"), "--cycles", "100", "--ts", "2"}, "--cycles, --ts: --booksim"},
		{[]string{"--booksim", write("spec", mesh+"speculative = 1;\n")}, "booksim line 2: speculative: the simulator needs 0"},
		{[]string{"--booksim", write("alloc", mesh+"sw_allocator = wavefront;\n")}, "booksim line 2: sw_allocator: allocator \"wavefront\" is not simulated"},
		{[]string{"--booksim", write("traffic", mesh+"traffic = zipf;\n")}, "booksim line 2: traffic: traffic \"zipf\": not a pattern"},
		{[]string{"--booksim", write("transpose", "topology = mesh; k = 8; n = 1; routing_function = dor;\ntraffic = transpose;\n")}, "traffic transpose: needs an even power of two terminals"},
		{[]string{"--booksim", write("process", mesh+"injection_process = poisson;\n")}, "booksim line 2: injection_process: \"poisson\"; want bernoulli or on_off"},
		{[]string{"--booksim", write("rate", mesh+"injection_rate = 1.5;\n")}, "injection_rate 1.5: want 0..1"},
		{[]string{"--booksim", bookSimExample("mesh88_lat"), "--selection", "hash"}, "--selection \"hash\": with --booksim want first, random or adaptive"},
		{[]string{"--booksim", bookSimExample("mesh88_lat"), "--points", "1", "--plot", filepath.Join(dir, "x.svg")}, "--points 1: want 2..100"},
	} {
		code, _, errOut := runCLI(t, append([]string{"sim"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
