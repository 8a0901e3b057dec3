package fabric

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MaxFileBytes bounds every file a reader accepts: an LFT dump of a 10,000-host fabric
// is about 200 MB; beyond 1 GiB a reader stops with an error instead of filling memory.
const MaxFileBytes = 1 << 30

// MaxLineBytes bounds one line of any file.
const MaxLineBytes = 64 << 10

// MaxNodes bounds the nodes of one fabric (a subnet has at most 48K unicast LIDs).
const MaxNodes = 1 << 16

// ParseError is bad input: the file, the line (1-based; 0 for the file as a whole), the
// field that is wrong and what is wrong with it, printed as one line.
type ParseError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": %s", e.Field)
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	return b.String()
}

// lines reads a file line by line within the bounds: each call of next returns the
// next line without its end, its 1-based number, and false at the end or on an error
// (err then says which).
type lines struct {
	name string
	sc   *bufio.Scanner
	cr   *countingReader
	n    int
	err  error
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n > MaxFileBytes {
		return 0, errTooLarge
	}
	k, err := c.r.Read(p)
	c.n += int64(k)
	if c.n > MaxFileBytes {
		return k, errTooLarge
	}
	return k, err
}

var errTooLarge = errors.New("too large")

func newLines(name string, r io.Reader) *lines {
	cr := &countingReader{r: r}
	sc := bufio.NewScanner(cr)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	return &lines{name: name, sc: sc, cr: cr}
}

func (l *lines) next() (string, bool) {
	if l.err != nil {
		return "", false
	}
	if !l.sc.Scan() {
		switch err := l.sc.Err(); {
		case errors.Is(err, errTooLarge):
			l.err = &ParseError{File: l.name, Msg: fmt.Sprintf("more than %d bytes; wormcheck reads at most that much", MaxFileBytes)}
		case errors.Is(err, bufio.ErrTooLong):
			l.err = &ParseError{File: l.name, Line: l.n + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		case err != nil:
			l.err = &ParseError{File: l.name, Line: l.n + 1, Msg: err.Error()}
		}
		return "", false
	}
	l.n++
	s := l.sc.Text()
	if l.n == 1 {
		s = strings.TrimPrefix(s, "\ufeff")
	}
	return strings.TrimRight(s, "\r"), true
}

// errorf returns a ParseError at the current line.
func (l *lines) errorf(field, format string, args ...any) error {
	return &ParseError{File: l.name, Line: l.n, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// open opens path for a reader, bounded by MaxFileBytes.
func open(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, &ParseError{File: path, Msg: pe.Err.Error()}
		}
		return nil, err
	}
	return f, nil
}

// readWith opens path and runs parse on it.
func readWith[T any](path string, parse func(name string, r io.Reader) (T, error)) (T, error) {
	f, err := open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return parse(path, f)
}

// parseUint parses a number in the given base (0: with its prefix) that fits bits.
func parseUint(s string, base, bits int) (uint64, bool) {
	v, err := strconv.ParseUint(s, base, bits)
	return v, err == nil
}

// parseHex parses hexadecimal digits with or without a 0x prefix.
func parseHex(s string, bits int) (uint64, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if s == "" {
		return 0, false
	}
	return parseUint(s, 16, bits)
}

// sniff returns the first non-blank, non-comment line of data, for telling formats
// apart.
func sniff(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if s != "" && !strings.HasPrefix(s, "#") {
			return s
		}
	}
	return ""
}
