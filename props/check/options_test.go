package check

import (
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestStoreNamedAndValidate checks the store names and the option bounds, each refusal
// bad input naming its flag.
func TestStoreNamedAndValidate(t *testing.T) {
	if s, err := StoreNamed("fingerprint"); err != nil || s != checker.Fingerprint {
		t.Errorf("fingerprint: %v, %v", s, err)
	}
	if s, err := StoreNamed("exact"); err != nil || s != checker.Exact {
		t.Errorf("exact: %v, %v", s, err)
	}
	if _, err := StoreNamed("bogus"); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--store") {
		t.Errorf("bogus store: %v", err)
	}
	if err := (Options{Workers: 1}).Validate(); err != nil {
		t.Error(err)
	}
	for flag, o := range map[string]Options{
		"--workers 0":   {},
		"--workers 257": {Workers: 257},
		"--max-states":  {Workers: 1, MaxStates: -1},
		"--max-depth":   {Workers: 1, MaxDepth: -1},
		"--max-memory":  {Workers: 1, MaxMemoryBytes: -1},
	} {
		if err := o.Validate(); !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), flag) {
			t.Errorf("%+v: %v; want bad input starting %q", o, err, flag)
		}
	}
}

// TestWriteAlgorithmsListsTheRegistry checks that every algorithm is listed with its
// properties and their semantics.
func TestWriteAlgorithmsListsTheRegistry(t *testing.T) {
	var b strings.Builder
	WriteAlgorithms(&b)
	for _, a := range Algorithms() {
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
