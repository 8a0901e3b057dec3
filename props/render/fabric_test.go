package render

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props/creditloop"
)

// ringDeadlock is the minhop ring of cmd's fixtures with its deadlock replayed.
func ringDeadlock(t *testing.T) (*creditloop.Analysis, *vct.Model, checker.Trace[vct.State]) {
	t.Helper()
	rep, err := creditloop.Check(context.Background(), creditloop.Spec{
		Files: fabric.Files{Topology: filepath.Join("..", "..", "cmd", "wormcheck", "testdata", "fabric", "ring.cables")}, Route: "minhop"})
	if err != nil {
		t.Fatal(err)
	}
	_, r, err := creditloop.Replay(rep.Trace)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Analysis(), r.Model, r.Trace
}

func TestDrawFabric(t *testing.T) {
	a, m, tr := ringDeadlock(t)
	l := a.Loops[0]
	var cycle []fabric.Hop
	for _, id := range l.Decision.Cycle {
		cycle = append(cycle, a.Channels.Hop(id))
	}
	last := tr.Steps[len(tr.Steps)-1].State
	svg, err := DrawFabric(FabricPicture{Fabric: a.Fabric, Cycle: cycle, Model: m, State: &last, Title: "ring under minhop"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if n := strings.Count(s, `stroke="#d62728" stroke-width="2.5"`); n != 4 {
		t.Errorf("%d loop arrows; the cycle has 4 channels", n)
	}
	if n := strings.Count(s, "buffer "); n != 4 || !strings.Contains(s, ": 2 packets</title>") {
		t.Errorf("%d full buffers drawn; want 4 of 2 packets", n)
	}
	if n := strings.Count(s, "<rect x=") - 4; n != 4 {
		t.Errorf("%d switches drawn, want 4", n)
	}
	if !strings.HasPrefix(s, "<svg") || !strings.HasSuffix(s, "</svg>\n") {
		t.Errorf("not one SVG document")
	}
	// Deterministic: the same picture twice.
	again, _ := DrawFabric(FabricPicture{Fabric: a.Fabric, Cycle: cycle, Model: m, State: &last, Title: "ring under minhop"})
	if !bytes.Equal(svg, again) {
		t.Errorf("two drawings differ")
	}
}

// The capture is InfiniBand as Wireshark knows it: tshark decodes every record's Local
// Route Header with the packet's VL, SL and LIDs.
func TestFabricCapture(t *testing.T) {
	_, m, tr := ringDeadlock(t)
	pcap, err := FabricCapture(m, tr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark is not installed: the capture was written, not decoded")
	}
	path := filepath.Join(t.TempDir(), "ring.pcap")
	if err := os.WriteFile(path, pcap, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("tshark", "-o", FabricDissectorOption, "-r", path, "-T", "fields", "-e", "infiniband.lrh.vl", "-e", "infiniband.lrh.dlid", "-e", "infiniband.lrh.slid").Output()
	if err != nil {
		t.Fatalf("tshark: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != tr.Len() {
		t.Fatalf("tshark decodes %d records; the trace has %d steps:\n%s", len(lines), tr.Len(), out)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 || (f[0] != "0" && f[0] != "0x00") || f[1] == "0" || f[2] == "0" {
			t.Fatalf("record %q: want VL 0 and two LIDs", l)
		}
	}
}

// The explorer's scene of a fabric deadlock: every packet a message, one frame per
// state, and in the last frame every buffer of the cycle full and the wait-for cycle.
func TestFabricScene(t *testing.T) {
	_, m, tr := ringDeadlock(t)
	sc, err := FabricScene(m, tr, "deadlock", "ring", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Messages) != 8 || len(sc.Frames) != tr.Len()+1 {
		t.Fatalf("%d messages, %d frames; want 8 packets and %d frames", len(sc.Messages), len(sc.Frames), tr.Len()+1)
	}
	last := sc.Frames[len(sc.Frames)-1]
	if len(last.Holds) != 8 || len(last.Cycle) != 4 {
		t.Fatalf("last frame: %d packets held, a wait-for cycle of %d; want 8 and 4", len(last.Holds), len(last.Cycle))
	}
	for _, h := range last.Holds {
		if h.Channel < 0 || h.Channel >= len(sc.Grid.Channels) {
			t.Fatalf("hold on channel %d of %d", h.Channel, len(sc.Grid.Channels))
		}
	}
}
