package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/gopacket/pcapgo"

	"github.com/wormcheck/wormcheck/model/banyanwire"
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

// TestBanyanRoutePcap: banyan-route --pcap writes the blocking pattern's capture, a
// banyan capture (LINKTYPE_USER1) with one record per packet and link of the two packets'
// paths to the contested link, which tshark decodes with the dissector when installed.
// Reference: 002 Property 1.
func TestBanyanRoutePcap(t *testing.T) {
	dir := t.TempDir()
	pc := filepath.Join(dir, "b.pcap")
	if code, out, errOut := runCLI(t, "check", "--algo", "banyan-route", "--topo", "banyan:8", "--pattern", "0->5,3->5", "--pcap", pc); code != exitViolated {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	f, err := os.Open(pc)
	if err != nil {
		t.Fatalf("no capture written: %v", err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if r.LinkType() != banyanwire.LinkType {
		t.Errorf("link type %v; want %v (LINKTYPE_USER1)", r.LinkType(), banyanwire.LinkType)
	}
	n := 0
	for {
		if _, _, err := r.ReadPacketData(); err != nil {
			break
		}
		n++
	}
	// Two packets through the 3 stages of banyan:8 and out: 4 links each.
	if n != 8 {
		t.Errorf("%d records; want 8", n)
	}
	bin, err := exec.LookPath("tshark")
	if err != nil {
		t.Log("tshark is not installed; the capture is not decoded")
		return
	}
	lua := filepath.Join(dir, "wormcheck.lua")
	if code, _, errOut := runCLI(t, "dissector", "-o", lua); code != exitHolds {
		t.Fatal(errOut)
	}
	cmd := exec.Command(bin, "-n", "-X", "lua_script:"+lua, "-r", pc)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir)
	out, err := cmd.Output()
	if err != nil || strings.Count(string(out), "wormcheck-banyan") != n || !strings.Contains(string(out), "region [5,5] of 2^3") {
		t.Errorf("tshark: %v\n%s", err, out)
	}
}
