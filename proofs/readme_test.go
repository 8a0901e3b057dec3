package proofs

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestReadmeCountsTheClaims: the README's count of the catalogue's claims is the
// catalogue's (it said 42 while prove ran 47).
func TestReadmeCountsTheClaims(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skipf("no README beside the module: %v", err)
	}
	m := regexp.MustCompile(`catalogue \((\d+) claims\)`).FindSubmatch(data)
	if m == nil {
		t.Fatal(`README.md no longer says "catalogue (N claims)"; keep the count where a reader meets prove`)
	}
	if n, _ := strconv.Atoi(string(m[1])); n != len(All()) {
		t.Errorf("README.md says %d claims; the catalogue has %d", n, len(All()))
	}
}
