package check

import (
	"errors"
	"strings"
	"testing"
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
