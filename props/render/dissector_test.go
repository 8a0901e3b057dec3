package render_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"

	"github.com/wormcheck/wormcheck/model/banyanwire"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// tshark runs tshark with the dissector on a capture and returns its verbose output; it
// skips the test when tshark is not installed.
func tshark(t *testing.T, capture []byte) string {
	t.Helper()
	return tsharkWith(t, render.Dissector(), capture)
}

// tsharkWith runs tshark with the dissector script and extra options on a capture and
// returns its verbose output, the Info column's summary lines included.
func tsharkWith(t *testing.T, script, capture []byte, opts ...string) string {
	t.Helper()
	bin, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed; the dissector test needs it (apt-get install tshark)")
	}
	dir := t.TempDir()
	lua, pcap := filepath.Join(dir, "wormcheck.lua"), filepath.Join(dir, "trace.pcap")
	if err := os.WriteFile(lua, script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pcap, capture, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-n", "-X", "lua_script:" + lua}, opts...)
	cmd := exec.Command(bin, append(args, "-r", pcap, "-V", "-P")...)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("tshark: %v\n%s", err, errb.String())
	}
	if strings.Contains(errb.String(), "Lua: Error") || strings.Contains(out.String(), "Lua Error") {
		t.Fatalf("the dissector failed:\n%s\n%s", errb.String(), out.String())
	}
	return out.String()
}

func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l) {
			t.Errorf("tshark output lacks %q", l)
		}
	}
	if t.Failed() {
		t.Logf("tshark output:\n%s", out)
	}
	for _, bad := range []string{"Malformed", "Expert Info (Error"} {
		if strings.Contains(out, bad) {
			t.Errorf("tshark reports %q:\n%s", bad, out)
		}
	}
}

