package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/props/check"
)

// runCLI runs the command line in-process and returns exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), &env{Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestUsageErrorsExit2WithOneLine(t *testing.T) {
	cases := [][]string{
		{},
		{"nosuch"},
		{"check"},
		{"check", "--algo", "nosuch"},
		{"prove", "--only", "ZZ9"},
		{"prove", "--workers", "0"},
		{"replay"},
		{"replay", "/nonexistent/trace.json"},
		{"help", "nosuch"},
	}
	for _, args := range cases {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		if len(args) > 0 && strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
			t.Errorf("%q: stderr is not one line: %q", args, stderr)
		}
	}
}

func TestCorruptTraceExits2(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"garbage.json": "{not json",
		"format.json":  `{"format":"other","algorithm":"unicast","topology":"torus:4"}`,
		"algo.json":    `{"format":"` + tracefile.Format + `","algorithm":"nosuch","topology":"torus:4","actions":[]}`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, "replay", p)
		if code != exitUsage || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q", name, code, stderr)
		}
	}
}

func TestHelpTeachesEveryCommand(t *testing.T) {
	for name := range commands {
		code, out, _ := runCLI(t, "help", name)
		if code != 0 || !strings.Contains(out, "wormcheck "+name) {
			t.Errorf("help %s: exit %d, output %q", name, code, out)
		}
	}
}

// TestVerifyCatchesHandWrittenCollision runs `verify` on a hand-written schedule whose
// steps are arc-disjoint but whose unicasts of different steps collide in time.
// Reference: 004 §3 (stepwise vs depth contention freedom).
func TestVerifyCatchesHandWrittenCollision(t *testing.T) {
	code, out, stderr := runCLI(t, "verify", "../../model/testdata/stepwise-not-depth.json")
	if code != exitViolated {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "stepwise (step semantics): HOLDS") || !strings.Contains(out, "depth (timed semantics): VIOLATED") {
		t.Fatalf("verify output:\n%s", out)
	}
	svg := filepath.Join(t.TempDir(), "s.svg")
	if code, _, stderr := runCLI(t, "render", "../../model/testdata/stepwise-not-depth.json", "-o", svg); code != 0 {
		t.Fatalf("render exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.HasPrefix(string(b), "<svg") && !strings.HasPrefix(string(b), "<?xml") {
		t.Fatalf("render wrote %q (%v)", string(b[:min(len(b), 40)]), err)
	}
}

// TestRenderSavedTraces: a deadlock saved by check --trace replays (exit 1) and renders
// as SVG, for flit-level worms and for the banyan two-phase multicast.
func TestRenderSavedTraces(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1"},
		{"check", "--algo", "two-phase", "--topo", "banyan:16", "--prop", "deadlock", "--msgs", "1->5,6,7,8;15->7-12", "--arbitration", "free"},
	}
	for i, args := range cases {
		tr := filepath.Join(dir, fmt.Sprintf("t%d.json", i))
		if code, _, stderr := runCLI(t, append(args, "--trace", tr)...); code != exitViolated {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if code, _, stderr := runCLI(t, "replay", tr); code != exitViolated {
			t.Fatalf("replay %s: exit %d: %s", tr, code, stderr)
		}
		pic := filepath.Join(dir, fmt.Sprintf("t%d.svg", i))
		if code, _, stderr := runCLI(t, "render", tr, "-o", pic); code != 0 {
			t.Fatalf("render %s: exit %d: %s", tr, code, stderr)
		}
		if b, err := os.ReadFile(pic); err != nil || !strings.Contains(string(b), "<svg") {
			t.Fatalf("render %s wrote no SVG (%v)", tr, err)
		}
	}
}

// TestEveryAlgorithmHasHelp runs `check --algo A --help` for every algorithm of the
// registry: its parameters become flags beside the common ones, so a parameter named like
// a common flag (--seed, --topo) would make the flag set panic; this catches it.
func TestEveryAlgorithmHasHelp(t *testing.T) {
	for _, a := range check.Algorithms() {
		code, out, errs := runCLI(t, "check", "--algo", a.Name, "--help")
		if code != 0 || !strings.Contains(out, "wormcheck check --algo "+a.Name) {
			t.Errorf("check --algo %s --help: exit %d, stderr %q", a.Name, code, errs)
		}
		for _, p := range a.Params {
			if !strings.Contains(out, "-"+p.Name) {
				t.Errorf("check --algo %s --help does not list --%s", a.Name, p.Name)
			}
		}
	}
}
