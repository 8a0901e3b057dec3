package routing

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

func grid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestFileWestFirstMatchesBuiltin checks, differentially, that the routing file
// testdata/west-first.json (the turn rules written by hand) offers exactly the outputs
// of the built-in west-first relation for every header on two meshes.
func TestFileWestFirstMatchesBuiltin(t *testing.T) {
	data, err := os.ReadFile("testdata/west-first.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"mesh:4x4", "mesh:5x3"} {
		g := grid(t, spec)
		rel, err := ParseFile(data, g)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := ByName(g, "west-first")
		for at := topology.NodeID(0); int(at) < g.Nodes(); at++ {
			ins := []Input{{Channel: Injection}}
			for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
				if g.Channel(c).To == at {
					ins = append(ins, Input{Channel: c})
				}
			}
			for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
				if d == at {
					continue
				}
				for _, in := range ins {
					h := Header{At: at, In: in, Src: at, Dst: d}
					got, want := rel.Route(h, nil), ref.Route(h, nil)
					// The built-in ignores how the header arrived; the file forbids turns,
					// so compare only inputs west-first can deliver a header on.
					if in.Channel != Injection && g.Channel(in.Channel).Dir == topology.Minus && g.Channel(in.Channel).Dim == 0 {
						continue
					}
					if !sameOutputs(got, want) && !(len(want) == 1 && g.Channel(want[0].Channel).Dim == 0 && g.Channel(want[0].Channel).Dir == topology.Minus) {
						t.Fatalf("%s at %s from %v to %s: file %v, built-in %v", spec, g.NodeName(at), in, g.NodeName(d), got, want)
					}
				}
			}
		}
	}
}

func sameOutputs(a, b []Output) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFileErrors checks that bad routing files are refused with one line naming the
// field.
func TestFileErrors(t *testing.T) {
	g := grid(t, "mesh:3x3")
	for _, c := range []struct{ file, field string }{
		{`{`, "not JSON"},
		{`{"format": "wormcheck-routing/2", "name": "x", "rules": []}`, "format"},
		{`{"format": "wormcheck-routing/1", "name": "", "rules": []}`, "name"},
		{`{"format": "wormcheck-routing/1", "name": "x"}`, "rules"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": [{"forbid": ["north-west"]}]}`, "rules[0].forbid[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": [{"forbid": ["up->west"]}]}`, "rules[0].forbid[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": [{"nodes": {"column": "3"}, "forbid": []}]}`, "rules[0].nodes.column"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": [{"nodes": {"at": ["(9,9)"]}, "forbid": []}]}`, "rules[0].nodes.at[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "vcs": 99, "rules": []}`, "vcs"},
		{`{"format": "wormcheck-routing/1", "name": "x", "vcs": 2, "rules": [], "vc_rules": [{"vcs": [2]}]}`, "vc_rules[0].vcs[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": [], "escape_vcs": [1]}`, "escape_vcs[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "topology": "mesh:4x4", "rules": []}`, "topology"},
		{`{"format": "wormcheck-routing/1", "name": "x", "table": [{"router": "(0,0)", "out": ["west"]}]}`, "table[0].out[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "table": [{"router": "(0,0)", "out": ["east.vc1"]}]}`, "table[0].out[0]"},
		{`{"format": "wormcheck-routing/1", "name": "x", "table": [{"router": "(0,0)", "in": "east", "out": []}]}`, "table[0].in"},
		{`{"format": "wormcheck-routing/1", "name": "x", "table": [{"router": "(0,0)", "dst": "(0,0)", "out": []}]}`, "table[0].dst"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": [], "bogus": 1}`, "bogus"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": "no"}`, "rules"},
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": []} {}`, "after"},
	} {
		_, err := ParseFile([]byte(c.file), g)
		if err == nil {
			t.Errorf("accepted %s", c.file)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, c.field) {
			t.Errorf("%s: error %q does not name %q on one line", c.file, msg, c.field)
		}
	}
}

