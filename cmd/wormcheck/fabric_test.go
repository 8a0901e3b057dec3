package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fx is a fabric fixture of testdata/fabric: ring.cables (four switches in a ring, a
// host each), and OpenSM's dumps of the same ring under minhop (ring-minhop), under LASH
// with QoS, its SL2VL tables and saquery's path records (ring-lash), and minhop's tables
// broken by hand (ring-broken: a LID sent to port 0, one to an unlinked port, one round
// a forwarding loop).
func fx(parts ...string) string {
	return filepath.Join(append([]string{"testdata", "fabric"}, parts...)...)
}

func TestFabricCommand(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "loop.json")
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--fabric", fx("ring.cables"), "--route", "minhop", "--trace", trace}, exitViolated,
			[]string{"credit loop 1: 4 channels", `switch 0x0000000000200000 "S1" port`, "VIOLATED", "deadlock: 8 packets, 4 full buffers", "minimal"}},
		{[]string{"--fabric", fx("ring.cables"), "--route", "minhop", "--buffer", "2048"}, exitViolated,
			[]string{"= 1 packets", "deadlock: 4 packets, 4 full buffers"}},
		{[]string{"--fabric", fx("ring.cables"), "--route", "updn", "--roots", "S1"}, exitHolds,
			[]string{"0 credit loops", "HOLDS", "no credit loop"}},
		{[]string{"--fabric", fx("ring-minhop", "opensm-subnet.lst"), "--lft", fx("ring-minhop", "opensm-lfts.dump")}, exitViolated,
			[]string{"routed by the dumped tables", "12 traced, 12 delivered", "VIOLATED"}},
		// LASH: without its SLs the ring's tables loop on VL 0 (what ibdmchk reports);
		// with the path SLs and SL2VL tables the graph has no loop.
		{[]string{"--fabric", fx("ring-lash", "opensm-subnet.lst"), "--lft", fx("ring-lash", "opensm.fdbs")}, exitViolated,
			[]string{"dependencies, 1 credit loop\n", "VIOLATED"}},
		{[]string{"--fabric", fx("ring-lash", "opensm-subnet.lst"), "--lft", fx("ring-lash", "opensm.fdbs"),
			"--sl2vl", fx("ring-lash", "opensm-sl2vl.dump"), "--path-sl", fx("ring-lash", "path-sl.txt")}, exitHolds,
			[]string{"0 credit loops", "HOLDS"}},
		{[]string{"--fabric", fx("ring-broken", "opensm-subnet.lst"), "--lft", fx("ring-broken", "opensm.fdbs")}, exitViolated,
			[]string{"lost routes: 4 (down port 1, loop 2, port 0 1)", `port 0 at switch "RD2"`, `down port at switch "RD3" (0x0000000000200002) port 9`, `loop at switch "RD1"`, "2 full buffers"}},
		// A failed link: re-routed, the ring is a line and its loop is gone; with the same
		// tables, the routes through the link are lost and its loop goes with them.
		{[]string{"--fabric", fx("ring.cables"), "--route", "minhop", "--faults", "S1/P3"}, exitHolds,
			[]string{"failed links: S1/P3", "12 traced, 12 delivered", "with the failed links: lost routes 0 -> 0, credit loops 1 -> 0"}},
		{[]string{"--fabric", fx("ring-minhop", "opensm-subnet.lst"), "--lft", fx("ring-minhop", "opensm.fdbs"), "--faults", "RD1/3"}, exitHolds,
			[]string{"lost routes: 4 (down port 4)", "with the failed links: lost routes 0 -> 4, credit loops 1 -> 0", "4 of 12 routes are lost"}},
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(t, append([]string{"fabric"}, c.args...)...)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d\n%s%s", c.args, code, c.code, stdout, stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%q: output lacks %q:\n%s", c.args, w, stdout)
			}
		}
	}
	// The saved deadlock replays against the tables it carries.
	code, stdout, stderr := runCLI(t, "replay", trace)
	if code != exitViolated || !strings.Contains(stdout, "deadlock: 8 packets stand still forever") {
		t.Fatalf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
	// --json is the report with the fabric's own object.
	code, stdout, _ = runCLI(t, "fabric", "--fabric", fx("ring.cables"), "--route", "minhop", "--json")
	var rep struct {
		Semantics string
		Verdict   string
		Witness   struct{ Steps []struct{ What string } }
		Fabric    struct {
			Loops []struct {
				Verdict string
				Cycle   []struct{ Desc string }
				Packets int
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitViolated {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, stdout)
	}
	if rep.Semantics != "vct" || rep.Verdict != "violated" || len(rep.Fabric.Loops) != 1 || rep.Fabric.Loops[0].Packets != 8 ||
		len(rep.Fabric.Loops[0].Cycle) != 4 || len(rep.Witness.Steps) == 0 || rep.Witness.Steps[0].What != "inject" {
		t.Fatalf("--json: %+v", rep)
	}
}

// Bad input is one line, exit 2, naming what is wrong.
func TestFabricBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "--fabric is missing"},
		{[]string{"--fabric", fx("nosuch.lst")}, "no such file"},
		{[]string{"--fabric", fx("ring.cables")}, "without forwarding tables"},
		{[]string{"--fabric", fx("ring-minhop", "opensm-subnet.lst"), "--lft", fx("ring-minhop", "opensm.fdbs"), "--route", "minhop"}, "exclude each other"},
		{[]string{"--fabric", fx("ring.cables"), "--route", "updn"}, "--route updn needs --roots"},
		{[]string{"--fabric", fx("ring.cables"), "--route", "updn", "--roots", "H1"}, "is not a switch"},
		{[]string{"--fabric", fx("ring.cables"), "--route", "lash"}, "--route \"lash\""},
		{[]string{"--fabric", fx("ring.cables"), "--route", "minhop", "--faults", "S9/P1"}, "no node is called \"S9\""},
		{[]string{"--fabric", fx("ring.cables"), "--route", "minhop", "--mtu", "1000"}, "--mtu 1000"},
		{[]string{"--fabric", fx("ring.cables"), "--route", "minhop", "--buffer", "1024"}, "--buffer 1024"},
		{[]string{"--fabric", fx("ring-minhop", "opensm-subnet.lst"), "--lft", fx("ring.cables")}, "ring.cables:2: line"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"fabric"}, c.args...)...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}

