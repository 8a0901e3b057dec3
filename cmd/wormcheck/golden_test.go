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
// check (a holding and a violated case, flit and schedule), verify and replay. $TMP
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
}

// masks hide what changes from run to run: timing, rates and the source revision.
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"(seconds|states_per_sec)": [0-9.e+-]+`), `"$1": "<masked>"`},
	{regexp.MustCompile(`[0-9.]+s \([0-9.e+]+ states/s\)`), `<time> (<rate> states/s)`},
	{regexp.MustCompile(`, [0-9.]+s\n`), ", <time>\n"},
	{regexp.MustCompile(`"version": "[^"]*"`), `"version": "<version>"`},
	{regexp.MustCompile(`machine's memory\) \(default [0-9]+\)`), `machine's memory) (default <3/4 of memory>)`},
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
