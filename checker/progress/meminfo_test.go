package progress

import "testing"

// TestBudgetMiB reads 3/4 of MemTotal from /proc/meminfo texts, 0 when there is none.
func TestBudgetMiB(t *testing.T) {
	for in, want := range map[string]int64{
		"MemTotal:       16384000 kB\nMemFree: 1 kB\n": 12000,
		"MemFree: 1 kB\nMemTotal: 4096 kB\n":           3,
		"MemFree: 1 kB\n":                              0,
		"MemTotal: lots\n":                             0,
		"MemTotal: -5 kB\n":                            0,
	} {
		if got := budgetMiB(in); got != want {
			t.Errorf("budgetMiB(%q) = %d, want %d", in, got, want)
		}
	}
}
