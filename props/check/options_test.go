package check

import (
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestValidate checks the option bounds, each refusal bad input naming its flag.
func TestValidate(t *testing.T) {
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

// TestStoreNamed reads both store names and refuses another as bad input naming --store.
func TestStoreNamed(t *testing.T) {
	if s, err := StoreNamed("fingerprint"); err != nil || s != checker.Fingerprint {
		t.Errorf("fingerprint: %v, %v", s, err)
	}
	if s, err := StoreNamed("exact"); err != nil || s != checker.Exact {
		t.Errorf("exact: %v, %v", s, err)
	}
	if _, err := StoreNamed("bogus"); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--store") {
		t.Errorf("bogus store: %v", err)
	}
}
