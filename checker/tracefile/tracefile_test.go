package tracefile

import (
	"strings"
	"testing"
)

// TestParseRefusesDisagreeingFields: fields that state one thing twice must agree, and
// the error names them: labels one per action, a lasso's cycle start among the actions
// (a cycle start past the end was read as a lasso of no cycle).
func TestParseRefusesDisagreeingFields(t *testing.T) {
	head := `{"format":"wormcheck-trace/1","algorithm":"unicast","topology":"torus:4","property":"deadlock","semantics":"flit","parameters":{},"init":0,"violation":"x",`
	for _, c := range []struct{ file, names string }{
		{head + `"actions":[1,2],"labels":["a"]}`, "2 actions but 1 labels"},
		{head + `"actions":[1,2],"labels":["a","b"],"cycle_start":2}`, `"cycle_start" is 2, but "actions" has 2`},
		{head + `"actions":[1,2],"labels":["a","b"],"cycle_start":-1}`, `"cycle_start" is -1`},
	} {
		if _, err := Parse([]byte(c.file)); err == nil || !strings.Contains(err.Error(), c.names) {
			t.Errorf("%s: err = %v; want it to name %s", c.file, err, c.names)
		}
	}
	if _, err := Parse([]byte(head + `"actions":[1,2],"labels":["a","b"],"cycle_start":1}`)); err != nil {
		t.Errorf("a lasso whose cycle starts at its last action: %v", err)
	}
}
