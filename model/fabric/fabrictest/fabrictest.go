// Package fabrictest holds test helpers for code that reads InfiniBand fabrics: the
// path of a real fabric file of the shared folder beside the checkout, and a small ring
// fabric whose forwarding tables a test chooses.
package fabrictest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/fabric"
)

// Shared returns the path of file name of ../shared/fabrics/ib beside the module's root,
// skipping t with one line where the folder is absent (a clone without it).
func Shared(t testing.TB, name string) string {
	t.Helper()
	p, err := SharedPath(name)
	if err != nil {
		t.Skipf("real fabric files absent: %v", err)
	}
	return p
}

// SharedPath returns the path of file name of ../shared/fabrics/ib beside the module's
// root (the first folder up from the working directory holding go.mod), or an error
// naming the path looked for.
func SharedPath(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
	p := filepath.Join(filepath.Dir(dir), "shared", "fabrics", "ib", name)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// Ring returns n switches in a ring, each with a host: switch i has host i on port 1
// and port 3 cabled to switch i+1's port 2; switch i has LID i+1 and host i LID n+i+1.
// Switch i forwards to host j (j ≠ i) by port route(i, j): 3 clockwise, 2 the other way.
func Ring(t testing.TB, n int, route func(i, j int) uint8) *fabric.Fabric {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Switch 3 \"S%d\" # \"S%d\" lid %d\n[1] \"H%d\"[1]\n[3] \"S%d\"[2]\n\n", i, i, i+1, i, (i+1)%n)
	}
	for i := range n {
		fmt.Fprintf(&b, "Hca 1 \"H%d\"\n[1] \"S%d\"[1] # lid %d\n\n", i, i, n+i+1)
	}
	f, err := fabric.ParseNet("ring", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range n {
			port := uint8(1)
			if i != j {
				port = route(i, j)
			}
			f.SetLFT(i, uint16(n+j+1), port)
		}
		f.SetLFT(i, uint16(i+1), 0)
	}
	return f
}
