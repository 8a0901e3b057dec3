package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestExploreServesTrace saves a TM1 trace, serves it with `explore`, fetches the page
// and its scene over HTTP from 127.0.0.1, and stops the server by cancelling.
func TestExploreServesTrace(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "tm1.json")
	if code, _, stderr := runCLI(t, "check", "--algo", "tree-mcast", "--topo", "mesh:3x2", "--prop", "deadlock",
		"--pruning", "none", "--buffers", "1", "--msgs", fig3Msgs, "--trace", tr); code != exitViolated {
		t.Fatalf("check exit %d: %s", code, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int)
	go func() { done <- run(ctx, &env{Stdout: &out, Stderr: &errb}, []string{"explore", tr}) }()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for i := 0; i < 200 && url == ""; i++ {
		url = re.FindString(out.String())
		time.Sleep(20 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("no URL printed: %q %q", out.String(), errb.String())
	}
	get := func(p string) []byte {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", p, resp.Status)
		}
		return b
	}
	if page := get(""); !strings.Contains(string(page), "explorer.js") || strings.Contains(string(page), "http") && strings.Contains(string(page), "src=\"http") {
		t.Errorf("page %q is not the self-contained explorer", page)
	}
	var sc struct {
		Kind   string            `json:"kind"`
		Frames []json.RawMessage `json:"frames"`
	}
	if err := json.Unmarshal(get("scene.json"), &sc); err != nil || sc.Kind != "flit" || len(sc.Frames) != 11 {
		t.Fatalf("scene: %v, kind %q, %d frames; want flit with 11", err, sc.Kind, len(sc.Frames))
	}
	cancel()
	select {
	case code := <-done:
		if code != exitHolds {
			t.Errorf("explore exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("explore did not stop when cancelled")
	}
	if code, _, _ := runCLI(t, "explore", tr, "--addr", "0.0.0.0:0"); code != exitUsage {
		t.Errorf("a non-loopback address gave exit %d; want %d", code, exitUsage)
	}
}

// TestCheckExplore: check --explore serves the violation it just found.
func TestCheckExplore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, &env{Stdout: &out, Stderr: &errb}, []string{"check", "--algo", "tree-mcast", "--topo", "mesh:3x2", "--prop", "deadlock",
			"--pruning", "none", "--buffers", "1", "--msgs", fig3Msgs, "--explore"})
	}()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for i := 0; i < 500 && url == ""; i++ {
		url = re.FindString(out.String())
		time.Sleep(20 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("no URL printed: %q %q", out.String(), errb.String())
	}
	resp, err := http.Get(url + "scene.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"kind":"flit"`) || !strings.Contains(string(b), "held by m1") {
		t.Errorf("scene %.200s", b)
	}
	cancel()
	if code := <-done; code != exitViolated {
		t.Errorf("check --explore exit %d; want %d (the verdict)", code, exitViolated)
	}
}
