package check

import (
	"context"

	"github.com/wormcheck/wormcheck/model/input"
)

// FileKind is a kind of file a command reads from a path the user names: its name in
// messages and the most bytes read of it (model/input). The commands' files are named
// here so that the caps and their words stay with the library that parses the files.
type FileKind = input.Kind

// The kinds of file the commands read besides those the entries read themselves.
var (
	TraceKind      = input.Trace      // replay
	SavedKind      = input.Saved      // render, explore, verify of a saved run
	ScheduleKind   = input.Schedule   // verify of a schedule
	ResultKind     = input.Result     // merge
	CheckpointKind = input.Checkpoint // --resume
	BookSimKind    = input.BookSim    // --booksim
	// TaskScriptKind is the script `slurm --only` reads back: one wormcheck wrote, a few
	// kilobytes, so a larger file is not one.
	TaskScriptKind = FileKind{Name: "task script", Max: 1 << 20}
)

// ReadFile reads the file at path as a file of kind k: at most k's cap, lowered to a
// quarter of a memory budget of maxBytes (0: no budget), and stopped when ctx ends (a
// FIFO that never ends or has no writer).
func ReadFile(ctx context.Context, path string, k FileKind, maxBytes int64) ([]byte, error) {
	return input.ReadFile(ctx, path, k.Within(maxBytes))
}

// FileReader is ReadFile for many files of one kind, as Merge takes them.
func FileReader(ctx context.Context, k FileKind, maxBytes int64) func(path string) ([]byte, error) {
	return input.Reader(ctx, k.Within(maxBytes))
}