// TestFileEscapeAndTable checks the two less common parts: escape_vcs makes the
// relation Escaping, and a table's first matching row wins.
func TestFileEscapeAndTable(t *testing.T) {
	g := grid(t, "mesh:2x2")
	rel, err := ParseFile([]byte(`{"format": "wormcheck-routing/1", "name": "e", "vcs": 2, "escape_vcs": [0], "rules": [{"forbid": []}]}`), g)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := rel.(Escaping); !ok || !e.Escape(Header{}, Output{VC: 0}) || e.Escape(Header{}, Output{VC: 1}) {
		t.Fatalf("escape_vcs not honoured: %T", rel)
	}
	data, err := os.ReadFile("testdata/ring-table.json")
	if err != nil {
		t.Fatal(err)
	}
	rel, err = ParseFile(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	outs := rel.Route(Header{At: g.Node(1, 0), In: Input{Channel: Injection}, Dst: g.Node(0, 0)}, nil)
	if len(outs) != 1 || outs[0].Channel != g.ChannelOut(g.Node(1, 0), 1, topology.Plus) {
		t.Fatalf("table row not applied: %v", outs)
	}
}

// FuzzParseRouting feeds arbitrary bytes to the routing-file parser and routes every
// header of the relations it accepts: no input may panic, and every output must leave
// the router on a VC in range.
func FuzzParseRouting(f *testing.F) {
	for _, name := range []string{"two-turns.json", "west-first.json", "odd-even-turns.json", "ring-table.json", "strand.json"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format": "wormcheck-routing/1", "name": "v", "vcs": 2, "escape_vcs": [0], "rules": [{"nodes": {"row": "odd", "at": ["(1,1)"]}, "forbid": ["local->east"]}], "vc_rules": [{"in": "north", "in_vc": 1, "out": "*", "vcs": [1]}]}`))
	g := grid(f, "mesh:3x3")
	f.Fuzz(func(t *testing.T, data []byte) {
		rel, err := ParseFile(data, g)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for at := topology.NodeID(0); int(at) < g.Nodes(); at++ {
			for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
				if d == at {
					continue
				}
				for _, o := range rel.Route(Header{At: at, In: Input{Channel: Injection}, Src: at, Dst: d}, nil) {
					if g.Channel(o.Channel).From != at || o.VC < 0 || o.VC >= rel.VCs() {
						t.Fatalf("bad output %+v at %d", o, at)
					}
				}
			}
		}
	})
}

// TestFileEmptyRulesRoundTrip pins that a file with "rules": [] (every productive turn)
// survives the re-encoding a saved trace carries: before, omitempty dropped the list and
// replay refused the file it had just accepted.
func TestFileEmptyRulesRoundTrip(t *testing.T) {
	g := grid(t, "mesh:3x3")
	rel, err := ParseFile([]byte(`{"format": "wormcheck-routing/1", "name": "all-turns", "rules": []}`), g)
	if err != nil {
		t.Fatal(err)
	}
	src := rel.(*FileRelation).Source()
	if !strings.Contains(string(src), `"rules":[]`) {
		t.Fatalf("source %s lost its empty rules", src)
	}
	again, err := ParseFile(src, g)
	if err != nil {
		t.Fatalf("re-reading the saved source %s: %v", src, err)
	}
	h := Header{At: 0, Src: 0, Dst: 8, In: Input{Channel: Injection}}
	a, b := rel.Route(h, nil), again.Route(h, nil)
	if len(a) != 2 || len(a) != len(b) {
		t.Fatalf("outputs at (0,0) to (2,2): first %v, re-read %v; want both productive directions", a, b)
	}
}

// FuzzParseFileSizes reaches a routing file's size paths: a file of any number of turn
// rules, vc_rules and table rows (up to a few past each limit), any vcs, on meshes of up
// to 24x24 routers and of 65x65 to 80x80 (past the 4096 routers turn rules allow). ParseFile refuses exactly
// what passes a limit, in one line naming it, and accepts the rest with the VCs the
// file gives.
func FuzzParseFileSizes(f *testing.F) {
	f.Add(uint16(3), uint16(0), uint32(0), int64(2), uint8(4))
	f.Add(uint16(MaxFileRules+1), uint16(0), uint32(0), int64(1), uint8(3))
	f.Add(uint16(0), uint16(MaxFileRules+1), uint32(0), int64(2), uint8(3))
	f.Add(uint16(0), uint16(0), uint32(MaxTableRows+1), int64(1), uint8(2))
	f.Add(uint16(1), uint16(0), uint32(0), int64(MaxFileVCs+1), uint8(3))
	f.Add(uint16(1), uint16(0), uint32(0), int64(1), uint8(65))
	f.Fuzz(func(t *testing.T, rules, vcRules uint16, rows uint32, vcs int64, side uint8) {
		rules, vcRules = rules%(MaxFileRules+4), vcRules%(MaxFileRules+4)
		rows %= MaxTableRows + 4
		if rows > 0 {
			rules, vcRules = 0, 0 // a file has a table or rules, not both
		}
		// Up to 24x24, or past the 4096 routers turn rules allow (refused before the
		// lookahead, whose cost grows with the square of the routers, is computed).
		k := 2 + int(side)%23
		if side%2 == 1 {
			k = 65 + int(side)%16
		}
		g, err := topology.NewMesh(k, k)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, `{"format": "wormcheck-routing/1", "name": "sizes", "vcs": %d`, vcs)
		if rows > 0 {
			b.WriteString(`, "table": [`)
			for i := range rows {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"router": "(0,0)", "out": ["east"]}`)
			}
			b.WriteString(`]`)
		} else {
			b.WriteString(`, "rules": [`)
			for i := range rules {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"forbid": ["north->west"]}`)
			}
			b.WriteString(`], "vc_rules": [`)
			for i := range vcRules {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"in": "*", "out": "*", "vcs": [0]}`)
			}
			b.WriteString(`]`)
		}
		b.WriteString("}")
		rel, err := ParseFile([]byte(b.String()), g)
		over := vcs < 0 || vcs > MaxFileVCs || int(rules) > MaxFileRules || int(vcRules) > MaxFileRules || int(rows) > MaxTableRows ||
			(rows == 0 && g.Nodes() > maxLookaheadNodes)
		switch {
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Fatalf("error of several lines: %q", err)
		case over && err == nil:
			t.Fatalf("%d rules, %d vc_rules, %d rows, vcs %d on %s: accepted past a limit", rules, vcRules, rows, vcs, g.Spec())
		case !over && rows == 0 && err != nil:
			t.Fatalf("%d rules, %d vc_rules, vcs %d on %s: refused within the limits: %v", rules, vcRules, vcs, g.Spec(), err)
		case err == nil && rel.VCs() != max(int(vcs), 1): // 0 is the default, one VC
			t.Fatalf("vcs %d read as %d", vcs, rel.VCs())
		}
	})
}

// TestForbiddenTableTwin: the table of forbidden turns (computeForbidden) answers as
// scanning the rules does (allowedByRules) for every router, input and output, on the
// example files and on files of many overlapping rules with selectors, on a mesh, a
// torus and a hypercube.
func TestForbiddenTableTwin(t *testing.T) {
	var files [][]byte
	for _, name := range []string{"two-turns.json", "west-first.json", "odd-even-turns.json"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	files = append(files, []byte(`{"format": "wormcheck-routing/1", "name": "many", "rules": [
		{"forbid": ["north->west", "local->east"]},
		{"nodes": {"row": "odd"}, "forbid": ["south->east", "west->north"]},
		{"nodes": {"column": "even"}, "forbid": ["east->south"]},
		{"nodes": {"at": ["(1,1)", "(2,0)"]}, "forbid": ["local->north", "north->east"]}]}`))
	n, parsed := 0, 0
	for _, spec := range []string{"mesh:3x3", "mesh:4x4", "torus:5x3", "mesh:6x5"} {
		g := grid(t, spec)
		for _, data := range files {
			rel, err := ParseFile(data, g)
			if err != nil {
				t.Logf("%s: %v", spec, err)
				continue // a rule this network cannot take
			}
			parsed++
			fr, ok := rel.(*FileRelation)
			if e, isEsc := rel.(*escapingFile); isEsc {
				fr, ok = e.FileRelation, true
			}
			if !ok || fr.table != nil {
				continue
			}
			for v := topology.NodeID(0); int(v) < g.Nodes(); v++ {
				for in := dirLocal; in < fr.ports; in++ {
					for port := 0; port < fr.ports; port++ {
						n++
						if a, b := fr.allowed(v, in, port), fr.allowedByRules(v, in, port); a != b {
							t.Fatalf("%s at %s, %d->%d: table says %v, the rules %v", spec, g.NodeName(v), in, port, a, b)
						}
					}
				}
			}
		}
	}
	if parsed < 13 || n == 0 {
		t.Fatalf("%d files parsed, %d turns compared", parsed, n)
	}
}