// The fabric's evidence is drawn by cmd: --svg draws the ring with its loop and the
// deadlock's full buffers, --pcap writes the run as InfiniBand packets, and the saved
// trace draws (render) and steps (the explorer's scene) as the same deadlock; a fabric
// without a deadlock draws without full buffers and has no capture.
func TestFabricPictures(t *testing.T) {
	dir := t.TempDir()
	svg, pcap, trace := filepath.Join(dir, "ring.svg"), filepath.Join(dir, "ring.pcap"), filepath.Join(dir, "ring.json")
	code, stdout, stderr := runCLI(t, "fabric", "--fabric", fx("ring.cables"), "--route", "minhop", "--svg", svg, "--pcap", pcap, "--trace", trace)
	if code != exitViolated {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	pic, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pic), "<title>buffer "); n != 4 || !strings.Contains(string(pic), "red arrows: the credit loop&#39;s 4 channels") {
		t.Errorf("--svg: %d full buffers drawn, want the loop's 4:\n%s", n, pic)
	}
	capture, err := os.ReadFile(pcap)
	if err != nil || len(capture) < 24 || !bytes.Equal(capture[:4], []byte{0xd4, 0xc3, 0xb2, 0xa1}) {
		t.Fatalf("--pcap: %v, %d bytes, not a pcap file", err, len(capture))
	}
	code, stdout, stderr = runCLI(t, "render", trace, "-o", filepath.Join(dir, "replayed.svg"))
	again, err := os.ReadFile(filepath.Join(dir, "replayed.svg"))
	if code != 0 || err != nil || strings.Count(string(again), "<title>buffer ") != 4 {
		t.Fatalf("render of the saved trace: exit %d, %v\n%s%s", code, err, stdout, stderr)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := exploreScene(context.Background(), data, "ring.json")
	if err != nil {
		t.Fatal(err)
	}
	if last := sc.Frames[len(sc.Frames)-1]; len(sc.Messages) != 8 || len(last.Cycle) != 4 {
		t.Fatalf("explorer scene: %d packets, last frame's wait-for cycle %d; want 8 and 4", len(sc.Messages), len(last.Cycle))
	}
	free := filepath.Join(dir, "free.svg")
	code, stdout, stderr = runCLI(t, "fabric", "--fabric", fx("ring.cables"), "--route", "updn", "--roots", "S1", "--svg", free, "--pcap", filepath.Join(dir, "free.pcap"))
	pic, err = os.ReadFile(free)
	if code != exitHolds || err != nil || strings.Contains(string(pic), "<title>buffer ") || !strings.Contains(stderr, "no pcap capture to write") {
		t.Fatalf("updn: exit %d, %v, picture with full buffers or a capture\n%s%s", code, err, stdout, stderr)
	}
}
