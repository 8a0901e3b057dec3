package model

import (
	"strings"
	"testing"
)

// TestParsePortModel reads every spelling of both port models and refuses others with
// a one-line error naming the value.
func TestParsePortModel(t *testing.T) {
	for s, want := range map[string]PortModel{"one": OnePort, "one-port": OnePort, "all": AllPort, "all-port": AllPort, "": AllPort} {
		if got, err := ParsePortModel(s); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", s, got, err, want)
		}
	}
	for _, p := range []PortModel{OnePort, AllPort} {
		if got, err := ParsePortModel(p.String()); err != nil || got != p {
			t.Errorf("%v does not read back: %v, %v", p, got, err)
		}
	}
	if _, err := ParsePortModel("two"); err == nil || !strings.Contains(err.Error(), `"two"`) || strings.Contains(err.Error(), "\n") {
		t.Errorf("two: %v", err)
	}
}