// TestDissectorFlitTrace decodes the TM1 deadlock's capture: the message announcements
// and the first flit crossing, every field by name and value.
func TestDissectorFlitTrace(t *testing.T) {
	in, m, tr, _ := tm1(t)
	pc, err := render.Capture(&props.FlitEvidence{Model: m, Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	out := tshark(t, pc)
	g := in.Grid
	a, d1 := g.Node(0, 0), g.Node(0, 1)
	c, _ := g.Neighbor(a, 1, topology.Plus)
	wantLines(t, out,
		"wormcheck flit-level trace record",
		"Step: 0",
		"Crossing version: 1",
		"Next layer: network (3)",
		"Channel: 4294967295 (none: the network record)",
		"Network: "+g.Spec(),
		"Next layer: message (2)",
		"Reserved: 0",
		"Channel: 4294967295 (none: a message announcement)",
		"Message: 0",
		"Source node: "+itoa(int(a)),
		"Data flits: 1",
		"Destinations: 2",
		"Destination node: "+itoa(int(d1)),
		"Step: 1",
		"Next layer: flit (1)",
		"Channel: "+itoa(int(c)),
		"From node: "+itoa(int(a)),
		"To node: "+itoa(int(d1)),
		"Flit kind: address (1)",
		"Flags: 0x01",
		"1 = First (header): True",
		"Last (releases the channels): False",
		"Virtual channel: 0",
		"Word: "+itoa(int(d1)),
		"Flit kind: data (2)",
		"Data index: 0",
		"Data: 00",
	)
	// the network record, the two message announcements, a record per step
	if n := strings.Count(out, "wormcheck flit-level trace record"); n != 3+tr.Len() {
		t.Errorf("%d records decoded; want %d", n, 3+tr.Len())
	}
}

// TestDissectorBanyan decodes a banyan capture: a region header and its packet and
// channel.
func TestDissectorBanyan(t *testing.T) {
	var buf bytes.Buffer
	recs := []banyanwire.Record{
		{Cycle: 3, Packet: 5, Channel: 17, Header: banyanwire.RegionHeader{Stages: 4, Multicast: true, Min: 2, Max: 9}},
		{Cycle: 4, Packet: 6, Channel: 18, Header: banyanwire.RegionHeader{Stages: 4, Min: 7, Max: 7}},
	}
	if err := banyanwire.WriteCapture(&buf, recs); err != nil {
		t.Fatal(err)
	}
	out := tshark(t, buf.Bytes())
	wantLines(t, out,
		"wormcheck banyan record",
		"Cycle: 3",
		"0001 .... = Version: 1",
		"1 = Region (multicast): True",
		"Stages: 4",
		"Region min: 2",
		"Region max: 9",
		"Packet: 5",
		"Channel: 17",
		"Cycle: 4",
		"0 = Region (multicast): False",
		"Region min: 7",
	)
}

// TestDissectorSim decodes simulator flit moves.
func TestDissectorSim(t *testing.T) {
	var buf bytes.Buffer
	w := pcapgo.NewWriter(&buf)
	if err := w.WriteFileHeader(65535, flitwire.LinkTypeSimMoves); err != nil {
		t.Fatal(err)
	}
	rec := flitwire.AppendSimMove(nil, flitwire.SimMove{Flags: flitwire.SimTail | flitwire.SimDelivery, VC: 1, Cycle: 42, Channel: -1, Node: 6, Worm: 11, Msg: 3})
	if err := w.WritePacket(gopacket.CaptureInfo{Timestamp: time.Unix(1, 42000).UTC(), CaptureLength: len(rec), Length: len(rec)}, rec); err != nil {
		t.Fatal(err)
	}
	out := tshark(t, buf.Bytes())
	wantLines(t, out,
		"wormcheck simulator flit move",
		"Version: 1",
		"Flags: 0x06",
		"0 = Head flit: False",
		"1. = Tail flit: True",
		"1.. = Delivery: True",
		"Virtual channel: 1",
		"Reserved: 0",
		"Cycle: 42",
		"Channel: -1",
		"Node: 6",
		"Worm: 11",
		"Message or unicast: 3",
		"cycle 42 m3 worm 11 delivered at node 6",
	)
	wantLines(t, tsharkWith(t, render.Dissector(), buf.Bytes(), "-o", "wormcheck.topology:torus:4x4"), "Node: 6 (2,1)", "cycle 42 m3 worm 11 delivered at node (2,1)")
}

// TestDissectorCoordinates: with the capture's topology known (the wormcheck.topology
// preference, or a dissector written for it), the TM1 deadlock's capture (000 Fig. 3 on
// mesh:3x2) names nodes and channels as the text output does, and without it by number.
func TestDissectorCoordinates(t *testing.T) {
	in, m, tr, _ := tm1(t)
	pc, err := render.Capture(&props.FlitEvidence{Model: m, Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	g := in.Grid
	m0 := in.Msgs[0]
	name := func(v topology.NodeID) string { return itoa(int(v)) + " " + g.NodeName(v) }
	dests := make([]string, len(m0.Dests))
	for i, d := range m0.Dests {
		dests[i] = g.NodeName(d)
	}
	c, to := g.Neighbor(m0.Source, 1, topology.Plus)
	want := []string{
		"Source node: " + name(m0.Source),
		"Destination node: " + name(m0.Dests[0]),
		"From node: " + name(m0.Source),
		"m0 from " + g.NodeName(m0.Source) + " to " + strings.Join(dests, ",") + ", 1 data flits",
		"m0 address flit ch " + itoa(int(c)) + " " + g.NodeName(m0.Source) + "->" + g.NodeName(to) + " vc0",
		"(the ejection channel at ",
	}
	wantLines(t, tsharkWith(t, render.Dissector(), pc, "-o", "wormcheck.topology:"+g.Spec()), want...)
	lua, err := render.DissectorFor(g.Spec())
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, tsharkWith(t, lua, pc), want...)
	// The capture names its network: no option needed.
	wantLines(t, tshark(t, pc), append(want, "Network: "+g.Spec())...)
	// A capture without the network record (written before it existed) shows numbers.
	tr0, err := flitwire.ReadTrace(bytes.NewReader(pc))
	if err != nil {
		t.Fatal(err)
	}
	if tr0.Topology != g.Spec() {
		t.Fatalf("the capture names network %q; want %q", tr0.Topology, g.Spec())
	}
	tr0.Topology = ""
	var old bytes.Buffer
	if err := flitwire.WriteTrace(&old, tr0); err != nil {
		t.Fatal(err)
	}
	plain := tshark(t, old.Bytes())
	if strings.Contains(plain, g.NodeName(m0.Source)) || !strings.Contains(plain, "m0 from "+itoa(int(m0.Source))+" to ") {
		t.Errorf("without a topology the nodes must be numbers:\n%s", plain)
	}
	simCoordinates(t)
}

// simCoordinates: a simulator capture (sim --trace) names its network in its first
// record, so tshark names nodes by coordinates without an option; one without the
// record (written before it existed) still decodes, by number.
func simCoordinates(t *testing.T) {
	t.Helper()
	moves := []flitwire.SimMove{
		{Flags: flitwire.SimHead, Cycle: 3, Channel: 5, Node: 6, Worm: 1, Msg: 0},
		{Flags: flitwire.SimTail | flitwire.SimDelivery, VC: 1, Cycle: 42, Channel: -1, Node: 6, Worm: 1, Msg: 0},
	}
	pc, err := render.Capture(&props.MovesEvidence{Topology: "torus:4x4", Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, tshark(t, pc), "wormcheck simulator network", "Network: torus:4x4", "network torus:4x4",
		"Node: 6 (2,1)", "cycle 3 m0 worm 1 channel 5 at node (2,1)", "cycle 42 m0 worm 1 delivered at node (2,1)")
	old, err := render.Capture(&props.MovesEvidence{Moves: moves})
	if err != nil {
		t.Fatal(err)
	}
	plain := tshark(t, old)
	wantLines(t, plain, "cycle 42 m0 worm 1 delivered at node 6")
	if strings.Contains(plain, "(2,1)") || strings.Contains(plain, "Network") {
		t.Errorf("a capture without a network record named one:\n%s", plain)
	}
}
