//go:build !unix

package checker_test

func cpuSeconds() float64 { return 0 }

func peakRSS() int64 { return 0 }
