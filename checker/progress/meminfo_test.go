package progress

import "testing"

// TestBudgetMiB reads 3/4 of MemAvailable (MemTotal on a kernel without it) from
// /proc/meminfo texts, lowered to 3/4 of what a cgroup limit leaves, 0 when there is
// nothing to read.
func TestBudgetMiB(t *testing.T) {
	for _, tc := range []struct {
		meminfo, max, current string
		want                  int64
	}{
		{"MemTotal:       16384000 kB\nMemFree: 1 kB\nMemAvailable: 4096000 kB\n", "", "", 3000},
		{"MemTotal:       16384000 kB\nMemFree: 1 kB\n", "", "", 12000},
		{"MemFree: 1 kB\nMemTotal: 4096 kB\n", "", "", 3},
		{"MemFree: 1 kB\n", "", "", 0},
		{"MemTotal: lots\n", "", "", 0},
		{"MemTotal: -5 kB\n", "", "", 0},
		{"MemTotal: 16384000 kB\nMemAvailable: 4096000 kB\n", "max\n", "123\n", 3000},
		{"MemTotal: 16384000 kB\nMemAvailable: 4096000 kB\n", "2147483648\n", "1073741824\n", 768},
		{"MemTotal: 16384000 kB\nMemAvailable: 4096000 kB\n", "2147483648\n", "4294967296\n", 0},
		{"", "2147483648\n", "0\n", 1536},
	} {
		if got := budgetMiB(tc.meminfo, tc.max, tc.current); got != tc.want {
			t.Errorf("budgetMiB(%q, %q, %q) = %d, want %d", tc.meminfo, tc.max, tc.current, got, tc.want)
		}
	}
}

// TestSampleEvery: a watcher reads every 50 ms up to half its limit, more often as the
// limit comes near, never less than every millisecond.
func TestSampleEvery(t *testing.T) {
	const mb = 1 << 20
	prev := SampleEvery(0, 200*mb)
	for used := uint64(0); used <= 220*mb; used += 5 * mb {
		d := SampleEvery(used, 200*mb)
		if d > prev || d < 1e6 || d > 50e6 {
			t.Errorf("SampleEvery(%d MiB, 200 MiB) = %v after %v", used/mb, d, prev)
		}
		prev = d
	}
	if d := SampleEvery(190*mb, 200*mb); d != 5e6 {
		t.Errorf("at 95%%: %v, want 5ms", d)
	}
}
