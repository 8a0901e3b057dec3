package creditloop

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/vct"
)

// A saved trace's instance is user input: whatever its parameters and actions, replay
// answers with an error or a verdict, never a panic, and an error is one line.
func FuzzReplay(f *testing.F) {
	rep, err := Check(context.Background(), Spec{Files: fabric.Files{Topology: filepath.Join("..", "..", "cmd", "wormcheck", "testdata", "fabric", "ring.cables")}, Route: "minhop"})
	if err != nil {
		f.Fatal(err)
	}
	acts, _ := json.Marshal(rep.Trace.Actions)
	f.Add([]byte(rep.Trace.Params), acts)
	f.Add([]byte(`{"fabric":"x","buffer_credits":32,"packet_credits":32,"nodes":[{"kind":"switch","guid":"0x1","desc":"s","ports":2,"lids":[[0,1]]}],"links":[],"lft":[],"flows":[]}`), []byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, params, actions []byte) {
		tf := &tracefile.File{Format: tracefile.Format, Algorithm: Algorithm, Topology: "t", Params: params}
		if json.Unmarshal(actions, &tf.Actions) != nil || len(tf.Actions) > 64 {
			return
		}
		in, err := ReadInstance(tf)
		if err == nil && replayWork(in, len(tf.Actions)) > maxReplayWork {
			return
		}
		if _, _, err := Replay(tf); err != nil && strings.ContainsAny(err.Error(), "\n") {
			t.Fatalf("error is not one line: %q", err)
		}
		if err != nil {
			return
		}
		if m, _, err := in.Build(); err == nil {
			var as []system.Action
			for _, a := range tf.Actions {
				as = append(as, system.Action(a))
			}
			checker.Replay[vct.State](m, 0, as)
		}
	})
}

// maxReplayWork bounds replayWork for one fuzz input: instances of a few switches,
// flows and credits (what a trace of a test fabric carries) replay in well under a
// millisecond, so the fuzzer tries thousands of inputs a second.
const maxReplayWork = 1 << 23

// replayWork estimates, in bytes written, what rebuilding in and replaying steps actions
// on it costs before anything is built: a SL2VL table of (ports+1)^2 x 16 lanes for each
// node the instance maps lanes on, a forwarding table up to the highest LID for each
// switch with entries, the nodes' ports, and per step a copy of the state (a word per
// flow and per credit of every channel) for every enabled action. Channels are at most
// the links' ends times the lanes (16, or one a flow). A fuzzed instance reaches the same code with small
// sizes; a large one only spends the worker's time (an SL2VL table on 200 nodes of 254
// ports is 200 MB).
func replayWork(in *Instance, steps int) int {
	work := 0
	for _, n := range in.Nodes {
		work += max(n.Ports, 0) + len(n.LIDs)
	}
	ports := func(i int) int {
		if i < 0 || i >= len(in.Nodes) {
			return 0
		}
		return max(in.Nodes[i].Ports, 0)
	}
	seen := map[int]bool{}
	for _, e := range in.SL2VL {
		if !seen[e[0]] {
			seen[e[0]] = true
			work += (ports(e[0]) + 1) * (ports(e[0]) + 1) * 16
		}
	}
	clear(seen)
	for _, e := range in.LFT {
		if !seen[e[0]] {
			seen[e[0]] = true
			work += 1 << 16 // a table reaches at most the highest LID
		}
	}
	flows := len(in.Flows)
	chans := 2 * len(in.Links) * min(flows, 16)
	k := 1
	if in.Packet > 0 {
		k = min(max(in.Buffer/in.Packet, 1), 255)
	}
	return work + 2*(steps+1)*(flows+chans)*(flows+chans*k)
}

// The fuzz bound keeps the trace of the test fabric (what the target was written for)
// and skips an instance whose rebuild alone allocates SL2VL tables of 200 MB.
func TestReplayWorkBounds(t *testing.T) {
	rep, err := Check(context.Background(), Spec{Files: fabric.Files{Topology: filepath.Join("..", "..", "cmd", "wormcheck", "testdata", "fabric", "ring.cables")}, Route: "minhop"})
	if err != nil {
		t.Fatal(err)
	}
	in, err := ReadInstance(rep.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if w := replayWork(in, len(rep.Trace.Actions)); w > maxReplayWork {
		t.Errorf("the ring's trace is estimated at %d > %d: the fuzz target would skip its own seed", w, maxReplayWork)
	}
	wide := &Instance{Buffer: 64, Packet: 32}
	for i := range 200 {
		wide.Nodes = append(wide.Nodes, InstNode{Kind: "switch", GUID: fmt.Sprintf("0x%x", i+1), Ports: 254})
		wide.SL2VL = append(wide.SL2VL, [5]int{i, 0, 1, 0, 1})
	}
	if w := replayWork(wide, 1); w <= maxReplayWork {
		t.Errorf("200 switches of 254 ports with SL2VL tables are estimated at %d <= %d", w, maxReplayWork)
	}
}
