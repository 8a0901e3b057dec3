package tracefile

import (
	"strings"
	"testing"
)

func TestWrongFile(t *testing.T) {
	for _, tc := range []struct {
		data, want, says string
	}{
		{`{"format":"wormcheck-trace/1","algorithm":"unicast"}`, "wormcheck-family/1", "this is a trace file (a saved counterexample); use replay"},
		{`{"format":"wormcheck-family/1"}`, Format, "this is a family result (check --family --result); use merge"},
		{`{"format":"wormcheck-schedule/1"}`, Format, "this is a schedule file; use verify"},
		{`{"schema":"wormcheck-report/1"}`, Format, "this is a report (check --json)"},
		{`{"format":"wormcheck-trace/1"}`, Format, ""},
		{`{"format":"other"}`, Format, ""},
		{`not json`, Format, ""},
	} {
		err := WrongFile([]byte(tc.data), tc.want)
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("%s wanted as %s: %v, want no objection", tc.data, tc.want, err)
		case tc.says != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.says)):
			t.Errorf("%s wanted as %s: %v, want %q", tc.data, tc.want, err, tc.says)
		}
	}
}
