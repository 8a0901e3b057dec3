//go:build unix

package checker_test

import "syscall"

// cpuSeconds returns the user and system CPU time of the process, so that benchmarks
// can report rates per CPU-second as well as per wall-second on a shared machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// peakRSS returns the process's peak resident set size in bytes (Linux reports
// kilobytes; other systems may differ).
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}
