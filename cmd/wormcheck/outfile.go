package main

import (
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
)

// Every file wormcheck writes (--result, -o, --trace, --svg, --pcap, --plot, witness
// files, Slurm scripts) goes through createOutput or writeOutput, which never destroy
// what the path names:
//
//   - a regular file, or a path that does not exist yet, is replaced atomically: the data
//     goes to a temporary file beside it that is flushed and renamed over the path on
//     commit, so a reader, or a process killed at any moment, sees the old contents or the
//     new, never a mixture; an existing file keeps its permissions;
//   - a symbolic link is followed (up to maxLinks links, relative targets against the
//     link's directory) and what it points at is written by these rules; the link stays;
//   - a character device or a FIFO (/dev/null, /dev/stdout, a named pipe) is opened and
//     written through, as a shell's redirection would; it is never replaced;
//   - a directory, a socket or any other kind is refused with one line.

// maxLinks bounds the symbolic links followed from one output path (Linux's own limit).
const maxLinks = 40

// outputFile is one output being written; Commit makes it visible, Abort drops it.
// Between the two, a regular file's old contents are untouched.
type outputFile struct {
	path string   // the path the user named
	dest string   // what it resolves to
	f    *os.File // the temporary file, or the device or FIFO written through
	tmp  bool     // f is a temporary file to rename over dest on Commit
	err  error    // the first write error
	done bool     // Commit or Abort has run
}

// createOutput opens path for writing by the rules above; perm is the mode of a file
// that does not exist yet.
func createOutput(path string, perm os.FileMode) (*outputFile, error) {
	dest, fi, err := resolveOutput(path)
	if err != nil {
		return nil, err
	}
	o := &outputFile{path: path, dest: dest}
	switch {
	case fi == nil || fi.Mode().IsRegular():
		if fi != nil {
			perm = fi.Mode().Perm()
		}
		dir, base := filepath.Split(dest)
		if dir == "" {
			dir = "."
		}
		tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if err := tmp.Chmod(perm); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		o.f, o.tmp = tmp, true
	case fi.Mode()&(iofs.ModeCharDevice|iofs.ModeNamedPipe) != 0:
		f, err := os.OpenFile(dest, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		o.f = f
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory; name a file", path)
	default:
		return nil, fmt.Errorf("%s is a %s, not a file, device or FIFO; refusing to write it", path, kindOf(fi.Mode()))
	}
	return o, nil
}

// resolveOutput follows symbolic links from path and returns where the data goes with
// what is there now (nil when nothing is).
func resolveOutput(path string) (string, iofs.FileInfo, error) {
	dest := path
	for range maxLinks {
		fi, err := os.Lstat(dest)
		if errors.Is(err, iofs.ErrNotExist) {
			return dest, nil, nil
		}
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if fi.Mode()&iofs.ModeSymlink == 0 {
			return dest, fi, nil
		}
		target, err := os.Readlink(dest)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(dest), target)
		}
		dest = target
	}
	return "", nil, fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
}

// Write writes to the output; the first error is kept for Commit.
func (o *outputFile) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.f.Write(p)
	if err != nil {
		o.err = fmt.Errorf("%s: %w", o.path, unwrapPath(err))
	}
	return n, o.err
}

// Commit finishes the output: a temporary file is flushed, renamed over the destination
// and the directory flushed (best effort); a device or FIFO is closed. After an error the
// destination is as it was (for a regular file) and the temporary file is gone.
func (o *outputFile) Commit() error {
	if o.done {
		return nil
	}
	if o.err != nil {
		o.Abort()
		return o.err
	}
	o.done = true
	if !o.tmp {
		if err := o.f.Close(); err != nil {
			return fmt.Errorf("%s: %w", o.path, unwrapPath(err))
		}
		return nil
	}
	tmp := o.f.Name()
	err := o.f.Sync()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.dest)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", o.path, unwrapPath(err))
	}
	if d, derr := os.Open(filepath.Dir(o.dest)); derr == nil {
		_ = d.Sync() // some file systems refuse to sync a directory
		d.Close()
	}
	return nil
}

// Abort drops an output that will not be committed: a temporary file is removed, a
// device or FIFO closed. It is safe after Commit.
func (o *outputFile) Abort() {
	if o.done {
		return
	}
	o.done = true
	o.f.Close()
	if o.tmp {
		os.Remove(o.f.Name())
	}
}

// writeOutput writes data to path by the rules of createOutput.
func writeOutput(path string, data []byte, perm os.FileMode) error {
	o, err := createOutput(path, perm)
	if err != nil {
		return err
	}
	if _, err := o.Write(data); err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}

var _ io.Writer = (*outputFile)(nil)

// unwrapPath drops the operation and path of an *fs.PathError (our messages name the
// path the user gave, not a temporary file or a link's target).
func unwrapPath(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// kindOf names a file mode's type for a message.
func kindOf(m iofs.FileMode) string {
	switch {
	case m&iofs.ModeSocket != 0:
		return "socket"
	case m&iofs.ModeDevice != 0:
		return "block device"
	case m&iofs.ModeIrregular != 0:
		return "irregular file"
	}
	return "file of type " + m.Type().String()
}
