package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/wormcheck/wormcheck/props/check"
)

const overview = `wormcheck — decides whether routing relations, BookSim networks, InfiniBand
fabrics' forwarding tables and multicast/broadcast algorithms are deadlock-free and
contention-free, and shows a shortest replayable counterexample when they are not.

Usage: wormcheck <command> [flags]

Commands:
%s
Topologies: mesh:8x8, torus:16x16, torus:8x8x8, hypercube:6, banyan:16; any network of
routers: file:PATH (BookSim2 anynet, JSON wormcheck-topology/1, DOT), dragonfly:a=4,p=2,h=2,
fattree:4,3, random:8,10,1, a grid with --faults (wormcheck help routing).
Exit codes: 0 holds, 1 violated (or, for prove, a verdict not as expected),
2 bad input or usage, 3 inconclusive (a bound was reached, or a signal stopped it),
4 internal error (a bug in wormcheck: please report it).

Start with:  wormcheck prove
             (every claim of the source papers with its verdict, about 2 minutes;
             prove --quick in under one)
Then:        wormcheck help routing, wormcheck help check
`

func printOverview(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "  %-10s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintf(w, overview, b.String())
}

func init() {
	registerCommand(&command{
		Name:    "help",
		Summary: "explain wormcheck or one command (wormcheck help check)",
		Help:    "wormcheck help [COMMAND]\n\nWithout a command, lists the commands; with one, explains it with examples.\n",
		Run: func(_ context.Context, e *env, args []string) (int, error) {
			if len(args) == 0 {
				printOverview(e.Stdout)
				return exitHolds, nil
			}
			c, ok := commands[args[0]]
			if !ok {
				return 0, usagef("no command %q; run 'wormcheck help' for the list", args[0])
			}
			fmt.Fprint(e.Stdout, c.Help)
			if c.Name == "check" {
				fmt.Fprint(e.Stdout, algoHelp())
			}
			return exitHolds, nil
		},
	})
	registerCommand(&command{
		Name:    "version",
		Summary: "print the tool version",
		Help:    "wormcheck version\n\nPrints the tool version and the source revision it was built from.\n",
		Run: func(_ context.Context, e *env, _ []string) (int, error) {
			fmt.Fprintln(e.Stdout, "wormcheck", toolVersion())
			return exitHolds, nil
		},
	})
}

// version is the release of the tool; the VCS revision is appended when known.
const version = "0.1.0"

func toolVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return v
}

// algoHelp lists the algorithms `check` knows, with their properties.
func algoHelp() string {
	var b strings.Builder
	b.WriteString("\nAlgorithms (--algo) and the properties (--prop) each supports, with the semantics\nthe verdict is judged in (docs/semantics.md):\n")
	writeAlgorithms(&b)
	b.WriteString("\nEach algorithm adds its own flags: wormcheck check --algo A --help lists them.\n")
	return b.String()
}

// writeAlgorithms lists the registry for people: each algorithm with its summary and the
// properties it supports, each with the semantics its verdict is judged in.
func writeAlgorithms(w io.Writer) {
	for _, a := range check.Algorithms() {
		var ps []string
		for _, p := range a.Properties {
			ps = append(ps, string(p.Property)+" ("+p.Semantics+")")
		}
		fmt.Fprintf(w, "  %-13s %s\n  %-13s props: %s\n", a.Name, a.Summary, "", strings.Join(ps, ", "))
	}
}
