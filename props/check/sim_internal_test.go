package check

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSimFieldsHaveFlags: every field the simulator's refusals name (a {Field} of a
// props.FieldErrorf in props/simulate) has the parameter that sets it in simFields, and
// that parameter is a flag of sim; else a command-line user would read a Go name.
func TestSimFieldsHaveFlags(t *testing.T) {
	files, err := filepath.Glob("../simulate/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("props/simulate's sources: %v", err)
	}
	params := []string{"topo", "faults", "booksim"} // the command's own flags (FlagTopology, FlagNetwork)
	for _, p := range simAlgorithm().Params {
		params = append(params, p.Name)
	}
	mark := regexp.MustCompile(`\{((?:[a-z]\w*\.)?[A-Z]\w*(?:\.[A-Z]\w*)*)\}`)
	literal := regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var marks [][]string
		for _, lit := range literal.FindAllString(string(src), -1) {
			marks = append(marks, mark.FindAllStringSubmatch(lit, -1)...)
		}
		for _, m := range marks {
			seen++
			if p, ok := simFields[m[1]]; !ok || !slices.Contains(params, p) {
				t.Errorf("%s names %s, which sets no flag of sim (simFields: %q)", filepath.Base(f), m[1], p)
			}
		}
	}
	if seen < 40 {
		t.Errorf("found %d fields named in the simulator's errors; expected its refusals (40 or more)", seen)
	}
}

// TestSimErrorsNameFlags: the refusals a Go caller of props/simulate reads in Go terms
// ("Options.Rate and Options.Load: give one of them") reach a user of sim in the flags
// they typed.
func TestSimErrorsNameFlags(t *testing.T) {
	for _, c := range []struct {
		params map[string]string
		want   string
	}{
		{map[string]string{"rate": "0.01", "load": "0.1"}, "--rate and --load: give one of them"},
		{map[string]string{"load": "0.1", "plot": "p.svg", "points": "1"}, "--points 1: want 2..100"},
		{map[string]string{"load": "0.1", "hot-node": "16", "traffic": "hotspot"}, "--hot-node 16: mesh:4x4 has 16 nodes"},
		{map[string]string{"load": "0.1", "selection": "hash"}, "--selection hash picks among a relation's outputs; give --routing"},
	} {
		_, err := Run(t.Context(), Instance{Algorithm: "sim", Topology: "mesh:4x4", Params: c.params}, "", Options{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %q", c.params, err, c.want)
		}
	}
}
