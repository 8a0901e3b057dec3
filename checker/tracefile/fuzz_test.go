package tracefile

import (
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"format":"wormcheck-trace/1","algorithm":"unicast","topology":"torus:4","init":0,"actions":[1,2],"labels":["a","b"]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if tf.Format != Format || tf.Algorithm == "" || tf.Init < 0 {
			t.Fatalf("accepted invalid trace %+v", tf)
		}
	})
}
