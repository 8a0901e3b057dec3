package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/model/topology/topologytest"
)

const goodSchedule = `{"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[[0,0]],
 "unicasts":[{"from":[0,0],"to":[2,0],"step":1,"order":1},
             {"from":0,"to":[0,2],"step":1,"order":2,"path":[[0,0],[0,1],[0,2]]}]}`

func TestParseScheduleGood(t *testing.T) {
	s, err := ParseSchedule([]byte(goodSchedule))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := s.Grid()
	if len(s.Destinations) != 15 {
		t.Errorf("broadcast destinations = %d, want 15", len(s.Destinations))
	}
	if got := len(s.Unicasts[0].Path); got != 2 {
		t.Errorf("default path has %d hops, want 2", got)
	}
	if s.Unicasts[1].To != g.Node(0, 2) {
		t.Errorf("to = %s", g.NodeName(s.Unicasts[1].To))
	}
	// Round trip.
	out, err := MarshalSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := ParseSchedule(out)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out)
	}
	out2, _ := MarshalSchedule(s2)
	if !bytes.Equal(out, out2) {
		t.Errorf("marshal is not stable:\n%s\n%s", out, out2)
	}
}

func TestParseScheduleRefusals(t *testing.T) {
	head := `"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[[0,0]]`
	u := func(s string) string { return `{` + head + `,"unicasts":[` + s + `]}` }
	cases := []struct {
		name, file, want string
	}{
		{"not json", `{`, "not valid JSON"},
		{"trailing", `{` + head + `,"unicasts":[]} {}`, "data after"},
		{"format", `{"format":"x","topology":"torus:4x4","sources":[0],"unicasts":[]}`, `"format"`},
		{"topology", `{"format":"wormcheck-schedule/1","topology":"banyan:8","sources":[0],"unicasts":[]}`, `"topology"`},
		{"unknown field", `{` + head + `,"unicasts":[],"extra":1}`, "unknown field"},
		{"no sources", `{"format":"wormcheck-schedule/1","topology":"torus:4x4","unicasts":[]}`, `"sources"`},
		{"unknown node id", u(`{"from":0,"to":16,"step":1,"order":1}`), `unicasts[0].to`},
		{"unknown coord", u(`{"from":[0,0],"to":[4,0],"step":1,"order":1}`), `unicasts[0].to`},
		{"wrong arity", u(`{"from":[0,0,0],"to":[1,0],"step":1,"order":1}`), `unicasts[0].from`},
		{"step zero", u(`{"from":0,"to":1,"step":0,"order":1}`), `unicasts[0].step`},
		{"step too big", u(`{"from":0,"to":1,"step":70000,"order":1}`), `unicasts[0].step`},
		{"order", u(`{"from":0,"to":1,"step":1,"order":0}`), `unicasts[0].order`},
		{"self", u(`{"from":0,"to":0,"step":1,"order":1}`), `unicasts[0]`},
		{"non-DOR path", u(`{"from":[0,0],"to":[1,1],"step":1,"order":1,"path":[[0,0],[0,1],[1,1]]}`), `unicasts[0].path`},
		{"non-neighbour path", u(`{"from":[0,0],"to":[2,0],"step":1,"order":1,"path":[[0,0],[2,0]]}`), `unicasts[0].path`},
		{"empty path", u(`{"from":[0,0],"to":[2,0],"step":1,"order":1,"path":[]}`), `unicasts[0].path`},
		{"mixed groups", u(`{"from":0,"to":1,"step":1,"order":1,"group":0},{"from":0,"to":2,"step":1,"order":2}`), `unicasts[1].group`},
		{"group range", u(`{"from":0,"to":1,"step":1,"order":1,"group":3}`), `unicasts[0].group`},
		{"ports", `{` + head + `,"ports":"two-port","unicasts":[]}`, `"ports"`},
		{"routing", `{` + head + `,"routing":[0,0],"unicasts":[]}`, `"routing"`},
		{"destination in no group", `{"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[0,5],"destinations":[1,2,7],"group_destinations":[[1],[2]],` +
			`"unicasts":[{"from":0,"to":1,"step":1,"order":1,"group":0},{"from":5,"to":2,"step":1,"order":1,"group":1}]}`, `field "destinations": node (3,1) is a destination`},
		{"group destination not listed", `{"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[0,5],"destinations":[1],"group_destinations":[[1],[2]],` +
			`"unicasts":[{"from":0,"to":1,"step":1,"order":1,"group":0},{"from":5,"to":2,"step":1,"order":1,"group":1}]}`, `field "group_destinations": node (2,0)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSchedule([]byte(c.file))
			if err == nil {
				t.Fatalf("accepted")
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q does not name %q on one line", err, c.want)
			}
		})
	}
}

func TestParseScheduleRoutingOrder(t *testing.T) {
	// With routing [1,0] the path goes along dimension 1 first.
	f := `{"format":"wormcheck-schedule/1","topology":"mesh:3x3","routing":[1,0],"sources":[0],
	 "unicasts":[{"from":[0,0],"to":[1,1],"step":1,"order":1,"path":[[0,0],[0,1],[1,1]]}]}`
	if _, err := ParseSchedule([]byte(f)); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseSchedule(f *testing.F) {
	f.Add([]byte(goodSchedule))
	f.Add([]byte(tiesSchedule))
	f.Add([]byte(explicitSchedule))
	f.Add([]byte(`{"format":"wormcheck-schedule/1","topology":"torus:4x4","routing":[1,0],"ties":"either","sources":[0],"unicasts":[{"from":[0,0],"to":[2,2],"step":1,"order":1,"path":[[0,0],[0,3],[0,2],[1,2],[2,2]]}]}`))
	f.Add([]byte(`{"format":"wormcheck-schedule/1","topology":"hypercube:3","sources":[0],"unicasts":[{"from":0,"to":7,"step":1,"order":1}]}`))
	f.Add([]byte(`{"format":"wormcheck-schedule/1","topology":"mesh:2x3","ports":"one-port","sources":[0,1],"group_destinations":[[2],[3]],"unicasts":[{"from":0,"to":2,"step":1,"order":1,"group":0},{"from":1,"to":3,"step":1,"order":1,"group":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var head struct{ Topology string }
		if json.Unmarshal(data, &head) == nil && !topologytest.Small(head.Topology) {
			return // a valid network of up to a million nodes takes a second to build
		}
		s, err := ParseSchedule(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		out, err := MarshalSchedule(s)
		if err != nil {
			t.Fatalf("accepted schedule does not marshal: %v", err)
		}
		if _, err := ParseSchedule(out); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func ExampleParseSchedule() {
	s, err := ParseSchedule([]byte(`{"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[[0,0]],
	 "destinations":[[2,0],[2,1]],
	 "unicasts":[{"from":[0,0],"to":[2,0],"step":1,"order":1},{"from":[2,0],"to":[2,1],"step":2,"order":1}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range s.Unicasts {
		fmt.Println(s.Topology.NodeName(u.From), "->", s.Topology.NodeName(u.To), "step", u.Step, "hops", len(u.Path))
	}
	// Output:
	// (0,0) -> (2,0) step 1 hops 2
	// (2,0) -> (2,1) step 2 hops 1
}

// TestScheduleExamples parses the example files shipped for users in testdata/.
func TestScheduleExamples(t *testing.T) {
	for _, name := range []string{"stepwise-not-depth.json", "two-multicasts-one-port.json", "zblock-4x4-ties-either.json", "explicit-directed-ring.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSchedule(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(s.Unicasts) == 0 {
			t.Fatalf("%s: no unicasts", name)
		}
	}
}

// A 4x4 torus broadcast step where the unit at (2,2) is reached the Minus way in x
// (004 Fig. 6(b)): legal only with "ties": "either".
const tiesSchedule = `{"format":"wormcheck-schedule/1","topology":"torus:4x4","ties":"either","sources":[[0,0]],
 "destinations":[[2,0],[2,2]],
 "unicasts":[{"from":[0,0],"to":[2,0],"step":1,"order":1},
             {"from":[0,0],"to":[2,2],"step":1,"order":2,"path":[[0,0],[3,0],[2,0],[2,1],[2,2]]}]}`

// A Type IV-like route: from (0,0) to (3,0) the Plus way round (three hops), not minimal.
const explicitSchedule = `{"format":"wormcheck-schedule/1","topology":"torus:4x4","routing":"explicit","sources":[[0,0]],
 "destinations":[[3,0]],
 "unicasts":[{"from":[0,0],"to":[3,0],"step":1,"order":1,"path":[[0,0],[1,0],[2,0],[3,0]]}]}`

// TestParseScheduleTiesAndExplicit: the opt-in modes accept their paths, round-trip, and
// the strict default refuses the same paths.
func TestParseScheduleTiesAndExplicit(t *testing.T) {
	for _, c := range []struct {
		name, file string
		check      func(*Schedule) bool
	}{
		{"ties", tiesSchedule, func(s *Schedule) bool { return s.Ties == TiesEither && !s.Explicit && len(s.Unicasts[1].Path) == 4 }},
		{"explicit", explicitSchedule, func(s *Schedule) bool { return s.Explicit && s.Routing == nil && len(s.Unicasts[0].Path) == 3 }},
	} {
		s, err := ParseSchedule([]byte(c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !c.check(s) {
			t.Errorf("%s: parsed as %+v", c.name, s)
		}
		out, err := MarshalSchedule(s)
		if err != nil {
			t.Fatalf("%s: marshal: %v", c.name, err)
		}
		s2, err := ParseSchedule(out)
		if err != nil {
			t.Fatalf("%s: re-parse: %v\n%s", c.name, err, out)
		}
		if out2, _ := MarshalSchedule(s2); !bytes.Equal(out, out2) {
			t.Errorf("%s: marshal is not stable", c.name)
		}
		// The strict default refuses the same unicasts.
		strict := *s
		strict.Ties, strict.Explicit = TiesPlus, false
		if err := strict.Check(); err == nil || !strings.Contains(err.Error(), "path") {
			t.Errorf("%s: strict check says %v", c.name, err)
		}
	}
	// "ties": "either" still refuses a path that is not minimal, and explicit still
	// refuses a walk that reuses a channel.
	s, _ := ParseSchedule([]byte(explicitSchedule))
	s.Ties = TiesEither
	s.Explicit = false
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "unicasts[0].path") {
		t.Errorf("tie-aware check accepted a non-minimal path: %v", err)
	}
}

// TestScheduleCheckModeRefusals: Check refuses inconsistent mode fields.
func TestScheduleCheckModeRefusals(t *testing.T) {
	base, err := ParseSchedule([]byte(explicitSchedule))
	if err != nil {
		t.Fatal(err)
	}
	a := *base
	a.Routing = []int{0, 1}
	b := *base
	b.Ties = TiesEither
	c := *base
	c.Explicit, c.Ties = false, TieRule(7)
	for _, x := range []struct {
		s    Schedule
		want string
	}{{a, "routing:"}, {b, "ties:"}, {c, "ties: rule 7"}} {
		if err := x.s.Check(); err == nil || !strings.Contains(err.Error(), x.want) {
			t.Errorf("Check says %v, want %q", err, x.want)
		}
	}
}

func TestParseScheduleModeRefusals(t *testing.T) {
	head := `"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[[0,0]]`
	cases := []struct {
		name, file, want string
	}{
		{"routing name", `{` + head + `,"routing":"dor","unicasts":[]}`, `"routing"`},
		{"routing type", `{` + head + `,"routing":{"a":1},"unicasts":[]}`, `"routing"`},
		{"ties value", `{` + head + `,"ties":"minus","unicasts":[]}`, `"ties"`},
		{"ties with explicit", `{` + head + `,"routing":"explicit","ties":"either","unicasts":[]}`, `"ties"`},
		{"explicit without path", `{` + head + `,"routing":"explicit","unicasts":[{"from":0,"to":1,"step":1,"order":1}]}`, `unicasts[0].path`},
		{"explicit repeated channel", `{` + head + `,"routing":"explicit","unicasts":[{"from":[0,0],"to":[1,0],"step":1,"order":1,"path":[[0,0],[1,0],[0,0],[1,0]]}]}`, `unicasts[0].path`},
		{"ties not minimal", `{` + head + `,"ties":"either","unicasts":[{"from":[0,0],"to":[1,0],"step":1,"order":1,"path":[[0,0],[3,0],[2,0],[1,0]]}]}`, `unicasts[0].path`},
		{"ties not ordered", `{` + head + `,"ties":"either","unicasts":[{"from":[0,0],"to":[2,2],"step":1,"order":1,"path":[[0,0],[0,1],[0,2],[1,2],[2,2]]}]}`, `unicasts[0].path`},
		{"strict minus tie", `{` + head + `,"unicasts":[{"from":[0,0],"to":[2,0],"step":1,"order":1,"path":[[0,0],[3,0],[2,0]]}]}`, `unicasts[0].path`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSchedule([]byte(c.file))
			if err == nil {
				t.Fatalf("accepted")
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q does not name %q on one line", err, c.want)
			}
		})
	}
}

// marshalWhole is the naive twin of MarshalSchedule: one json.MarshalIndent of the whole
// file, as MarshalSchedule did before it encoded unicast by unicast.
func marshalWhole(s *Schedule) ([]byte, error) {
	f, unicast, err := scheduleFileOf(s)
	if err != nil {
		return nil, err
	}
	f.Unicasts = make([]unicastFile, len(s.Unicasts))
	for i := range s.Unicasts {
		f.Unicasts[i] = unicast(i)
	}
	return json.MarshalIndent(f, "", " ")
}

// TestMarshalScheduleTwin: MarshalSchedule's bytes are its naive twin's on the fuzz seeds
// (ties, explicit walks, routing order, hypercube, groups), on a schedule with no
// unicasts and on one with virtual channels; MarshalScheduleStop asks its stop function
// every marshalEvery unicasts and ends at the question that says yes.
func TestMarshalScheduleTwin(t *testing.T) {
	files := []string{goodSchedule, tiesSchedule, explicitSchedule,
		`{"format":"wormcheck-schedule/1","topology":"torus:4x4","routing":[1,0],"ties":"either","sources":[0],"unicasts":[{"from":[0,0],"to":[2,2],"step":1,"order":1,"path":[[0,0],[0,3],[0,2],[1,2],[2,2]]}]}`,
		`{"format":"wormcheck-schedule/1","topology":"hypercube:3","sources":[0],"unicasts":[{"from":0,"to":7,"step":1,"order":1}]}`,
		`{"format":"wormcheck-schedule/1","topology":"mesh:2x3","ports":"one-port","sources":[0,1],"group_destinations":[[2],[3]],"unicasts":[{"from":0,"to":2,"step":1,"order":1,"group":0},{"from":1,"to":3,"step":1,"order":1,"group":1}]}`,
	}
	var ss []*Schedule
	for _, file := range files {
		s, err := ParseSchedule([]byte(file))
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	empty := *ss[0]
	empty.Unicasts, empty.Destinations = nil, nil
	ss = append(ss, &empty)
	vc := *ss[0]
	vc.Unicasts = append([]Unicast(nil), vc.Unicasts...)
	vc.Unicasts[0].VC = make([]uint8, len(vc.Unicasts[0].Path))
	vc.Unicasts[0].VC[0] = 1
	ss = append(ss, &vc)
	// A separate-addressing broadcast on a 128x128 torus: 16383 unicasts, one per step.
	g, err := topology.NewTorus(128, 128)
	if err != nil {
		t.Fatal(err)
	}
	dor := topology.NewDOR(g)
	big := &Schedule{Topology: g, Sources: []topology.NodeID{0}, Ports: OnePort}
	for v := 1; v < g.Nodes(); v++ {
		big.Destinations = append(big.Destinations, topology.NodeID(v))
		big.Unicasts = append(big.Unicasts, Unicast{From: 0, To: topology.NodeID(v), Path: dor.Path(0, topology.NodeID(v)), Step: v, Order: v})
	}
	ss = append(ss, big)
	for i, s := range ss {
		got, err1 := MarshalSchedule(s)
		want, err2 := marshalWhole(s)
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("schedule %d: %v %v; got\n%.300s\nwant\n%.300s", i, err1, err2, got, want)
		}
	}
	asked := 0
	if b, err := MarshalScheduleStop(big, func() bool { asked++; return false }); err != nil || asked != 3 || len(b) == 0 {
		t.Errorf("never stopped: %v, asked %d times (want 3: at unicasts 4096, 8192 and 12288)", err, asked)
	}
	asked = 0
	if _, err := MarshalScheduleStop(big, func() bool { asked++; return asked == 2 }); err != ErrMarshalStopped || asked != 2 {
		t.Errorf("stop at the second question: %v, asked %d times", err, asked)
	}
}

// TestUnicastsFileBytes: the size UnicastsFileBytes gives without encoding is at least
// what the unicasts take in the file (MarshalSchedule grows its buffer to it once, and a
// budget check that trusts it must not be short) and, on large files, at most 1.5 times
// it, on meshes,
// tori of one- to four-digit ids, paths with VCs and groups, and hypercubes.
func TestUnicastsFileBytes(t *testing.T) {
	var ss []*Schedule
	for _, file := range []string{goodSchedule, tiesSchedule, explicitSchedule,
		`{"format":"wormcheck-schedule/1","topology":"hypercube:3","sources":[0],"unicasts":[{"from":0,"to":7,"step":1,"order":1}]}`,
		`{"format":"wormcheck-schedule/1","topology":"mesh:2x3","ports":"one-port","sources":[0,1],"group_destinations":[[2],[3]],"unicasts":[{"from":0,"to":2,"step":1,"order":1,"group":0},{"from":1,"to":3,"step":1,"order":1,"group":1}]}`,
	} {
		s, err := ParseSchedule([]byte(file))
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	for _, spec := range []string{"torus:64x64", "mesh:300x3", "hypercube:12", "torus:5x5x5"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		dor := topology.NewDOR(g)
		s := &Schedule{Topology: g, Sources: []topology.NodeID{0}, Ports: OnePort}
		for v := 1; v < g.Nodes(); v++ {
			s.Destinations = append(s.Destinations, topology.NodeID(v))
			p := dor.Path(0, topology.NodeID(v))
			u := Unicast{From: 0, To: topology.NodeID(v), Path: p, Step: v, Order: v}
			if v%2 == 1 {
				u.VC = make([]uint8, len(p))
			}
			s.Unicasts = append(s.Unicasts, u)
		}
		ss = append(ss, s)
	}
	for i, s := range ss {
		whole, err := MarshalSchedule(s)
		if err != nil {
			t.Fatal(err)
		}
		got, est := int64(len(whole)-bytes.Index(whole, []byte(`"unicasts": [`))), UnicastsFileBytes(s)
		if est < got || (len(s.Unicasts) > 100 && float64(est) > 1.5*float64(got)) {
			t.Errorf("schedule %d (%s, %d unicasts): estimated %d bytes, the file's unicasts take %d", i, s.Topology.(*topology.Network).Spec(), len(s.Unicasts), est, got)
		}
	}
}
