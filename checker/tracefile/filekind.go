package tracefile

import (
	"encoding/json"
	"fmt"
	"strings"
)

// wormcheck's file formats, by the tag in their "format" (or, for reports, "schema")
// field, with what each is and the command that reads it.
var fileKinds = []struct{ prefix, what, use string }{
	{"wormcheck-trace/", "a trace file (a saved counterexample)", "use replay or render"},
	{"wormcheck-family/", "a family result (check --family --result)", "use merge, or check --family ... --resume"},
	{"wormcheck-schedule/", "a schedule file", "use verify"},
	{"wormcheck-report/", "a report (check --json)", "its witness trace is saved with check --trace"},
	{"wormcheck-witness/", "a witness without a trace (a blocking pattern, an unreachable pair; prove --witness-dir)", "its picture is the .svg beside it"},
}

// WitnessFormat tags a witness without a trace, as prove --witness-dir writes it
// (ID.witness.json): {"format": WitnessFormat, "witness": ...}.
const WitnessFormat = "wormcheck-witness/1"

// WrongFile explains a file handed to a command that wants another of wormcheck's
// formats: "this is a family result (...); use merge". It returns nil when data is not
// recognisably one of wormcheck's files, or is of the wanted kind (want is a format tag
// such as Format), so that the reader's own error stands.
func WrongFile(data []byte, want string) error {
	var head struct {
		Format string `json:"format"`
		Schema string `json:"schema"`
	}
	if json.Unmarshal(data, &head) != nil {
		return nil
	}
	tag := head.Format
	if tag == "" {
		tag = head.Schema
	}
	if tag == "" || tag == want {
		return nil
	}
	for _, k := range fileKinds {
		if strings.HasPrefix(tag, k.prefix) && !strings.HasPrefix(want, k.prefix) {
			return fmt.Errorf("this is %s; %s", k.what, k.use)
		}
	}
	return nil
}
