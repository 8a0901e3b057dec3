package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/flitwire"
)

// fig3Msgs is the 3x2 Fig. 3 deadlock (000 Fig. 3, TM1).
const fig3Msgs = "(0,0)->(0,1),(2,1);(1,0)->(2,0),(0,1)"

func TestTreeMcastCheckAndReplay(t *testing.T) {
	dir := t.TempDir()
	tr, svg, pc := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.svg"), filepath.Join(dir, "t.pcap")
	code, out, errs := runCLI(t, "check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:3x2", "--buffers", "1",
		"--pruning", "none", "--msgs", fig3Msgs, "--trace", tr, "--svg", svg, "--pcap", pc)
	if code != exitViolated || !strings.Contains(out, "shortest trace (10 steps)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	data, err := os.ReadFile(pc)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := flitwire.ReadTrace(bytes.NewReader(data)); err != nil || len(back.Records) != 10 {
		t.Fatalf("pcap: %v, %d records", err, len(back.Records))
	}
	if s, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(s, []byte("<svg")) {
		t.Fatalf("svg: %v", err)
	}
	code, out, errs = runCLI(t, "replay", tr)
	if code != exitViolated || !strings.Contains(out, "deadlock") {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errs)
	}
	// Pruning wherever a branch stops resolves it; exactly-once holds.
	code, out, _ = runCLI(t, "check", "--algo", "tree-mcast", "--prop", "exactly-once", "--topo", "mesh:3x2", "--buffers", "1",
		"--pruning", "total-stall", "--msgs", fig3Msgs, "--symmetry")
	if code != exitHolds {
		t.Fatalf("on-stop: exit %d\n%s", code, out)
	}
}

func TestTreeMcastUsage(t *testing.T) {
	base := []string{"check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:3x3"}
	for _, extra := range [][]string{
		{},
		{"--msgs", "(0,0)->(9,9)"},
		{"--msgs", "(0,0)->(1,0)", "--pruning", "some"},
		{"--msgs", "(0,0)->(1,0)", "--ports", "two"},
		{"--msgs", "(0,0)->(1,0)", "--buffers", "0"},
		{"--msgs", "(0,0)->(1,0)", "--length", "0"},
		{"--msgs", "(0,0)->(1,0)", "--shard", "1/2"},
		{"--family", "pairs:9"},
		{"--family", "triples:1"},
		{"--family", "pairs:1", "--shard", "3/2"},
		{"--family", "pairs:1", "--msgs", "(0,0)->(1,0)"},
	} {
		code, _, errs := runCLI(t, append(append([]string(nil), base...), extra...)...)
		if code != exitUsage || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q", extra, code, errs)
		}
	}
}

// TestFamilyShardsMerge runs a family in two shards and merges them; overlapping shards
// are refused.
func TestFamilyShardsMerge(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, sh := range []string{"0/2", "1/2"} {
		f := filepath.Join(dir, "s"+string(rune('0'+i))+".json")
		code, out, errs := runCLI(t, "check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:2x2", "--buffers", "1",
			"--family", "pairs:2", "--symmetry", "--shard", sh, "--result", f)
		if code != exitHolds {
			t.Fatalf("shard %s: exit %d\n%s\n%s", sh, code, out, errs)
		}
		files = append(files, f)
	}
	var out, errb bytes.Buffer
	e := &env{Stdout: &out, Stderr: &errb}
	merged := filepath.Join(dir, "m.json")
	code, err := runMerge(context.Background(), e, append(append([]string(nil), files...), "-o", merged))
	if err != nil || code != exitHolds || !strings.Contains(out.String(), "missing []") {
		t.Fatalf("merge: exit %d, %v\n%s", code, err, out.String())
	}
	if _, err := os.Stat(merged); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	code, err = runMerge(context.Background(), e, files[:1])
	if err != nil || code != exitInconclusive || !strings.Contains(out.String(), "missing [1]") {
		t.Fatalf("half merge: exit %d, %v\n%s", code, err, out.String())
	}
	if _, err := runMerge(context.Background(), e, []string{files[0], files[0]}); err == nil || !strings.Contains(err.Error(), "overlapping") {
		t.Fatalf("overlap: %v", err)
	}
	if _, err := runMerge(context.Background(), e, []string{merged, files[1]}); err == nil || !strings.Contains(err.Error(), "overlapping") {
		t.Fatalf("merge of a merge: %v", err)
	}
	if _, err := runMerge(context.Background(), e, nil); err == nil {
		t.Fatal("merge of nothing accepted")
	}
}
