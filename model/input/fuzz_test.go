package input

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
)

// FuzzRead: Read of any input under any cap gives the input without a leading
// byte-order mark when it fits, a TooLargeError naming the cap when it does not, and
// reads at most one piece past the cap; readAll agrees with io.ReadAll on every size.
func FuzzRead(f *testing.F) {
	f.Add([]byte("{}"), uint16(2))
	f.Add([]byte("\ufeff{}"), uint16(5))
	f.Add(bytes.Repeat([]byte("y"), 300), uint16(299))
	f.Add([]byte{}, uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		k := Kind{"trace file", int64(max)}
		src := &countingReader{r: bytes.NewReader(data)}
		got, err := Read(context.Background(), src, "in", k)
		if len(data) > int(max) {
			var tl *TooLargeError
			if !errors.As(err, &tl) || tl.Kind.Max != int64(max) {
				t.Fatalf("%d bytes under a cap of %d: err %v, want a TooLargeError", len(data), max, err)
			}
		} else if err != nil || !bytes.Equal(got, bytes.TrimPrefix(data, bom)) {
			t.Fatalf("%d bytes under a cap of %d: %q, %v", len(data), max, got, err)
		}
		if src.n > int64(max)+1+chunk {
			t.Fatalf("read %d bytes for a cap of %d", src.n, max)
		}
		want, _ := io.ReadAll(io.LimitReader(bytes.NewReader(data), int64(max)+1))
		if got, err := readAll(bytes.NewReader(data), int64(max)+1); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("readAll: %d bytes, %v; io.ReadAll %d", len(got), err, len(want))
		}
	})
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
