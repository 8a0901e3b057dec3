// Package topologytest bounds the size of a network from its spec without building it,
// for fuzz targets that must keep each input's work small: a spec whose networks take
// seconds to build is valid input, but one such input at the end of a fuzzing run stops
// the run with "context deadline exceeded" and no reproducer.
package topologytest

import (
	"math"
	"strconv"
	"strings"
)

// FuzzMaxNodes is the most nodes a fuzz target builds: about a millisecond each (a
// torus of a million nodes takes a second), so that every input is checked quickly.
const FuzzMaxNodes = 1 << 14

// NodesBound bounds from above the nodes a topology spec asks for, from its numbers:
// 2^n for a hypercube, k^n·n for a fat tree, the square of the product for a dragonfly
// (a·(a·h+1) routers, p terminals each), the product of the numbers for the rest; a
// fault list after "/" is left out, and a number past 10^9 is unbounded.
func NodesBound(spec string) float64 {
	if i := strings.IndexByte(spec, '/'); i >= 0 {
		spec = spec[:i]
	}
	var nums []float64
	for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r < '0' || r > '9' }) {
		n, err := strconv.ParseFloat(f, 64)
		if err != nil || n > 1e9 {
			return math.Inf(1)
		}
		nums = append(nums, max(n, 1))
	}
	prod := 1.0
	for _, n := range nums {
		prod *= n
	}
	s := strings.TrimSpace(strings.ToLower(spec))
	switch {
	case strings.HasPrefix(s, "hypercube") && len(nums) > 0:
		return math.Pow(2, nums[0])
	case strings.HasPrefix(s, "fattree") && len(nums) > 1:
		return math.Pow(nums[0], nums[1]) * nums[1]
	case strings.HasPrefix(s, "dragonfly"):
		return prod * prod
	}
	return prod
}

// Small says whether spec's networks are small enough for a fuzz target to build
// (NodesBound at most FuzzMaxNodes). A spec naming a file is not small: its size is
// the file's.
func Small(spec string) bool {
	if strings.HasPrefix(strings.TrimSpace(strings.ToLower(spec)), "file") {
		return false
	}
	return NodesBound(spec) <= FuzzMaxNodes
}
