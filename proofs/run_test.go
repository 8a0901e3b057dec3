package proofs

import (
	"strings"
	"testing"
)

// TestNewOptionsSizesAndWorkers checks the sizes the switches select and the refusals,
// each naming its flag.
func TestNewOptionsSizesAndWorkers(t *testing.T) {
	for _, c := range []struct {
		quick, full bool
		want        Size
	}{{false, false, Default}, {true, false, Quick}, {false, true, Full}} {
		o, err := NewOptions(c.quick, c.full, 2)
		if err != nil || o.Size != c.want || o.Workers != 2 || o.Meter == nil {
			t.Errorf("quick %v full %v: %+v, %v", c.quick, c.full, o, err)
		}
	}
	for _, c := range []struct {
		quick, full bool
		workers     int
		says        string
	}{{true, true, 1, "--quick and --full"}, {false, false, 0, "--workers 0"}, {false, false, 257, "--workers 257"}} {
		if _, err := NewOptions(c.quick, c.full, c.workers); err == nil || !strings.HasPrefix(err.Error(), c.says) {
			t.Errorf("%+v: %v; want %q", c, err, c.says)
		}
	}
}
