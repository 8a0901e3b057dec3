package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaDir holds the machine-readable JSON Schemas of every --json output (docs/report.md
// describes them for people).
const schemaDir = "../../docs/schema"

// loadSchemas compiles every schema of schemaDir and returns them by the tag a document
// names itself with ("schema", or "format" for the family file).
func loadSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", schemaDir, err)
	}
	c := jsonschema.NewCompiler()
	ids := map[string]string{} // tag -> $id
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m := doc.(map[string]any)
		id := m["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		props := m["properties"].(map[string]any)
		for _, field := range []string{"schema", "format"} {
			if p, ok := props[field].(map[string]any); ok {
				ids[p["const"].(string)] = id
			}
		}
	}
	out := map[string]*jsonschema.Schema{}
	for tag, id := range ids {
		s, err := c.Compile(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		out[tag] = s
	}
	return out
}

// TestJSONOutputsMatchTheirSchema runs every command that prints JSON, on holds, violated
// and inconclusive instances and in each of their shapes, and validates each object
// against the JSON Schema its tag names, as it validates the family result files that
// check --result and merge -o write: every --json output must name a schema and
// version, and say nothing the schema does not document. Each object is then spoiled
// one field at a time (a top-level field, or a field of an object under it, renamed as
// by a typo), and the schema must refuse every spoiled copy: the schemas are tight
// enough to catch a missing or misspelled field.
func TestJSONOutputsMatchTheirSchema(t *testing.T) {
	schemas := loadSchemas(t)
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	trace, sched, shard := path("t.json"), path("s.json"), path("r.json")
	wh2 := []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1"}
	partFamily := []string{"check", "--algo", "partition", "--prop", "connected", "--topo", "mesh", "--family", "sizes:2-4"}
	uniFamily := []string{"check", "--algo", "unicast", "--topo", "torus:4", "--dateline", "off", "--family", "all-placements:2"}
	fabricTrace := path("fabric.json")
	for _, setup := range [][]string{
		append(wh2, "--trace", trace),
		{"fabric", "--fabric", fx("ring.cables"), "--route", "minhop", "--trace", fabricTrace},
		{"schedule", "--algo", "dcf", "--topo", "torus:4x4", "-o", sched},
		append(append([]string{}, killFamily...), "--shard", "0/64", "--result", shard),
		append(append([]string{}, partFamily...), "--shard", "0/2", "--result", path("p0.json")),
		append(append([]string{}, partFamily...), "--shard", "1/2", "--result", path("p1.json")),
		append(append([]string{}, uniFamily...), "--shard", "0/2", "--result", path("u0.json")),
		append(append([]string{}, uniFamily...), "--shard", "1/2", "--result", path("u1.json")),
		{"merge", path("u0.json"), path("u1.json"), "-o", path("u.json")},
	} {
		if code, _, stderr := runCLI(t, setup...); code == exitUsage || code == exitInternal {
			t.Fatalf("%q: %s", setup, stderr)
		}
	}
	cases := [][]string{
		append(wh2, "--json"),
		{"check", "--algo", "unicast", "--topo", "mesh:3x3", "--prop", "deadlock", "--msgs", "0->8,8->0", "--json"},
		{"check", "--algo", "unicast", "--topo", "mesh:3x2", "--msgs", "0->2", "--routing", "nonminimal", "--prop", "liveness", "--json"},
		{"check", "--algo", "tree-mcast", "--topo", "mesh:3x3", "--prop", "deadlock", "--msgs", "(0,0)->(2,2),(0,2)", "--max-states", "10", "--json"},
		{"check", "--algo", "dcf", "--topo", "torus:4x4", "--prop", "depth", "--json"},
		{"check", "--algo", "edn", "--topo", "torus:8x8", "--prop", "depth", "--json"},
		{"check", "--algo", "banyan-route", "--topo", "banyan:8", "--pattern", "0->5,3->5", "--json"},
		{"check", "--algo", "banyan-route", "--topo", "banyan:4096", "--json"},
		{"replay", trace, "--json"},
		{"verify", sched, "--json"},
		{"routing", "--topo", "mesh:4x4", "--routing", "west-first", "--json"},
		{"routing", "--topo", "torus:8x8", "--routing", "duato", "--json"},
		{"partition", "--topo", "torus:8x8", "--type", "III", "--h", "4", "--json"},
		{"fabric", "--fabric", fx("ring.cables"), "--route", "minhop", "--json"},
		{"fabric", "--fabric", fx("ring.cables"), "--route", "minhop", "--faults", "S1/P3", "--json"},
		{"fabric", "--fabric", fx("ring-broken", "opensm-subnet.lst"), "--lft", fx("ring-broken", "opensm.fdbs"), "--json"},
		{"replay", fabricTrace, "--json"},
		{"partition", "--topo", "mesh:8x8", "--type", "IV", "--h", "2", "--json"},
		{"sim", "--topo", "mesh:4x4", "--cycles", "300", "--warmup", "100", "--json"},
		{"sim", "--topo", "torus:8x8", "--algo", "dcf", "--json"},
		{"sim", "--topo", "dragonfly:a=2,p=1,h=1", "--routing", "dragonfly-min-1vc", "--load", "0.9", "--cycles", "300", "--warmup", "0", "--json"},
		{"sim", "--topo", "mesh:4x4", "--cycles", "300", "--warmup", "100", "--time-limit", "1ns", "--json"},
		{"sim", "--topo", "mesh:4x4", "--cycles", "300", "--warmup", "100", "--points", "2", "--load", "0.1", "--plot", path("sweep.svg"), "--json"},
		{"sim", "--topo", "mesh:4x4", "--compare", "tree,pm", "--compare-dests", "2,4", "--ports", "one", "--length", "2", "--compare-loads", "0.01,0.05", "--cycles", "400", "--warmup", "100", "--plot", path("cmp.svg"), "--json"},
		{"sim", "--booksim", "testdata/booksim/anynet_config", "--json"},
		{"sim", "--booksim", "testdata/booksim/anynet_config", "--load", "0.3", "--points", "3", "--plot", path("bs.svg"), "--json"},
		{"prove", "--quick", "--only", "WH2,NP7,DC5,HB3", "--json"},
		{"merge", shard, "--json"},
		{"merge", path("u0.json"), path("u1.json"), "--json"},
		{"merge", path("p0.json"), path("p1.json"), "--json"},
	}
	validate := func(what string, data []byte) {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: not one JSON object: %v", what, err)
			return
		}
		m, _ := doc.(map[string]any)
		tag, _ := m["schema"].(string)
		if tag == "" {
			tag, _ = m["format"].(string)
		}
		s, ok := schemas[tag]
		if !ok {
			t.Errorf("%s: the object names no known schema (schema %v, format %v)", what, m["schema"], m["format"])
			return
		}
		if v, _ := m["version"].(string); v == "" && m["format"] == nil {
			t.Errorf("%s: no version", what)
		}
		if err := s.Validate(doc); err != nil {
			t.Errorf("%s does not match %s:\n%v", what, tag, err)
			return
		}
		for _, spoiled := range spoil(m) {
			if s.Validate(spoiled.doc) == nil {
				t.Errorf("%s: %s accepts the object with %s", what, tag, spoiled.what)
			}
		}
	}
	for _, c := range cases {
		code, out, stderr := runCLI(t, c...)
		if code == exitUsage || code == exitInternal {
			t.Errorf("%q: exit %d: %s", c, code, stderr)
			continue
		}
		validate(fmt.Sprintf("%q", c), []byte(out))
	}
	// A sim stopped before its run started (a signal or --time-limit while a schedule
	// is built) prints what cmd/wormcheck/sim.go writes then; no instance here is slow
	// enough to be stopped there on every machine, so the object is spelled out.
	validate("sim stopped before its run", []byte(`{"schema": "wormcheck-sim/1", "version": "0.1.0", "command": "sim", "semantics": "sim",
		"instance": {"topology": "torus:8x8", "algorithm": "dcf", "parameters": {}}, "verdict": "inconclusive",
		"reason": "interrupted before the run started; nothing was measured"}`))
	for _, f := range []string{shard, path("p0.json"), path("u0.json"), path("u.json")} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		validate("family result "+filepath.Base(f), data)
	}
}

