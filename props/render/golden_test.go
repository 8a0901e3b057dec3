package render_test

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// golden compares got with testdata/name, rewriting it first under -update (the flag
// is registered by the package's internal tests). The picture must be well-formed XML.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(got))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", name, err)
		}
	}
	file := filepath.Join("testdata", name)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run go test ./props/render -update and review the diff", name)
	}
}
