package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/golden (review the diff)")

// goldenCases are the transcripts of testdata/golden: the text and --json output of
// check (a holding and a violated case, flit and schedule, family shards), verify,
// replay, render, merge, sim (traffic, collective, sweep, comparison), routing, prove's
// list and slurm's scripts without submitting. $TMP
// stands for a per-run temporary directory; trace files written by one case are replayed
// by a later one.
var goldenCases = []struct {
	name string
	args []string
}{
	{"check-flit-violated", []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1", "--trace", "$TMP/wh2.json"}},
	{"check-flit-violated-json", []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1", "--json"}},
	{"check-flit-holds", []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--msgs", "0->2,1->3,2->0,3->1"}},
	{"check-flit-holds-json", []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--msgs", "0->2,1->3,2->0,3->1", "--json"}},
	{"check-flit-holds-bfs", []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--msgs", "0->2,1->3,2->0,3->1", "--search", "bfs"}},
	{"check-static-booksim", []string{"check", "--algo", "unicast", "--booksim", "testdata/booksim/examples/ring4_config", "--msgs", "n0->n2,n1->n3,n2->n0,n3->n1"}},
	{"check-static-fewest-worms", []string{"check", "--algo", "unicast", "--topo", "file:testdata/booksim/examples/ring4.anynet", "--routing", "shortest-path", "--vcs", "2", "--length", "3", "--buffers", "4", "--msgs", "n0->n2,n1->n3,n2->n0,n3->n1"}},
	{"check-tree-mcast-violated", []string{"check", "--algo", "tree-mcast", "--topo", "mesh:2x2", "--prop", "deadlock", "--pruning", "none", "--buffers", "1", "--msgs", "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "--trace", "$TMP/tm1.json"}},
	{"check-schedule-violated", []string{"check", "--algo", "zblock", "--topo", "torus:8x8", "--prop", "depth"}},
	{"check-schedule-violated-json", []string{"check", "--algo", "zblock", "--topo", "torus:8x8", "--prop", "depth", "--json"}},
	{"check-schedule-holds", []string{"check", "--algo", "dcf", "--topo", "torus:8x8", "--prop", "depth", "--source", "(3,5)"}},
	{"check-schedule-holds-json", []string{"check", "--algo", "dcf", "--topo", "torus:8x8", "--prop", "depth", "--source", "(3,5)", "--json"}},
	{"check-static-violated", []string{"check", "--algo", "banyan-route", "--topo", "banyan:8", "--concentration", "scattered"}},
	{"check-bad-input", []string{"check", "--algo", "unicast", "--topo", "torus:4", "--msgs", "0->9"}},
	{"verify", []string{"verify", "../../model/testdata/stepwise-not-depth.json"}},
	{"verify-json", []string{"verify", "../../model/testdata/stepwise-not-depth.json", "--json", "--semantics", "step,timed"}},
	{"replay-flit", []string{"replay", "$TMP/wh2.json"}},
	{"replay-flit-json", []string{"replay", "$TMP/wh2.json", "--json"}},
	{"replay-tree-mcast", []string{"replay", "$TMP/tm1.json"}},
	{"help-check", []string{"help", "check"}},
	{"check-unicast-help", []string{"check", "--algo", "unicast", "--help"}},
	{"check-tree-mcast-help", []string{"check", "--algo", "tree-mcast", "--help"}},
	{"check-family-shard0", []string{"check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:2x2", "--family", "pairs:2", "--buffers", "1", "--shard", "0/2", "--result", "$TMP/s0.json"}},
	{"check-family-shard1", []string{"check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:2x2", "--family", "pairs:2", "--buffers", "1", "--shard", "1/2", "--result", "$TMP/s1.json"}},
	{"merge", []string{"merge", "$TMP/s0.json", "$TMP/s1.json"}},
	{"merge-one-shard-json", []string{"merge", "$TMP/s0.json", "--json"}},
	{"merge-overlap", []string{"merge", "$TMP/s0.json", "$TMP/s0.json"}},
	{"check-partition-family-shard0", []string{"check", "--algo", "partition", "--prop", "connected", "--topo", "mesh", "--family", "sizes:2-4", "--shard", "0/2", "--result", "$TMP/p0.json"}},
	{"check-partition-family-shard1", []string{"check", "--algo", "partition", "--prop", "connected", "--topo", "mesh", "--family", "sizes:2-4", "--shard", "1/2", "--result", "$TMP/p1.json"}},
	{"merge-partition", []string{"merge", "$TMP/p0.json", "$TMP/p1.json"}},
	{"sim-traffic", []string{"sim", "--topo", "mesh:4x4", "--rate", "0.01", "--cycles", "2000", "--warmup", "500"}},
	{"sim-traffic-json", []string{"sim", "--topo", "hypercube:4", "--rate", "0.005", "--b", "0.01", "--vcs", "3", "--cycles", "2000", "--warmup", "500", "--json"}},
	{"sim-collective", []string{"sim", "--topo", "torus:8x8", "--algo", "edn", "--length", "16"}},
	{"sim-collective-json", []string{"sim", "--topo", "mesh:8x8", "--algo", "umesh", "--dests", "5", "--length", "8", "--json"}},
	{"sim-sweep", []string{"sim", "--topo", "mesh:4x4", "--load", "0.1", "--points", "3", "--cycles", "1000", "--warmup", "200", "--plot", "$TMP/p.svg"}},
	{"sim-compare", []string{"sim", "--topo", "mesh:4x4", "--compare", "tree,separate", "--compare-dests", "2,4", "--points", "2", "--load", "0.1", "--length", "2", "--cycles", "1000", "--warmup", "200"}},
	{"sim-compare-json", []string{"sim", "--topo", "mesh:4x4", "--compare", "tree,separate", "--compare-dests", "2", "--compare-loads", "0.01,0.05", "--length", "2", "--cycles", "1000", "--warmup", "200", "--json"}},
	{"routing-holds", []string{"routing", "--topo", "mesh:8x8", "--routing", "west-first"}},
	{"routing-cycle-json", []string{"routing", "--topo", "mesh:4x4", "--routing", "adaptive", "--json"}},
	{"routing-duato", []string{"routing", "--topo", "torus:4x4", "--routing", "duato"}},
	{"slurm-no-submit", []string{"slurm", "--dir", "$TMP/sl", "--tasks", "4", "--no-submit", "--binary", "/opt/wormcheck/bin/wormcheck", "--sbatch", "--partition=long", "--", "check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:2x2", "--family", "pairs:2", "--buffers", "1"}},
	{"slurm-only-no-submit", []string{"slurm", "--dir", "$TMP/sl", "--only", "1,3", "--no-submit"}},
	{"slurm-no-family", []string{"slurm", "--dir", "$TMP/sl2", "--tasks", "2", "--", "check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:2x2"}},
	{"render-trace", []string{"render", "$TMP/wh2.json", "-o", "$TMP/wh2.svg"}},
	{"render-not-json", []string{"render", "../../go.mod", "-o", "$TMP/x.svg"}},
	{"prove-list-one", []string{"prove", "--only", "WH1", "--list"}},
	{"verify-dcf-timed", []string{"verify", "../../model/testdata/zblock-4x4-ties-either.json", "--semantics", "timed"}},
}

// masks hide what changes from run to run: timing, rates and the source revision.
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"(seconds|states_per_sec|cycles_per_sec|flit_hops_per_sec)": [0-9.e+-]+`), `"$1": "<masked>"`},
	{regexp.MustCompile(`in [0-9.]+s \([0-9.e+]+ flit-hops/s\)`), `in <time> (<rate> flit-hops/s)`},
	{regexp.MustCompile(`(?m)^[0-9.]+s$`), `<time>`},
	{regexp.MustCompile(`[0-9.]+s \([0-9.e+]+ states/s\)`), `<time> (<rate> states/s)`},
	{regexp.MustCompile(`, [0-9.]+s\n`), ", <time>\n"},
	{regexp.MustCompile(`from [0-9.]+s for [0-9.]+s`), "from <time> for <time>"},
	{regexp.MustCompile(`static decision \([0-9.]+s\)`), "static decision (<time>)"},
	{regexp.MustCompile(`"started_after": [0-9.e+-]+`), `"started_after": "<masked>"`},
	{regexp.MustCompile(`"version": "[^"]*"`), `"version": "<version>"`},
	{regexp.MustCompile(`available at the start\) \(default [0-9]+\)`), `available at the start) (default <3/4 of memory>)`},
}

// TestGoldenTranscripts compares the command's output with testdata/golden; rewrite with
// `go test ./cmd/wormcheck -run Golden -update` and review the diff.
func TestGoldenTranscripts(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range goldenCases {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			args[i] = strings.ReplaceAll(a, "$TMP", tmp)
		}
		code, out, errb := runCLI(t, args...)
		got := fmt.Sprintf("$ wormcheck %s\nexit %d\n%s%s", strings.Join(c.args, " "), code, out, errb)
		got = strings.ReplaceAll(got, tmp, "$TMP")
		for _, m := range masks {
			got = m.re.ReplaceAllString(got, m.with)
		}
		path := filepath.Join("testdata", "golden", c.name+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run with -update)", c.name, err)
		}
		if string(want) != got {
			t.Errorf("%s: transcript differs (rewrite with -update and review the diff):\n--- want\n%s\n--- got\n%s", c.name, want, got)
		}
	}
}
