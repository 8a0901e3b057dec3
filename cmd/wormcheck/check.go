package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/props/check"
)

const checkHelp = `wormcheck check --algo A --topo T --prop P [flags]

Checks one property of one algorithm instance and prints the verdict with its evidence:
for a violation, a shortest counterexample (a trace of flit moves, or the two contending
unicasts with the channel and time). Without --json the output is for people; with --json
it is one object of schema wormcheck-report/1 (docs/report.md): schema, version, command,
instance, property, semantics, verdict, reason, stats, witness (with its kind), notes.
The same check from Go: check.Run in package props/check, with the flags' names as
parameters.

Common flags:
  --algo A          algorithm (list below)
  --topo T          topology: mesh:3x3, torus:4, torus:4x4, hypercube:3, banyan:16
  --prop P          property: deadlock, exactly-once, steps, stepwise, depth,
                    node-contention, nonblocking, any-delay (each algorithm lists its own)
  --json            print the report as one JSON object
  --workers N       explorer workers (default 1; the verdict and state count do not depend on it)
  --max-states N    state budget; reaching it gives verdict inconclusive (exit 3)
  --max-depth N     depth bound; reaching it gives verdict inconclusive (exit 3)
  --max-memory MiB  memory budget (visited store and frontiers); reaching it gives
                    inconclusive (default: 3/4 of the memory available; 0 = none)
  --store S         visited store: exact (default) or fingerprint (64-bit hashes, TLC-style)
  --spill-dir DIR   keep the frontier and parent records in files under DIR, not memory
                    (flit models: unicast, tree-mcast; same verdict, counts and trace)
  --symmetry        reduce by the topology's symmetries where the algorithm supports it
  --trace F.json    save a violation's trace; 'wormcheck replay F.json' re-runs it
  --svg F.svg       draw the witness
  --explore         after a violation, step through its trace in the browser (127.0.0.1)
  --pcap F.pcap     write a flit-level witness as pcap (LINKTYPE_USER0); wormcheck dissector decodes it
  --progress        report progress on stderr even when it is not a terminal
  --seed N          seed for algorithms that choose at random (default 1)

Families (--family, where the algorithm has them):
  --shard i/n       check only members i mod n
  --result F.json   the mergeable result, rewritten atomically as members finish
  --resume F.json   continue an interrupted run's result (a missing file starts afresh)

Ctrl-C or SIGTERM ends a check inconclusive (exit 3) with its statistics so far; a family
writes its partial result first. 'wormcheck slurm' runs a family as a Slurm array job.

Examples:
  wormcheck check --algo unicast --topo torus:4 --prop deadlock --dateline off --msgs '0->2,1->3,2->0,3->1' --trace wh2.json
  wormcheck replay wh2.json
`

func init() {
	registerCommand(&command{
		Name:    "check",
		Summary: "check one property of one algorithm instance",
		Help:    checkHelp,
		Run:     runCheck,
	})
}

// algoName finds the value of --algo in args before the flags are defined, since the
// algorithm decides which further flags exist.
func algoName(args []string) string { return flagValue(args, "algo") }

// flagValue returns the value args give flag name ("--name V", "--name=V", one dash
// too), or "". A flag given twice has its last value, as the flag package gives every
// other flag.
func flagValue(args []string, name string) string {
	v := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		for _, p := range []string{"--" + name, "-" + name} {
			if a == p && i+1 < len(args) {
				v = args[i+1]
				i++
				break
			}
			if s, ok := strings.CutPrefix(a, p+"="); ok {
				v = s
				break
			}
		}
	}
	return v
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs, turning flag errors into one-line usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

var errHelp = errors.New("help requested")

// given reports whether the flag name was set on the command line (not left at its
// default): a flag given an empty or zero value that means "the default" must be refused
// rather than silently read as the default.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseOrHelp parses args into fs (parseFlags). On -h or --help it prints help, and with
// withFlags the flags' defaults, and is done with exit 0; on bad flags it is done with the
// usage error; else the command goes on.
func parseOrHelp(e *env, fs *flag.FlagSet, args []string, help string, withFlags bool) (code int, done bool, err error) {
	switch err := parseFlags(fs, args); {
	case errors.Is(err, errHelp):
		io.WriteString(e.Stdout, help)
		if withFlags {
			flagHelp(e.Stdout, fs)
		}
		return exitHolds, true, nil
	case err != nil:
		return exitUsage, true, err
	}
	return 0, false, nil
}

// flagHelp renders the flags of fs for `--help`.
func flagHelp(w io.Writer, fs *flag.FlagSet) {
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

func runCheck(ctx context.Context, e *env, args []string) (int, error) {
	name := algoName(args)
	if name == "" && flagValue(args, "booksim") != "" {
		// a BookSim configuration names a network and a routing function: its worms
		// are unicasts (BookSim has no other)
		name = "unicast"
	}
	if name == "" {
		if slices.Contains(args, "-h") || slices.Contains(args, "--help") {
			fmt.Fprint(e.Stdout, checkHelp, algoHelp())
			return exitHolds, nil
		}
		return 0, usagef("--algo is missing; one of %s", strings.Join(algoNames(), ", "))
	}
	a, ok := check.Lookup(name)
	if !ok {
		return 0, usagef("--algo %q is unknown; one of %s", name, strings.Join(algoNames(), ", "))
	}
	var names []string
	for _, p := range a.PropertyNames() {
		names = append(names, string(p))
	}
	propList := strings.Join(names, ", ")
	if a.DefaultProperty != "" {
		propList += " (default " + string(a.DefaultProperty) + ")"
	}
	help := fmt.Sprintf("wormcheck check --algo %s: %s\nproperties: %s\n\n%s\n\nFlags:\n", a.Name, a.Summary, propList, a.Doc)
	return runEntry(ctx, e, entryRun{name: "check", algo: a, flags: check.CheckFlags, help: help, flagList: true}, args)
}

// algoNames lists the registry's algorithm names, sorted.
func algoNames() []string {
	var out []string
	for _, a := range check.Algorithms() {
		out = append(out, a.Name)
	}
	return out
}

// defineParams defines one flag per registry parameter (a boolean flag for a switch) and
// returns a function that reads, after parsing, the values of those the command line
// set as the entry's parameters (the entry takes its defaults for the others).
func defineParams(fs *flag.FlagSet, ps []check.Param) func() map[string]string {
	read := make(map[string]func() string, len(ps))
	for _, p := range ps {
		if p.IsBool() {
			v := fs.Bool(p.Name, p.Default == "true", p.Usage)
			read[p.Name] = func() string { return strconv.FormatBool(*v) }
			continue
		}
		v := fs.String(p.Name, p.Default, p.Usage)
		read[p.Name] = func() string { return *v }
	}
	return func() map[string]string {
		out := map[string]string{}
		fs.Visit(func(f *flag.Flag) {
			if r, ok := read[f.Name]; ok {
				out[f.Name] = r()
			}
		})
		return out
	}
}
