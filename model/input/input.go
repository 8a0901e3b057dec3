// Package input reads the files a user hands wormcheck (topology and routing files,
// BookSim configurations, schedules, saved traces, result shards, checkpoints, fabric
// dumps), each bounded by a size cap of its kind and stoppable by a context, so that a
// huge or endless input ends in a one-line error within the command's budget instead of
// exhausting memory or waiting forever.
package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Kind is a kind of input file: its name as errors say it and the most bytes read of one.
type Kind struct {
	Name string
	Max  int64
}

// The kinds of input, with caps well above any file wormcheck writes of the kind (a
// trace of the largest search it can hold, a schedule of MaxScheduleUnicasts) and far
// below what would strain the machine.
var (
	Topology   = Kind{"topology file", 8 << 20}
	Routing    = Kind{"routing file", 8 << 20}
	BookSim    = Kind{"BookSim configuration", 1 << 20}
	Schedule   = Kind{"schedule file", 512 << 20}
	Trace      = Kind{"trace file", 256 << 20}
	Saved      = Kind{"trace or schedule file", 512 << 20} // render and explore read either
	Result     = Kind{"result file", 256 << 20}
	Checkpoint = Kind{"checkpoint", 1 << 30}
	Fabric     = Kind{"fabric file", 256 << 20}
)

// Within returns k with its cap lowered to a quarter of a memory budget of maxBytes
// (none for maxBytes <= 0): the bytes read, their one copy into a slice of the exact
// size when the input's size was not known in advance, and what is parsed from them
// must all fit.
func (k Kind) Within(maxBytes int64) Kind {
	if maxBytes > 0 && maxBytes/4 < k.Max {
		k.Max = maxBytes / 4
	}
	return k
}

// TooLargeError is the error of a read that passed its kind's cap.
type TooLargeError struct {
	Kind Kind
	Name string
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s %s: more than %s; wormcheck reads at most %s of a %s", e.Kind.Name, e.Name, Size(e.Kind.Max), Size(e.Kind.Max), e.Kind.Name)
}

// ReadFile reads the file at path whole, at most k.Max bytes, without a leading UTF-8
// byte-order mark (editors on Windows write one; no format wormcheck reads gives it a
// meaning). The read stops with ctx (a FIFO that never ends or has no writer, a stalled
// device): the error then carries ctx's cause. Errors are one line naming the file.
func ReadFile(ctx context.Context, path string, k Kind) ([]byte, error) {
	return read(ctx, path, k, func() (io.ReadCloser, error) { return os.Open(path) })
}

// Reader returns ReadFile bound to ctx and kind k, for parsers that take a read function
// (routing.Resolve).
func Reader(ctx context.Context, k Kind) func(path string) ([]byte, error) {
	return func(path string) ([]byte, error) { return ReadFile(ctx, path, k) }
}

// TrimBOM returns data without a leading UTF-8 byte-order mark, for parsers handed bytes
// that did not come through ReadFile.
func TrimBOM(data []byte) []byte { return bytes.TrimPrefix(data, bom) }

// Read reads r whole, at most k.Max bytes, under ctx as ReadFile does; name is how
// errors call it ("standard input").
func Read(ctx context.Context, r io.Reader, name string, k Kind) ([]byte, error) {
	return read(ctx, name, k, func() (io.ReadCloser, error) { return io.NopCloser(r), nil })
}

// read opens and reads on a goroutine of its own so that the caller returns when ctx
// ends even while open or read blocks; closing the file wakes a read the runtime polls
// (pipes, FIFOs), and a read that cannot be woken is left to the process's exit.
func read(ctx context.Context, name string, k Kind, open func() (io.ReadCloser, error)) ([]byte, error) {
	if err := context.Cause(ctx); err != nil {
		return nil, fmt.Errorf("%s %s: not read: %v", k.Name, name, err)
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	opened := make(chan io.Closer, 1)
	go func() {
		f, err := open()
		if err != nil {
			done <- result{err: err}
			return
		}
		opened <- f
		data, err := readAll(f, k.Max+1)
		f.Close()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return check(name, k, r.data, r.err)
	case <-ctx.Done():
		select {
		case f := <-opened:
			f.Close()
		default:
		}
		return nil, fmt.Errorf("%s %s: reading stopped: %v", k.Name, name, context.Cause(ctx))
	}
}

// chunk is the size of the pieces readAll reads an input of unknown size in.
const chunk = 1 << 20

// readAll reads r to its end or to max bytes. A regular file is read into one slice of
// its size; an input of unknown size (a pipe) in pieces that are joined once at the end,
// so that the memory held is at most twice what was read (a growing slice holds its old
// and new arrays at each growth, and the garbage of every earlier one until collected).
func readAll(r io.Reader, max int64) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() < max {
			buf := make([]byte, 0, st.Size()+1)
			for {
				n, err := f.Read(buf[len(buf):cap(buf)])
				buf = buf[:len(buf)+n]
				if err == io.EOF {
					return buf, nil
				}
				if err != nil {
					return buf, err
				}
				if len(buf) == cap(buf) { // the file grew while read: read the rest in pieces
					rest, err := readPieces(f, max-int64(len(buf)))
					return append(buf, rest...), err
				}
			}
		}
	}
	return readPieces(r, max)
}

// readPieces reads r to its end or to max bytes in pieces of chunk bytes, joined once.
func readPieces(r io.Reader, max int64) ([]byte, error) {
	var pieces [][]byte
	var total int64
	var err error
	for total < max && err == nil {
		p := make([]byte, min(chunk, max-total))
		var n int
		n, err = io.ReadFull(r, p)
		pieces = append(pieces, p[:n])
		total += int64(n)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	if len(pieces) == 1 {
		return pieces[0], err
	}
	return bytes.Join(pieces, nil), err
}

// bom is the UTF-8 encoding of U+FEFF, the byte-order mark.
var bom = []byte{0xef, 0xbb, 0xbf}

func check(name string, k Kind, data []byte, err error) ([]byte, error) {
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s %s: %v", k.Name, name, err)
	}
	if int64(len(data)) > k.Max {
		return nil, &TooLargeError{Kind: k, Name: name}
	}
	return bytes.TrimPrefix(data, bom), nil
}

// Size writes a byte count as people read it: "8 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}
