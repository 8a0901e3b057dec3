//go:build !linux

package checker

// commit writes to each page of mem, whole pages of the Go heap, so that a page faults
// in once, at a write, and not first at a probe's read.
func commit(mem []byte) {
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 0
	}
}
