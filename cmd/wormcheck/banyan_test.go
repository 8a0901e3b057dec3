package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Reference: 002 Fig. 4 and Theorem 2 through the command line.
func TestTwoPhaseDeadlockAndReplay(t *testing.T) {
	dir := t.TempDir()
	tr, svg := filepath.Join(dir, "mn5.json"), filepath.Join(dir, "mn5.svg")
	code, out, errOut := runCLI(t, "check", "--algo", "two-phase", "--topo", "banyan:16", "--prop", "deadlock",
		"--msgs", "1->5,6,7,8;15->7-12", "--arbitration", "free", "--trace", tr, "--svg", svg)
	if code != exitViolated || !strings.Contains(out, "deadlock") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	pic, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(pic), "<svg") {
		t.Fatalf("svg: %v", err)
	}
	code, out, errOut = runCLI(t, "replay", tr)
	if code != exitViolated || !strings.Contains(out, "confirmed") {
		t.Fatalf("replay exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "check", "--algo", "two-phase", "--topo", "banyan:16", "--prop", "deadlock",
		"--msgs", "1->5,6,7,8;15->7-12", "--arbitration", "upper-first", "--json")
	var rep map[string]any
	if code != exitHolds || json.Unmarshal([]byte(out), &rep) != nil || rep["verdict"] != "holds" {
		t.Fatalf("upper-first: exit %d\n%s", code, out)
	}
}

func TestBanyanRoute(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--pattern", "0->5,3->5"}, exitViolated},
		{[]string{"--pattern", "0->0,1->1,2->2"}, exitHolds},
		{[]string{"--order", "descending", "--concentration", "cyclic"}, exitHolds},
		{[]string{"--concentration", "scattered"}, exitViolated},
		{[]string{"--family", "two-phase"}, exitHolds},
		{[]string{"--pattern", "0->9"}, exitUsage},
		{[]string{"--family", "nosuch"}, exitUsage},
	} {
		args := append([]string{"check", "--algo", "banyan-route", "--topo", "banyan:8"}, tc.args...)
		code, out, errOut := runCLI(t, args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", tc.args, code, tc.code, out, errOut)
		}
	}
}

func TestTwoPhaseBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--msgs", "1->99"},
		{"--msgs", ""},
		{"--msgs", "1->2", "--arbitration", "lower-first"},
		{"--msgs", "1->2", "--starts", "x"},
		{"--msgs", "1->2,3", "--starts", "7"},
	} {
		full := append([]string{"check", "--algo", "two-phase", "--topo", "banyan:8", "--prop", "deadlock"}, args...)
		code, _, errOut := runCLI(t, full...)
		if code != exitUsage || strings.Count(strings.TrimRight(errOut, "\n"), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, _, _ := runCLI(t, "check", "--algo", "two-phase", "--topo", "torus:4", "--prop", "deadlock", "--msgs", "1->2"); code != exitUsage {
		t.Errorf("torus accepted: exit %d", code)
	}
}
