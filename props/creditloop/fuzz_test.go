package creditloop

import (
	"context"
	"encoding/json"
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
		if _, _, err := Replay(tf); err != nil && strings.ContainsAny(err.Error(), "\n") {
			t.Fatalf("error is not one line: %q", err)
		}
		in, err := ReadInstance(tf)
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
