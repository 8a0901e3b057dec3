package booksim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/input/inputtest"
)

// TestParseLinear pins that reading a configuration costs time linear in its size,
// whatever fills it: runs of blank lines (each newline re-trimmed the statement so far,
// so 400 kB of newlines took most of a minute), comments, and long statements.
func TestParseLinear(t *testing.T) {
	for name, gen := range map[string]func(n int) []byte{
		"newlines": func(n int) []byte { return append(bytes.Repeat([]byte("\n"), n), "k = 4;\n"...) },
		"spaces":   func(n int) []byte { return append(bytes.Repeat([]byte(" \t\r\n"), n/4), "k = 4;\n"...) },
		"comments": func(n int) []byte { return bytes.Repeat([]byte("// c\n/* d */\n"), n/12) },
		"statements": func(n int) []byte {
			return bytes.Repeat([]byte("k = 4;\nnum_vcs = 2;\n"), n/20)
		},
		"vector": func(n int) []byte {
			return []byte("injection_rate = {" + strings.Repeat("0.1,", n/4) + "0.1};\n")
		},
	} {
		t.Run(name, func(t *testing.T) {
			inputtest.Linear(t, MaxConfigBytes/8, gen, func(data []byte) {
				if _, err := Parse(data); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// TestParseLineOfStatementAfterBlankLines: skipping blank lines keeps the line numbers.
func TestParseLineOfStatementAfterBlankLines(t *testing.T) {
	c, err := Parse([]byte("\n\n  \n\t\nk = 4;\n\n\n  num_vcs =\n 2;"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Line["k"] != 5 || c.Line["num_vcs"] != 8 {
		t.Fatalf("lines %v, want k at 5 and num_vcs at 8", c.Line)
	}
	if _, err := Parse([]byte("\n\n\n  = 3;")); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("a statement without a key on line 4: %v", err)
	}
}

// TestParseByteOrderMark: a configuration saved with a UTF-8 byte-order mark reads as
// the same file without it.
func TestParseByteOrderMark(t *testing.T) {
	c, err := Parse([]byte("\ufefftopology = torus;\nk = 4;\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Network.Topology != "torus" || len(c.Unknown) != 0 {
		t.Fatalf("topology %q, unknown keys %q", c.Network.Topology, c.Unknown)
	}
}