// spoiledDoc is a JSON object with one field renamed, and which.
type spoiledDoc struct {
	what string
	doc  any
}

// openFields name the objects whose fields are free-form by design (an algorithm's own
// parameters, a routing file, figures named by the claim or algorithm, a witness's
// detail, the static analysis objects of routing): spoil renames no field inside them.
var openFields = map[string]bool{"parameters": true, "routing_file": true, "figures": true, "detail": true,
	"analysis": true, "decision": true, "schedule": true, "configuration": true}

// spoil returns copies of m with one field renamed (a trailing "_", as a typo would):
// every top-level field, and every field of an object directly under one that is not in
// openFields. A renamed field is both missing and unknown, so a schema that requires it
// or closes its object refuses the copy.
func spoil(m map[string]any) []spoiledDoc {
	var out []spoiledDoc
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		c := maps.Clone(m)
		c[k+"_"] = c[k]
		delete(c, k)
		out = append(out, spoiledDoc{fmt.Sprintf("field %q misspelled", k), c})
		inner, ok := m[k].(map[string]any)
		if !ok || openFields[k] {
			continue
		}
		for _, ik := range slices.Sorted(maps.Keys(inner)) {
			ic := maps.Clone(inner)
			ic[ik+"_"] = ic[ik]
			delete(ic, ik)
			c := maps.Clone(m)
			c[k] = ic
			out = append(out, spoiledDoc{fmt.Sprintf("field %q of %q misspelled", ik, k), c})
		}
	}
	return out
}
