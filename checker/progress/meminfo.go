package progress

import (
	"fmt"
	"os"
	"strings"
)

// DefaultMemoryMiB is the default memory budget of a run, in MiB: 3/4 of the machine's
// memory (Linux /proc/meminfo's MemTotal), so that a search or a simulation that outgrows
// the machine ends inconclusive instead of being killed; 0 (no budget) where the size
// cannot be read.
func DefaultMemoryMiB() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return budgetMiB(string(data))
}

// budgetMiB is 3/4 of the MemTotal line of a /proc/meminfo text, in MiB; 0 without one.
func budgetMiB(meminfo string) int64 {
	for _, line := range strings.Split(meminfo, "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb); err == nil && kb > 0 {
				return kb * 3 / 4 / 1024
			}
		}
	}
	return 0
}
