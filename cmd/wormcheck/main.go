// Command wormcheck checks routing and collective-communication algorithms on explicit
// network states: deadlock freedom, contention freedom, nonblocking conditions, with a
// shortest replayable counterexample when a property fails. `wormcheck help` lists its
// commands; `wormcheck help COMMAND` teaches one.
//
// Exit codes: 0 the property holds (for prove: every verdict as expected), 1 violated or
// unexpected, 2 bad input or usage (one line naming what is wrong), 3 inconclusive (a
// bound was reached, or a signal stopped the command), 4 internal error (a failure of
// wormcheck itself: a panic, a witness that does not replay; please report it).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/props/check"
)

// Exit codes of the command-line contract.
const (
	exitHolds        = 0
	exitViolated     = 1
	exitUsage        = 2
	exitInconclusive = 3
	exitInternal     = 4
)

// signalGrace is how long a command may take to stop after SIGINT or SIGTERM.
const signalGrace = 10 * time.Second

// usageError is bad input or usage: printed as one line, exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// command is one subcommand: its one-line summary, its help text and the function that
// runs it and returns the exit code.
type command struct {
	Name    string
	Summary string
	Help    string
	Run     func(ctx context.Context, env *env, args []string) (int, error)
}

// env is the process environment a command sees; tests substitute buffers.
type env struct {
	Stdout, Stderr io.Writer
	// StderrIsTerminal says whether progress may be shown without --progress.
	StderrIsTerminal bool
}

var commands = map[string]*command{}

func registerCommand(c *command) {
	if _, dup := commands[c.Name]; dup {
		panic("duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// main runs one command with a context that SIGINT (Ctrl-C) and SIGTERM (what Slurm,
// Kubernetes and kill send) cancel: a check then ends inconclusive with its statistics so
// far, a family writes its partial result, sim reports what it measured. A second signal
// finds the default handlers restored and ends the process at once; a command that has
// not stopped signalGrace after the first (a computation that does not watch the
// context) is ended with exit 3.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
		time.Sleep(signalGrace)
		fmt.Fprintf(os.Stderr, "wormcheck: interrupted, and the command did not stop within %v; exiting\n", signalGrace)
		os.Exit(exitInconclusive)
	}()
	e := &env{Stdout: os.Stdout, Stderr: os.Stderr, StderrIsTerminal: progress.IsTerminal(os.Stderr)}
	os.Exit(run(ctx, e, os.Args[1:]))
}

// run dispatches args to a command and turns errors into the contract's exit codes: a
// usage error or any other error 2, an internal error (check.ErrInternal, or a panic of
// the command's goroutine) 4, each as one line.
func run(ctx context.Context, e *env, args []string) (code int) {
	if len(args) == 0 {
		printOverview(e.Stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		name = "help"
	case "--version", "-version":
		name = "version"
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.Stderr, "wormcheck: unknown command %q; run 'wormcheck help' for the list\n", args[0])
		return exitUsage
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.Stderr, "wormcheck %s: internal error: %s (a bug in wormcheck; please report it with the command line)\n", c.Name, oneLine.Replace(fmt.Sprint(r)))
			code = exitInternal
		}
	}()
	code, err := c.Run(ctx, e, args[1:])
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(e.Stderr, "wormcheck %s: %s\n", c.Name, oneLine.Replace(ue.msg))
			return exitUsage
		}
		fmt.Fprintf(e.Stderr, "wormcheck %s: %s\n", c.Name, oneLine.Replace(err.Error()))
		if errors.Is(err, check.ErrInternal) {
			return exitInternal
		}
		return exitUsage
	}
	return code
}

// oneLine puts an error message on one line.
var oneLine = strings.NewReplacer("\n", " ", "\r", " ")
