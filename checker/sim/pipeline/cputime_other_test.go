//go:build !unix

package pipeline

func cpuSeconds() float64 { return 0 }
