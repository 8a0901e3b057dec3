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
	// --topo makes the topology the default of the coordinates preference; a network
	// without coordinates, or a bad spec, is refused in one line.
	if code, out, stderr := runCLI(t, "dissector", "--topo", "torus:4x4"); code != exitHolds || !strings.Contains(out, `local TOPOLOGY = "torus:4x4"`) {
		t.Errorf("--topo torus:4x4: exit %d: %s", code, stderr)
	}
	for _, bad := range []string{"dragonfly:a=2,p=1,h=1", "mesh:0x4"} {
		if code, _, stderr := runCLI(t, "dissector", "--topo", bad); code != exitUsage || !strings.Contains(stderr, "--topo") {
			t.Errorf("--topo %s: exit %d, %q; want 2 naming --topo", bad, code, stderr)
		}
	}
}
