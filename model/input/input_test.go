package input

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// endless is a reader that never ends, as /dev/zero or `yes` behind a pipe.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	e.read += int64(len(p))
	return len(p), nil
}

func TestReadStopsAtTheCap(t *testing.T) {
	k := Kind{"trace file", 1 << 20}
	src := &endless{}
	_, err := Read(context.Background(), src, "standard input", k)
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("an endless input: err = %v, want a TooLargeError", err)
	}
	if src.read > 2*k.Max {
		t.Errorf("read %d bytes of an endless input for a cap of %d", src.read, k.Max)
	}
	if want := "trace file standard input: more than 1 MiB; wormcheck reads at most 1 MiB of a trace file"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestReadFileWholeAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.json")
	if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(context.Background(), p, Trace)
	if err != nil || string(data) != "{}" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	_, err = ReadFile(context.Background(), filepath.Join(dir, "nope.json"), Trace)
	if err == nil || !strings.Contains(err.Error(), "no such file") || strings.Count(err.Error(), "nope.json") != 1 {
		t.Fatalf("missing file: %v (want one mention of the file and the reason)", err)
	}
	exact := Kind{"routing file", 2}
	if _, err := ReadFile(context.Background(), p, exact); err != nil {
		t.Fatalf("a file of exactly the cap is refused: %v", err)
	}
	exact.Max = 1
	if _, err := ReadFile(context.Background(), p, exact); err == nil {
		t.Fatal("a file one byte over the cap was read")
	}
}

// TestReadFileStopsWithContext pins that a FIFO nobody writes, and one written without
// end, stop a read when its context ends (the command's --time-limit) or at the cap.
func TestReadFileStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), 100*time.Millisecond, errors.New("the --time-limit of 100ms passed"))
	defer cancel()
	start := time.Now()
	_, err := ReadFile(ctx, fifo, Trace)
	if err == nil || !strings.Contains(err.Error(), "time-limit") {
		t.Fatalf("a FIFO without a writer: err = %v, want the time limit named", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the read took %v after its context ended", d)
	}

	// A writer that never stops: the cap ends the read.
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		buf := []byte(strings.Repeat("y", 1<<16))
		for {
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
	}()
	_, err = ReadFile(context.Background(), fifo, Kind{"trace file", 4 << 20})
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("an endless FIFO: err = %v, want a TooLargeError", err)
	}
}

func TestWithinAndSize(t *testing.T) {
	if got := Trace.Within(200 << 20).Max; got != 50<<20 {
		t.Errorf("Trace.Within(200 MiB).Max = %d, want 50 MiB", got)
	}
	if got := Topology.Within(0).Max; got != Topology.Max {
		t.Errorf("no budget changed the cap: %d", got)
	}
	for n, want := range map[int64]string{100: "100 bytes", 1536: "1.5 KiB", 8 << 20: "8 MiB", 1 << 30: "1 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReadAllMatchesIOReadAll: the pieces a pipe is read in join to what io.ReadAll reads,
// at sizes around the piece size and the cap, from a pipe and from a regular file.
func TestReadAllMatchesIOReadAll(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 2*chunk + 7} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 7)
		}
		for _, max := range []int64{int64(n) + 1, int64(n), int64(n/2) + 1} {
			want, _ := io.ReadAll(io.LimitReader(bytes.NewReader(data), max))
			got, err := readAll(bytes.NewReader(data), max)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("pipe of %d bytes, max %d: %d bytes, %v; want %d", n, max, len(got), err, len(want))
			}
			p := filepath.Join(dir, "f")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err = readAll(f, max)
			f.Close()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("file of %d bytes, max %d: %d bytes, %v; want %d", n, max, len(got), err, len(want))
			}
		}
	}
}
