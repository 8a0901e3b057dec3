package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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
// and inconclusive instances, and validates each object against the JSON Schema its tag
// names: every --json output must name a schema and version, and say nothing the schema
// does not document.
func TestJSONOutputsMatchTheirSchema(t *testing.T) {
	schemas := loadSchemas(t)
	dir := t.TempDir()
	trace, sched, shard := filepath.Join(dir, "t.json"), filepath.Join(dir, "s.json"), filepath.Join(dir, "r.json")
	wh2 := []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1"}
	for _, setup := range [][]string{
		append(wh2, "--trace", trace),
		{"schedule", "--algo", "dcf", "--topo", "torus:4x4", "-o", sched},
		append(append([]string{}, killFamily...), "--shard", "0/64", "--result", shard),
	} {
		if code, _, stderr := runCLI(t, setup...); code == exitUsage {
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
		{"partition", "--topo", "mesh:8x8", "--type", "IV", "--h", "2", "--json"},
		{"sim", "--topo", "mesh:4x4", "--cycles", "300", "--warmup", "100", "--json"},
		{"sim", "--topo", "torus:8x8", "--algo", "dcf", "--json"},
		{"sim", "--topo", "dragonfly:a=2,p=1,h=1", "--routing", "dragonfly-min-1vc", "--load", "0.9", "--cycles", "300", "--warmup", "0", "--json"},
		{"sim", "--topo", "mesh:4x4", "--cycles", "300", "--warmup", "100", "--time-limit", "1ns", "--json"},
		{"prove", "--quick", "--only", "WH2,NP7,DC5,HB3", "--json"},
		{"merge", shard, "--json"},
	}
	for _, c := range cases {
		code, out, stderr := runCLI(t, c...)
		if code == exitUsage || code == exitInternal {
			t.Errorf("%q: exit %d: %s", c, code, stderr)
			continue
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Errorf("%q: not one JSON object: %v", c, err)
			continue
		}
		m, _ := doc.(map[string]any)
		tag, _ := m["schema"].(string)
		if tag == "" {
			tag, _ = m["format"].(string)
		}
		s, ok := schemas[tag]
		if !ok {
			t.Errorf("%q: the object names no known schema (schema %v, format %v)", c, m["schema"], m["format"])
			continue
		}
		if v, _ := m["version"].(string); v == "" && tag != "wormcheck-family/1" {
			t.Errorf("%q: no version", c)
		}
		if err := s.Validate(doc); err != nil {
			t.Errorf("%q does not match %s:\n%v", c, tag, err)
		}
	}
}
