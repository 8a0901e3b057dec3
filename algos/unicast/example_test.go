package unicast_test

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/unicast"
)

// Example finds the ring deadlock of DOR without dateline classes (claim WH2) and shows
// that two dateline classes remove it (WH3).
func Example() {
	for _, dl := range []unicast.Dateline{unicast.DatelineOff, unicast.DatelineOn} {
		m, err := unicast.Build(unicast.Spec{
			Topology: "torus:4",
			Pairs:    []unicast.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}},
			Length:   2, Buffer: 1, Dateline: dl,
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		r := unicast.Search(context.Background(), m, 0, true)
		fmt.Printf("dateline %v: %s after %d steps, %d states\n", dl, r.Verdict, len(r.Actions()), r.States)
	}
	// Output:
	// dateline off: violated after 4 steps, 74 states
	// dateline on: holds after 0 steps, 178 states
}
