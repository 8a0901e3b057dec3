// Package inputtest holds test helpers for code that reads what users hand wormcheck:
// Linear checks that a parser's cost grows linearly with its input, counting the CPU
// time of the thread that parses rather than wall time, so that a loaded machine does
// not make it flaky.
package inputtest

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// Linear fails t unless parse costs about as much per byte on gen(4n) as on gen(n):
// the larger input may cost at most twice as much per byte (a linear parser pays the
// same, an n log n one a little more, a quadratic one four times as much). The cost is
// the CPU time of the parsing thread, the best of three rounds of enough calls to fill
// 30 ms each. n should make one call of gen(n) take at least a millisecond.
//
// A measurement over the bound is taken again, up to three times in all, and only
// three in a row fail: on a shared machine another process evicting the larger
// input's cache lines can cost a linear parser twice its time once, while a quadratic
// parser is over the bound every time.
func Linear(t testing.TB, n int, gen func(n int) []byte, parse func([]byte)) {
	t.Helper()
	small, large := gen(n), gen(4*n)
	size := float64(len(large)) / float64(len(small))
	var msg string
	for range 3 {
		cs, cl := cost(small, parse), cost(large, parse)
		r := float64(cl) / float64(cs)
		msg = fmt.Sprintf("%d bytes cost %v, %d bytes %v: %.1fx for %.1fx the input", len(small), cs, len(large), cl, r, size)
		t.Log(msg)
		if r <= 2*size {
			return
		}
	}
	t.Fatalf("%s (want under %.1fx, three measurements in a row)", msg, 2*size)
}

// cost returns the CPU time one call of parse(data) takes on this thread.
func cost(data []byte, parse func([]byte)) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	best := time.Duration(1 << 62)
	for range 3 {
		runtime.GC()
		calls, start := 0, threadCPU()
		for calls == 0 || threadCPU()-start < 30*time.Millisecond {
			parse(data)
			calls++
		}
		best = min(best, (threadCPU()-start)/time.Duration(calls))
	}
	return max(best, 1)
}

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage only.
const rusageThread = 1

// threadCPU returns the CPU time (user and system) the calling thread has used, or
// the wall clock where a thread's usage cannot be read.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
