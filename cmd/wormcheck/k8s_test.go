package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestK8sManifestRunsAShard reads the Indexed Job manifest, checks that its completion
// count and the N of --shard agree, and runs its wormcheck command line for index 0 (with
// /results in a temp dir) for a moment: the flags parse, the family is accepted, and the
// interrupted shard leaves a partial, resumable result where the manifest says.
func TestK8sManifestRunsAShard(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("deploy", "k8s", "family-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	y := string(data)
	comp := regexp.MustCompile(`(?m)^\s+completions: (\d+)$`).FindStringSubmatch(y)
	shard := regexp.MustCompile(`--shard "\$JOB_COMPLETION_INDEX/(\d+)"`).FindStringSubmatch(y)
	if comp == nil || shard == nil || comp[1] != shard[1] {
		t.Fatalf("completions %v and --shard .../N %v must agree", comp, shard)
	}
	cmd := regexp.MustCompile(`(?s)- >-\s+(wormcheck check .*?);\s+rc=`).FindStringSubmatch(y)
	if cmd == nil {
		t.Fatal("no wormcheck check command in the manifest")
	}
	dir := t.TempDir()
	line := strings.NewReplacer("$JOB_COMPLETION_INDEX", "0", "/results", dir, `"`, "").Replace(cmd[1])
	args := strings.Fields(line)[1:]
	// Interrupt the shard at its first progress line (the manifest asks for --progress),
	// once it is checking members, however long enumerating them took; at the latest
	// after a minute.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	errb := &cancelAtWrite{cancel: cancel, after: "members"}
	code := run(ctx, &env{Stdout: &out, Stderr: errb}, args)
	if code != exitInconclusive {
		t.Fatalf("%q: exit %d, want 3 (interrupted)\n%s%s", args, code, out.String(), errb.buf.String())
	}
	r := readFamilyResult(t, filepath.Join(dir, "shard-0.json"))
	if !r.Partial || fmt.Sprint(r.Shard.Count) != comp[1] || r.Shard.Index != 0 {
		t.Fatalf("shard 0 result: partial %v, shard %v", r.Partial, r.Shard)
	}
}

// cancelAtWrite is a writer that keeps what is written and calls cancel once a write
// contains after: a test interrupts a command at its first progress line.
type cancelAtWrite struct {
	buf    bytes.Buffer
	cancel func()
	after  string
}

func (w *cancelAtWrite) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(w.after)) {
		w.cancel()
	}
	return w.buf.Write(p)
}
