package props

import (
	"strings"
	"testing"
)

func FuzzParseTraceFile(f *testing.F) {
	f.Add([]byte(`{"format":"wormcheck-trace/1","algorithm":"unicast","topology":"torus:4","init":0,"actions":[1,2],"labels":["a","b"]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := ParseTraceFile(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if tf.Format != TraceFormat || tf.Algorithm == "" || tf.Init < 0 {
			t.Fatalf("accepted invalid trace %+v", tf)
		}
	})
}

func TestVerdictExitCodes(t *testing.T) {
	for v, want := range map[Verdict]int{Holds: 0, Violated: 1, Inconclusive: 3} {
		if v.ExitCode() != want {
			t.Errorf("%s exits %d, want %d", v, v.ExitCode(), want)
		}
	}
}
