package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDissectorCommand(t *testing.T) {
	p := filepath.Join(t.TempDir(), "wormcheck.lua")
	if code, _, stderr := runCLI(t, "dissector", "-o", p); code != exitHolds {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), "wtap_encaps.USER0") {
		t.Fatalf("dissector not written: %v", err)
	}
	if code, _, _ := runCLI(t, "dissector", "extra"); code != exitUsage {
		t.Errorf("an extra argument gave exit %d; want %d", code, exitUsage)
	}
}
