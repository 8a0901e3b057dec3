package checker

import (
	"fmt"
	"io"

	"github.com/wormcheck/wormcheck/checker/progress"
)

// progressSnapshot is what one progress line reports.
type progressSnapshot struct {
	states, frontier, depth int64
}

// startProgress reports a search on w with the shared progress line (package progress):
// states, states/s over the last interval (over the whole run on the final line),
// elapsed time, memory, and the frontier and depth of the BFS level being expanded. On
// a terminal the line updates in place.
func startProgress[S any](w io.Writer, opt Options[S], snap func() progressSnapshot) *progress.Line {
	return progress.Start(progress.Options{W: w, Every: opt.ProgressEvery, Label: opt.ProgressLabel}, func() progress.Snapshot {
		s := snap()
		return progress.Snapshot{Work: s.states, Note: fmt.Sprintf("frontier %d  depth %d", s.frontier, s.depth)}
	})
}
