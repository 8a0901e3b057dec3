//go:build unix

package pipeline

import "syscall"

// cpuSeconds returns the user CPU time of the process, so that benchmarks can report
// rates per CPU-second as well as per wall-second on a shared machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec) + float64(ru.Utime.Usec)/1e6
}
