package inputtest

import (
	"bytes"
	"testing"
)

// TestLinearCatchesQuadratic: a parser that rescans its input from the start at each
// byte fails Linear, and one that scans it once passes.
func TestLinearCatchesQuadratic(t *testing.T) {
	gen := func(n int) []byte { return bytes.Repeat([]byte("\n"), n) }
	sink := 0
	linear := func(data []byte) { sink += bytes.Count(data, []byte("\n")) }
	Linear(t, 1<<20, gen, linear)
	quadratic := func(data []byte) {
		for i := 0; i < len(data); i += 8 {
			sink += bytes.IndexByte(data[:i], 'x')
		}
	}
	ft := &fakeT{TB: t}
	Linear(ft, 1<<12, gen, quadratic)
	if !ft.failed {
		t.Fatal("a quadratic parser passed Linear")
	}
}

type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Helper()               {}
