package progress

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DefaultMemoryMiB is the default memory budget of a run, in MiB: 3/4 of the memory
// available when the run starts, so that a search or a simulation that outgrows what
// it may have ends inconclusive instead of being killed or pushing others out. The
// memory available is Linux's estimate of what can be allocated without swapping
// (/proc/meminfo's MemAvailable; MemTotal on kernels without it), less what a cgroup v2
// limit leaves (memory.max minus memory.current of the process's cgroup, as in a
// container or a Slurm job); 0 (no budget) where none of these can be read.
func DefaultMemoryMiB() int64 {
	meminfo, _ := os.ReadFile("/proc/meminfo")
	var limit, current []byte
	if dir := cgroupDir(); dir != "" {
		limit, _ = os.ReadFile(dir + "/memory.max")
		current, _ = os.ReadFile(dir + "/memory.current")
	}
	return budgetMiB(string(meminfo), string(limit), string(current))
}

// cgroupDir returns the directory of this process's cgroup v2 under /sys/fs/cgroup, or
// "" where there is none.
func cgroupDir() string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok && !strings.Contains(rest, "..") {
			return "/sys/fs/cgroup" + strings.TrimSuffix(rest, "/")
		}
	}
	return ""
}

// budgetMiB is 3/4 of the memory available, in MiB, from a /proc/meminfo text
// (MemAvailable, else MemTotal) and a cgroup's memory.max and memory.current texts
// ("max" or empty: no limit); 0 when nothing can be read.
func budgetMiB(meminfo, cgroupMax, cgroupCurrent string) int64 {
	avail := meminfoKiB(meminfo, "MemAvailable:")
	if avail <= 0 {
		avail = meminfoKiB(meminfo, "MemTotal:")
	}
	if lim, err := strconv.ParseInt(strings.TrimSpace(cgroupMax), 10, 64); err == nil && lim > 0 {
		cur, _ := strconv.ParseInt(strings.TrimSpace(cgroupCurrent), 10, 64)
		if left := max(lim-max(cur, 0), 0) / 1024; avail <= 0 || left < avail {
			avail = left
		}
	}
	if avail <= 0 {
		return 0
	}
	return avail * 3 / 4 / 1024
}

// meminfoKiB returns the value in kB of the /proc/meminfo line with the given key, or
// 0.
func meminfoKiB(meminfo, key string) int64 {
	for _, line := range strings.Split(meminfo, "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb); err == nil && kb > 0 {
				return kb
			}
		}
	}
	return 0
}
