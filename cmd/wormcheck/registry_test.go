package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestWriteAlgorithmsListsTheRegistry checks that every algorithm is listed with its
// properties and their semantics.
func TestWriteAlgorithmsListsTheRegistry(t *testing.T) {
	var b strings.Builder
	writeAlgorithms(&b)
	for _, a := range check.Algorithms() {
		if !strings.Contains(b.String(), "  "+a.Name+" ") {
			t.Errorf("%s is not listed", a.Name)
		}
		for _, p := range a.Properties {
			if !strings.Contains(b.String(), p.Property+" ("+p.Semantics+")") {
				t.Errorf("%s: property %s (%s) is not listed", a.Name, p.Property, p.Semantics)
			}
		}
	}
}

// TestStoreNamed reads both store names and refuses another as a usage error naming
// --store.
func TestStoreNamed(t *testing.T) {
	if s, err := storeNamed("fingerprint"); err != nil || s != checker.Fingerprint {
		t.Errorf("fingerprint: %v, %v", s, err)
	}
	if s, err := storeNamed("exact"); err != nil || s != checker.Exact {
		t.Errorf("exact: %v, %v", s, err)
	}
	var u usageError
	if _, err := storeNamed("bogus"); !errors.As(err, &u) || !strings.Contains(err.Error(), "--store") {
		t.Errorf("bogus store: %v", err)
	}
}
