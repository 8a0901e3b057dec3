package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic replaces a file's contents so that a reader, or a process killed at any
// moment, sees either the old contents or the new, never a mixture or a truncation. It
// writes data to a temporary file in path's directory, flushes it to disk and renames it
// over path (an atomic replacement on POSIX file systems); the directory is flushed too so
// that the rename survives a crash. On error the temporary file is removed and path is
// untouched.
func writeFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // best effort: some file systems refuse to sync a directory
		d.Close()
	}
	return nil
}
