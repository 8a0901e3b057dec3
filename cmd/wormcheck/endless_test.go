package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// endlessInputCommands are the command lines that read a file the user names, with the
// file's place marked FILE: every one must read it bounded by the memory budget and
// stoppable by the time limit.
var endlessInputCommands = [][]string{
	{"replay", "FILE"},
	{"verify", "FILE"},
	{"render", "FILE", "-o", "out.svg"},
	{"explore", "FILE"},
	{"merge", "FILE"},
	{"check", "--algo", "unicast", "--topo", "mesh:3x3", "--routing", "FILE"},
	{"routing", "--topo", "mesh:3x3", "--routing", "FILE"},
	{"sim", "--topo", "mesh:3x3", "--routing", "FILE", "--cycles", "100"},
	{"check", "--booksim", "FILE"},
	{"check", "--algo", "tree-mcast", "--topo", "mesh:3x2", "--family", "pairs:2", "--resume", "FILE"},
}

// fifo makes a named pipe in dir and starts a writer on it: endless writes 'y' until the
// reader goes away; otherwise the writer opens it and writes nothing, holding it open.
// It returns the path and a function that ends the writer.
func fifo(t *testing.T, dir string, endless bool) (string, func()) {
	t.Helper()
	p := filepath.Join(dir, "in.fifo")
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		chunk := bytes.Repeat([]byte("y"), 1<<16)
		for {
			select {
			case <-done:
				return
			default:
			}
			if !endless {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			if _, err := f.Write(chunk); err != nil {
				return
			}
		}
	}()
	return p, func() {
		close(done)
		// a writer still blocked in open is released by a reader that comes and goes
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
	}
}

// withFile returns args with FILE replaced by path.
func withFile(args []string, path string, extra ...string) []string {
	var out []string
	for _, a := range args {
		if a == "FILE" {
			a = path
		}
		out = append(out, a)
	}
	return append(out, extra...)
}

// TestEndlessInputIsBounded: a file that never ends (a FIFO fed as fast as it is read)
// is read up to its kind's cap or a quarter of the --max-memory budget, then refused in one line naming the file
// and the cap, exit 2, with the process's peak resident set within 1.1x the budget.
// These commands read the whole input into memory before: 2 GiB in under 5 s.
func TestEndlessInputIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds ten commands up to 50 MiB each")
	}
	dir := t.TempDir()
	for _, args := range endlessInputCommands {
		p, stop := fifo(t, dir, true)
		cmd := wormcheckCmd(dir, withFile(args, p, "--max-memory", "200")...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		peak, err := peakUntilExit(cmd)
		took := time.Since(start)
		stop()
		code := exitCode(err)
		msg := strings.TrimRight(errb.String(), "\n")
		switch {
		case code != exitUsage:
			t.Errorf("%q: exit %d, want 2; stdout %q stderr %q", args, code, out.String(), msg)
		case !strings.Contains(msg, "more than ") || !strings.Contains(msg, p) || strings.Contains(msg, "\n"):
			t.Errorf("%q: stderr %q does not name the file and the cap on one line", args, msg)
		}
		if peak<<10 > 220<<20 {
			t.Errorf("%q: peak RSS %d MiB for a 200 MiB budget", args, peak>>10)
		}
		t.Logf("%q: exit %d in %v, peak RSS %d MiB", args, code, took.Round(time.Millisecond), peak>>10)
	}
}

// TestStalledInputStops: a file that never delivers a byte (a FIFO whose writer holds it
// open and writes nothing) does not hold a command past --time-limit: it exits 3 soon
// after, saying the limit passed while the file was read. These commands waited
// forever before.
func TestStalledInputStops(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a second per command")
	}
	dir := t.TempDir()
	for _, args := range endlessInputCommands {
		p, stop := fifo(t, dir, false)
		cmd := wormcheckCmd(dir, withFile(args, p, "--time-limit", "1s")...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
		err := cmd.Wait()
		timer.Stop()
		took := time.Since(start)
		stop()
		code := exitCode(err)
		switch {
		case code != exitInconclusive:
			t.Errorf("%q: exit %d, want 3; stdout %q stderr %q", args, code, out.String(), errb.String())
		case took > 6*time.Second:
			t.Errorf("%q: took %v to stop at a 1 s limit", args, took)
		case !strings.Contains(out.String()+errb.String(), "--time-limit"):
			t.Errorf("%q: does not say the time limit stopped it: stdout %q stderr %q", args, out.String(), errb.String())
		}
		t.Logf("%q: exit %d in %v", args, code, took.Round(time.Millisecond))
	}
}

// peakUntilExit waits for a started command and returns its peak resident set in kB
// (VmHWM, read until it exits) and Wait's error.
func peakUntilExit(cmd *exec.Cmd) (int64, error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	for {
		if kb := vmHWM(cmd.Process.Pid); kb > peak {
			peak = kb
		}
		select {
		case err := <-done:
			return peak, err
		case <-time.After(2 * time.Millisecond):
		}
	}
}
