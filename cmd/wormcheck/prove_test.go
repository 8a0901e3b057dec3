package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// proveTiming is a timing with the spaces that pad it: the TIME column ("   12.34s")
// and timings inside notes ("0.4s", "in 0.05s").
var proveTiming = regexp.MustCompile(`[ ]*\b\d+\.\d+s\b`)

// maskProveText hides what changes from run to run in `prove` text output: every
// timing, with its padding (a claim that takes 10s or more is one column wider). The
// notes are unwrapped first (a continuation line is indented by four spaces), since a
// wider timing moves where a note wraps; TestProveQuickGolden checks the wrapping.
func maskProveText(s string) string {
	return proveTiming.ReplaceAllString(strings.ReplaceAll(s, "\n    ", " "), " #.##s")
}

// maskProveJSON hides the version, every "seconds" value and figure keyed by seconds,
// and timings inside notes.
func maskProveJSON(t *testing.T, data []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("prove --json is not JSON: %v", err)
	}
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case map[string]any:
			for k, e := range y {
				switch {
				case k == "version":
					y[k] = "#"
				case strings.Contains(k, "seconds"):
					y[k] = 0
				case k == "note" || k == "error":
					if s, ok := e.(string); ok {
						y[k] = maskProveText(s)
					}
				default:
					walk(e)
				}
			}
		case []any:
			for _, e := range y {
				walk(e)
			}
		}
	}
	walk(v)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out) + "\n"
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/wormcheck -run TestProveQuickGolden -update)", err)
	}
	if string(want) != got {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the output at line %d (rerun with -update and review the diff):\nwant: %.300s\ngot:  %.300s", p, i+1, w, g)
			}
		}
	}
}

// TestProveQuickGolden: `prove --quick` prints the transcripts in testdata/golden
// (timings and version masked), as text and as JSON, every claim at its expected
// verdict. Refresh with `go test ./cmd/wormcheck -run TestProveQuickGolden -update` and
// review the diff.
func TestProveQuickGolden(t *testing.T) {
	code, out, stderr := runCLI(t, "prove", "--quick", "--workers", "2")
	if code != exitHolds {
		t.Fatalf("prove --quick: exit %d\n%s\n%s", code, out, stderr)
	}
	golden(t, "prove-quick.txt", maskProveText(out))
	// The notes fit 80 columns (a single word longer than a line excepted).
	if _, notes, ok := strings.Cut(out, "\nNotes:\n"); !ok {
		t.Errorf("prove --quick prints no notes")
	} else {
		for _, l := range strings.Split(notes, "\n") {
			if len([]rune(l)) > 80 && len(strings.Fields(l)) > 1 {
				t.Errorf("a note line of %d columns: %q", len([]rune(l)), l)
			}
		}
	}
	code, out, stderr = runCLI(t, "prove", "--quick", "--json", "--workers", "2")
	if code != exitHolds {
		t.Fatalf("prove --quick --json: exit %d\n%s", code, stderr)
	}
	golden(t, "prove-quick.json", maskProveJSON(t, []byte(out)))
}

// rowWatcher is a stdout that cancels a context a moment after a table row for claim
// id has been written, so that the next claim is running when the signal arrives.
type rowWatcher struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	id     string
	cancel context.CancelFunc
	fired  bool
}

func (w *rowWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if !w.fired && strings.Contains(w.buf.String(), "\n"+w.id+" ") {
		w.fired = true
		time.AfterFunc(300*time.Millisecond, w.cancel)
	}
	return n, err
}

// TestProveInterrupted: a signal during prove (here the context main's
// signal.NotifyContext cancels) reports the running claim inconclusive with what it
// counted, the rest "not run", no conclusion in any note of theirs, and exit 3.
func TestProveInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &rowWatcher{id: "WH2", cancel: cancel}
	var errb bytes.Buffer
	code := run(ctx, &env{Stdout: w, Stderr: &errb}, []string{"prove", "--quick", "--only", "WH2,TM2,MN5", "--workers", "1"})
	out := w.buf.String()
	if code != exitInconclusive {
		t.Fatalf("exit %d, want 3\n%s%s", code, out, errb.String())
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && (f[0] == "WH2" || f[0] == "TM2" || f[0] == "MN5") {
			rows[f[0]] = l
		}
	}
	for id, want := range map[string]string{"WH2": " violated      ok", "TM2": " inconclusive  UNEXPECTED", "MN5": " not run "} {
		if !strings.Contains(rows[id], want) {
			t.Errorf("%s row %q does not contain %q", id, rows[id], want)
		}
	}
	if !strings.Contains(out, "TM2: interrupted") || strings.Contains(out, "TM2: mesh") || strings.Contains(out, "MN5:") {
		t.Errorf("notes draw conclusions from an interrupted run:\n%s", out)
	}
	if !strings.Contains(out, "interrupted: 2 of 3 claims run") {
		t.Errorf("no interruption summary:\n%s", out)
	}
}

// TestProveSIGTERM: SIGTERM (what Slurm and Kubernetes send) to a real prove process
// during TM2 ends it with exit 3, TM2 inconclusive with an "interrupted" note and the
// claim after it not run. The first claim's row on stdout says when TM2 has started.
func TestProveSIGTERM(t *testing.T) {
	cmd := wormcheckCmd(t.TempDir(), "prove", "--only", "WH2,TM2,MN5", "--workers", "1")
	var out bytes.Buffer
	w := &rowWatcher{id: "WH2", cancel: func() { _ = cmd.Process.Signal(syscall.SIGTERM) }}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	out.WriteString(w.buf.String())
	if code := exitCode(err); code != exitInconclusive {
		t.Fatalf("exit %d, want 3\n%s", code, out.String())
	}
	s := out.String()
	for _, want := range []string{" inconclusive  UNEXPECTED", "TM2: interrupted (terminated", " not run ", "interrupted: 2 of 3 claims run"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}
