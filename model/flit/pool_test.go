package flit

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestScratchAcrossModels checks that the pooled scratch an expansion borrows carries
// nothing from the model it served last: expansions of a model with three worms and of
// one with two alternate (so the pool hands each the other's scratch), and every
// successor encoding of the smaller model is the one Successors gives. A stale length
// of the parent's worm indices once made it encode a third, absent worm, and prove's
// concurrent family members saw state counts change from run to run.
func TestScratchAcrossModels(t *testing.T) {
	big := mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6)))
	small := mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0)))
	bigStates, bigEncs := reachable(big, 300)
	smallStates, smallEncs := reachable(small, 300)
	var bs, ss State
	for k := range smallStates {
		if len(smallEncs[k]) != 8 || len(bigEncs[k%len(bigEncs)]) != 8 {
			continue
		}
		b := big.DecodeInto(bigEncs[k%len(bigStates)], &bs)
		big.EncodeSuccessors(b, nil, func(checker.Action, []byte) {})
		s := small.DecodeInto(smallEncs[k], &ss)
		var got, want string
		small.EncodeSuccessors(s, nil, func(a checker.Action, enc []byte) {
			got += fmt.Sprintf("%#x %x\n", uint64(a), enc)
		})
		for _, tr := range small.Successors(smallStates[k], nil) {
			want += fmt.Sprintf("%#x %x\n", uint64(tr.Action), small.Encode(tr.Next, nil))
		}
		if got != want {
			t.Fatalf("state %d: after the larger model's expansion EncodeSuccessors gives\n%s\nSuccessors gives\n%s", k, got, want)
		}
	}
}
