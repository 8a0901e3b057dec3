package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// The device cases make their own nodes in a temporary directory (mknod needs root):
// the machine's /dev is never written.

// mknodChar makes a character device node with the given major and minor in dir, or
// skips the test when that is not allowed here.
func mknodChar(t *testing.T, dir, name string, major, minor uint32) string {
	t.Helper()
	p := filepath.Join(dir, name)
	dev := int(major<<8 | minor)
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, dev); err != nil {
		t.Skipf("cannot make a device node here: %v", err)
	}
	return p
}

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

func TestWriteOutputRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	for _, s := range []string{"first", "second, longer", "3"} {
		if err := writeOutput(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(p); err != nil || string(got) != s {
			t.Fatalf("read %q, %v; want %q", got, err, s)
		}
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeOutput(p, []byte("4"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, p); m != 0o600 {
		t.Errorf("replacing a 0600 file left mode %v", m)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
	if err := writeOutput(filepath.Join(dir, "no", "such", "dir"), []byte("x"), 0o644); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// TestOutputAbortKeepsOld: an output that is not committed (a write failed, the command
// stopped) leaves the old contents and no temporary file.
func TestOutputAbortKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := createOutput(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(o, "new, half written")
	o.Abort()
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("after Abort the file holds %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// TestWriteOutputSymlink: the link's target is written; the link stays a link, through
// a chain of relative links and to a target that does not exist yet.
func TestWriteOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "target.json")
	os.WriteFile(target, []byte("old"), 0o644)
	link1 := filepath.Join(dir, "link1")
	link2 := filepath.Join(dir, "link2")
	if err := os.Symlink("sub/target.json", link1); err != nil {
		t.Fatal(err)
	}
	os.Symlink("link1", link2)
	if err := writeOutput(link2, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link1, link2} {
		if m := mode(t, l); m&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", l, m)
		}
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q, want new", got)
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("sub/later.json", dangling)
	if err := writeOutput(dangling, []byte("made"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(sub, "later.json")); string(got) != "made" || mode(t, dangling)&os.ModeSymlink == 0 {
		t.Errorf("a dangling link: target %q, link mode %v", got, mode(t, dangling))
	}
	loop := filepath.Join(dir, "loop")
	os.Symlink("loop", loop)
	if err := writeOutput(loop, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a link loop: %v", err)
	}
}

// TestWriteOutputFIFO: a named pipe is written through to its reader and stays a pipe.
// The test holds the pipe open for writing itself (O_RDWR does not block on Linux), so
// that neither end blocks whatever the writer does; its reader sees end of file when
// both have closed it.
func TestWriteOutputFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	keeper, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	reader, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	werr := writeOutput(p, []byte("through the pipe"), 0o644)
	keeper.Close()
	if werr != nil {
		t.Fatal(werr)
	}
	if b, _ := io.ReadAll(reader); string(b) != "through the pipe" {
		t.Errorf("the reader got %q", b)
	}
	if m := mode(t, p); m&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: mode %v", m)
	}
}

// TestWriteOutputDevices: a /dev/null-like node is written through and stays a device;
// a /dev/full-like node gives the write's error in one line and stays a device; a link
// to a device writes the device. Both nodes are made in a temporary directory.
func TestWriteOutputDevices(t *testing.T) {
	dir := t.TempDir()
	null := mknodChar(t, dir, "null", 1, 3)
	full := mknodChar(t, dir, "full", 1, 7)
	link := filepath.Join(dir, "to-null")
	os.Symlink("null", link)
	for _, p := range []string{null, link} {
		if err := writeOutput(p, []byte("discarded"), 0o644); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	err := writeOutput(full, []byte("no room"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "no space left") || strings.Contains(err.Error(), "\n") {
		t.Errorf("writing a full device: %v", err)
	}
	for _, p := range []string{null, full} {
		if m := mode(t, p); m&os.ModeCharDevice == 0 {
			t.Errorf("%s was replaced: mode %v", p, m)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files left behind: %v", ents)
	}
}

// TestWriteOutputRefused: a directory and a socket are refused with one line and left
// as they were.
func TestWriteOutputRefused(t *testing.T) {
	dir := t.TempDir()
	if err := writeOutput(dir, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	if err := writeOutput(sock, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "socket") {
		t.Errorf("a socket: %v", err)
	}
	if m := mode(t, sock); m&os.ModeSocket == 0 {
		t.Errorf("the socket was replaced: mode %v", m)
	}
}

// TestEveryWriterKeepsDevices runs every command that writes a file with that file a
// /dev/null-like node (made in a temporary directory) and then a symbolic link to a
// regular file: the node stays a device, the link stays a link and its target gets the
// output.
func TestEveryWriterKeepsDevices(t *testing.T) {
	dir := t.TempDir()
	null := mknodChar(t, dir, "null", 1, 3)
	sched := filepath.Join(dir, "d.json")
	if code, _, stderr := runCLI(t, "schedule", "--algo", "dcf", "--topo", "torus:4x4", "-o", sched); code != 0 {
		t.Fatalf("schedule: exit %d, %s", code, stderr)
	}
	shard := filepath.Join(dir, "shard.json")
	fam := append(append([]string{}, killFamily...), "--shard", "0/64")
	famCode, _, stderr := runCLI(t, append(fam, "--result", shard)...)
	if famCode != exitViolated && famCode != exitHolds {
		t.Fatalf("family: exit %d, %s", famCode, stderr)
	}
	wh2 := []string{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1"}
	cases := []struct {
		args []string // the command; OUT is replaced by the output path
		code int
	}{
		{append(wh2, "--trace", "OUT"), exitViolated},
		{append(wh2, "--svg", "OUT"), exitViolated},
		{append(wh2, "--pcap", "OUT"), exitViolated},
		{append(fam, "--result", "OUT"), famCode},
		{[]string{"sim", "--topo", "mesh:4x4", "--cycles", "200", "--warmup", "100", "--trace", "OUT"}, exitHolds},
		{[]string{"sim", "--topo", "mesh:4x4", "--cycles", "200", "--warmup", "100", "--points", "2", "--plot", "OUT"}, exitHolds},
		{[]string{"routing", "--topo", "mesh:4x4", "--routing", "adaptive", "--svg", "OUT"}, exitViolated},
		{[]string{"schedule", "--algo", "dcf", "--topo", "torus:4x4", "-o", "OUT"}, exitHolds},
		{[]string{"partition", "--topo", "torus:4x4", "--type", "I", "--h", "2", "--svg", "OUT"}, exitHolds},
		{[]string{"render", sched, "-o", "OUT"}, exitHolds},
		{[]string{"merge", shard, "-o", "OUT"}, exitInconclusive}, // 63 shards missing
		{[]string{"dissector", "-o", "OUT"}, exitHolds},
	}
	for i, c := range cases {
		target := filepath.Join(dir, fmt.Sprintf("target-%d", i))
		link := filepath.Join(dir, fmt.Sprintf("link-%d", i))
		os.WriteFile(target, []byte("old"), 0o600)
		os.Symlink(filepath.Base(target), link)
		for _, out := range []string{null, link} {
			args := slices.Clone(c.args)
			for j := range args {
				if args[j] == "OUT" {
					args[j] = out
				}
			}
			code, _, stderr := runCLI(t, args...)
			if code != c.code {
				t.Errorf("%q: exit %d, want %d: %s", args, code, c.code, stderr)
			}
		}
		if m := mode(t, null); m&os.ModeCharDevice == 0 {
			t.Fatalf("%q replaced the device: mode %v", c.args, m)
		}
		if m := mode(t, link); m&os.ModeSymlink == 0 {
			t.Errorf("%q replaced the link: mode %v", c.args, m)
		}
		if got, _ := os.ReadFile(target); string(got) == "old" || len(got) == 0 {
			t.Errorf("%q: the link's target holds %q", c.args, got)
		} else if m := mode(t, target); m != 0o600 {
			t.Errorf("%q: the link's target has mode %v, want its own 0600", c.args, m)
		}
	}
}

// TestDirectoryWritersKeepLinks: prove's witness files and slurm's scripts, written into
// a directory, go through the same writer: a link there keeps pointing at its target,
// which gets the new contents, and a device node there stays one.
func TestDirectoryWritersKeepLinks(t *testing.T) {
	dir := t.TempDir()
	wd := filepath.Join(dir, "witnesses")
	os.Mkdir(wd, 0o755)
	mknodChar(t, wd, "WH2.pcap", 1, 3)
	os.WriteFile(filepath.Join(dir, "kept.json"), []byte("old"), 0o644)
	os.Symlink("../kept.json", filepath.Join(wd, "WH2.json"))
	if code, _, stderr := runCLI(t, "prove", "--quick", "--only", "WH2", "--witness-dir", wd); code != exitHolds {
		t.Fatalf("prove: exit %d: %s", code, stderr)
	}
	if m := mode(t, filepath.Join(wd, "WH2.json")); m&os.ModeSymlink == 0 {
		t.Errorf("WH2.json replaced its link: %v", m)
	}
	if m := mode(t, filepath.Join(wd, "WH2.pcap")); m&os.ModeCharDevice == 0 {
		t.Errorf("WH2.pcap replaced the device: %v", m)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "kept.json")); !strings.Contains(string(b), "torus:4") {
		t.Errorf("the link's target holds %q", b)
	}

	sd := filepath.Join(dir, "slurm")
	os.Mkdir(sd, 0o755)
	os.Symlink("../kept.sh", filepath.Join(sd, "task.sh"))
	args := append([]string{"slurm", "--dir", sd, "--tasks", "2", "--no-submit", "--binary", "/opt/wormcheck/bin/wormcheck", "--"}, killFamily...)
	if code, _, stderr := runCLI(t, args...); code != exitHolds {
		t.Fatalf("slurm: exit %d: %s", code, stderr)
	}
	if m := mode(t, filepath.Join(sd, "task.sh")); m&os.ModeSymlink == 0 {
		t.Errorf("task.sh replaced its link: %v", m)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "kept.sh")); !strings.Contains(string(b), "SLURM_ARRAY_TASK_ID") {
		t.Errorf("the link's target holds %q", b)
	}
}
