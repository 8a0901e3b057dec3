package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/render"
)

// This file runs an entry of the library's registry as a command: `check --algo A` and
// every command of its own (check.Commands: routing, partition, ...), which it
// registers. The flags are the entry's parameters and the common flags its
// check.Flags name; the rest is the entry's.

func init() {
	for _, a := range check.Commands() {
		c := a.Command
		registerCommand(&command{Name: c.Name, Summary: a.Summary, Help: c.Usage,
			Run: func(ctx context.Context, e *env, args []string) (int, error) {
				return runEntry(ctx, e, entryRun{name: c.Name, algo: a, flags: c.Flags, help: c.Usage, flagList: c.ListFlags, prop: c.Property}, args)
			}})
	}
}

// entryRun is one command line of an entry: the command's name, the entry, its common
// flags, its help (with flagList, followed by the flags' defaults) and the property a
// command of its own checks.
type entryRun struct {
	name     string
	algo     check.Algorithm
	flags    check.Flags
	help     string
	flagList bool
	prop     props.Property
}

// common holds the common flags' values (check.Flags).
type common struct {
	Topo, Faults, BookSim    string
	Prop                     string
	JSON, Symmetry, Progress bool
	Workers                  int
	MaxStates                int64
	MaxDepth                 int
	Store, SpillDir          string
	Search, Reduction        string
	Seed                     int64
	Trace, SVG, PCAP         string
	Result, Resume           string
	Every                    time.Duration
	Explore                  bool
	budget                   *budget
}

// define defines the common flags flags names (and, for `check`, --algo and --explore;
// for an algorithm with families, --result, --resume and --checkpoint-every).
func (c *common) define(fs *flag.FlagSet, r entryRun) {
	has := func(f check.Flags) bool { return r.flags&f != 0 }
	if r.name == "check" {
		fs.String("algo", "", "algorithm")
	}
	if r.name == "check" || has(check.FlagExplore) {
		fs.BoolVar(&c.Explore, "explore", false, "after a violation, step through its trace in the browser (127.0.0.1)")
	}
	if has(check.FlagTopology) {
		fs.StringVar(&c.Topo, "topo", "", "topology spec")
	}
	if has(check.FlagNetwork) {
		fs.StringVar(&c.Faults, "faults", "", "failed links of the --topo grid: A-B (both ways) or A->B, comma-separated, e.g. '(1,1)-(2,1),9->10'")
		fs.StringVar(&c.BookSim, "booksim", "", "read topology, routing_function, num_vcs, vc_buf_size and packet_size from this BookSim2 configuration `file`")
	}
	if has(check.FlagJSON) {
		fs.BoolVar(&c.JSON, "json", false, "print one JSON object")
	}
	if has(check.FlagTrace) {
		fs.StringVar(&c.Trace, "trace", "", "write a violation's trace to this file")
	}
	if has(check.FlagSVG) {
		fs.StringVar(&c.SVG, "svg", "", "draw the witness to this SVG file")
	}
	if has(check.FlagPCAP) {
		fs.StringVar(&c.PCAP, "pcap", "", "write a flit-level witness as pcap")
	}
	if has(check.FlagSearch) {
		fs.StringVar(&c.Prop, "prop", "", "property to check")
		fs.IntVar(&c.Workers, "workers", 1, "explorer workers")
		fs.Int64Var(&c.MaxStates, "max-states", 0, "state budget (0 = none)")
		fs.IntVar(&c.MaxDepth, "max-depth", 0, "depth bound (0 = none)")
		fs.StringVar(&c.Store, "store", "exact", "visited store: exact or fingerprint")
		fs.BoolVar(&c.Symmetry, "symmetry", false, "symmetry reduction")
		fs.Int64Var(&c.Seed, "seed", 1, "random seed")
		fs.StringVar(&c.SpillDir, "spill-dir", "", "keep the frontier and parent records in files under this directory")
		fs.StringVar(&c.Search, "search", "auto", "auto (unicast: the static decision of the relation first, then the exhaustive search with swarm walkers beside it once it has run a second; others: bfs), bfs (the exhaustive flit search alone, shortest trace) or swarm (randomised walks on every core hunting for a deadlock; never holds)")
		fs.StringVar(&c.Reduction, "reduction", "stubborn", "reduction of flit searches: stubborn (the lean model, with stubborn sets where sound: an acyclic relation, no symmetry), lean (the lean model only: worms compacted, lowest free VC of a class) or none (the flit model itself, every flit move a step)")
	}
	if has(check.FlagBudget) && has(check.FlagSearch) {
		c.budget = &budget{}
		fs.Int64Var(&c.budget.maxMemMB, "max-memory", progress.DefaultMemoryMiB(), "memory budget in MiB (0 = none; default 3/4 of the memory available at the start)")
		fs.DurationVar(&c.budget.timeLimit, "time-limit", 0, "stop the search after this long, inconclusive (e.g. 30s; 0 = none; a swarm needs one)")
	} else if has(check.FlagBudget) {
		c.budget = defineBudget(fs)
	}
	if has(check.FlagProgress) {
		fs.BoolVar(&c.Progress, "progress", false, "show progress on stderr")
	}
	if r.name == "check" && r.algo.Families {
		fs.StringVar(&c.Result, "result", "", "with --family: write the family result (JSON, for wormcheck merge) to this `file`, updated as members finish")
		fs.StringVar(&c.Resume, "resume", "", "with --family: continue the result in this `file` (a missing file starts afresh); it is updated unless --result names another")
		fs.DurationVar(&c.Every, "checkpoint-every", time.Second, "with --result: rewrite the result file at most this often as members finish")
	}
}

// runEntry runs one entry: flags into an Instance and Options, check.Run under the
// budget, the family result and the artefacts written, the report printed.
func runEntry(ctx context.Context, e *env, r entryRun, args []string) (int, error) {
	var c common
	fs := newFlagSet(r.name)
	c.define(fs, r)
	params := defineParams(fs, r.algo.Params)
	if code, done, err := parseOrHelp(e, fs, args, r.help, r.flagList); done {
		return code, err
	}
	var maxMem int64
	var limit time.Duration
	if c.budget != nil {
		maxMem, limit = c.budget.maxMemMB<<20, c.budget.timeLimit
	}
	// The searches bound their own heap (Options.MaxMemoryBytes); the watcher of the
	// process's resident set covers what they do not count, the entries that do not
	// account for theirs and the files read before the check.
	ctx, release, err := budgetContext(ctx, maxMem, limit)
	if err != nil {
		return 0, err
	}
	defer release()
	in, err := c.instance(ctx, e, r.algo, params(), maxMem)
	if errors.Is(err, errStopped) {
		return stoppedReading(ctx, e, r.name, c.BookSim)
	}
	if err != nil {
		return 0, err
	}
	files := artefacts{Trace: c.Trace, SVG: c.SVG, PCAP: c.PCAP}
	if cmd := r.algo.Command; cmd != nil && r.name != "check" {
		if cmd.Picture != "" {
			files.SVG = in.Params[cmd.Picture]
		}
		if cmd.Capture != "" {
			files.PCAP = in.Params[cmd.Capture]
		}
	}
	prop := props.Property(c.Prop)
	if prop == "" {
		prop = r.prop
	}
	if (c.Result != "" || c.Resume != "") && in.Params["family"] == "" {
		return 0, usagef("--result and --resume need --family")
	}
	opt, err := c.options()
	if err != nil {
		return 0, err
	}
	if given(fs, "reduction") && !r.algo.FlitSearch() {
		return 0, usagef("--reduction chooses the partial-order reduction of the flit-level searches of --algo unicast and tree-mcast; %s's checks have none to choose", r.algo.Name)
	}
	if c.Result != "" || c.Resume != "" {
		c.Result, err = familyFiles(ctx, &opt, c.Result, c.Resume, c.Every, maxMem)
		if errors.Is(err, errStopped) {
			return stoppedReading(ctx, e, r.name, c.Resume)
		}
		if err != nil {
			return 0, err
		}
	}
	if c.Progress || (e.StderrIsTerminal && r.flags&check.FlagProgress != 0) {
		opt.Progress = e.Stderr
	}
	if !c.JSON {
		opt.Text = e.Stdout
	}
	opt.MaxMemoryBytes = maxMem
	rep, err := budgeted(ctx, func() (*props.Report, error) { return check.Run(ctx, in, prop, opt) })
	// An error other than bad input once ctx has ended is the stop's (a routing file's
	// read it cut short).
	if errors.Is(err, errStopped) || (err != nil && !errors.Is(err, check.ErrBadInput) && ctx.Err() != nil) {
		rep, err = check.Stopped(in, prop, r.name, stopReason(ctx)), nil
	}
	if err != nil {
		if errors.Is(err, check.ErrBadInput) {
			return 0, usagef("%v", err)
		}
		return 0, err
	}
	if c.Result != "" && rep.Result != nil {
		if err := writeOutput(c.Result, append(rep.Result, '\n'), 0o644); err != nil {
			return 0, fmt.Errorf("writing --result: %v", err)
		}
		if rep.Verdict == props.Inconclusive && ctx.Err() != nil {
			rep.Reason += fmt.Sprintf(" (--resume %s)", c.Result)
		}
	}
	code, err := emitReport(e, r.name, rep, c.JSON, files)
	if err != nil || !c.Explore {
		return code, err
	}
	if !explorable(rep.Evidence) {
		fmt.Fprintf(e.Stderr, "wormcheck: no trace to explore (verdict %s)\n", rep.Verdict)
		return code, nil
	}
	sc, err := render.SceneOf(rep.Evidence)
	if err != nil {
		return 0, usagef("--explore: %v", err)
	}
	return code, serveExplorer(ctx, e, sc, "127.0.0.1:0")
}

// explorable says whether the evidence is a run the explorer steps through: a
// flit-level trace or a fabric's deadlock.
func explorable(ev props.Evidence) bool {
	switch e := ev.(type) {
	case *props.FlitEvidence:
		return true
	case *props.FabricEvidence:
		return e.Model != nil
	}
	return false
}

// instance is the Instance the flags name, with the --booksim configuration read (the
// entry takes from it what the flags do not set; keys BookSim does not define are
// listed on stderr).
func (c *common) instance(ctx context.Context, e *env, a check.Algorithm, params map[string]string, maxMem int64) (check.Instance, error) {
	in := check.Instance{Algorithm: a.Name, Topology: c.Topo, Params: params, Faults: c.Faults}
	if c.BookSim == "" {
		return in, nil
	}
	data, err := readInput(ctx, c.BookSim, check.BookSimKind, maxMem)
	if err != nil {
		if errors.Is(err, errStopped) {
			return in, err
		}
		return in, usagef("--booksim: %v", err)
	}
	if in.BookSim, err = check.ReadBookSim(c.BookSim, data); err != nil {
		return in, err
	}
	if u := in.BookSim.Config.Unknown; len(u) > 0 {
		fmt.Fprintf(e.Stderr, "wormcheck: --booksim %s: keys BookSim does not define (it would refuse the file): %s\n", c.BookSim, strings.Join(u, ", "))
	}
	return in, nil
}

// familyFiles sets up checkpointing for a family run: the result so far is written to the
// --result file (atomically, so that a kill at any moment leaves a valid file) as members
// finish, and --resume reads an earlier result to continue; a missing --resume file
// starts afresh, which is what a first attempt of a requeued Slurm task finds. It returns
// the file the result goes to (--resume's when --result is not given). The --resume file
// is read under ctx and the memory budget maxMem (readInput).
func familyFiles(ctx context.Context, opt *check.Options, result, resume string, every time.Duration, maxMem int64) (string, error) {
	if every <= 0 {
		return "", usagef("--checkpoint-every %v must be positive", every)
	}
	if resume != "" {
		if result == "" {
			result = resume
		}
		_, err := os.Stat(resume)
		if !errors.Is(err, iofs.ErrNotExist) {
			data, err := readInput(ctx, resume, check.CheckpointKind, maxMem)
			switch {
			case errors.Is(err, errStopped):
				return "", err
			case err != nil:
				return "", usagef("--resume: %v", err)
			}
			opt.Resume = data
		}
	}
	if result != "" {
		opt.CheckpointEvery = every
		opt.Checkpoint = func(b []byte) error {
			if err := writeOutput(result, append(b, '\n'), 0o644); err != nil {
				return fmt.Errorf("writing --result: %v", err)
			}
			return nil
		}
	}
	return result, nil
}

// options converts the common flags into the entry's options; flag values that no
// algorithm could accept are refused here with the flag's name.
func (c *common) options() (check.Options, error) {
	opt := check.Options{Workers: max(c.Workers, 1), MaxStates: c.MaxStates, MaxDepth: c.MaxDepth,
		Symmetry: c.Symmetry, Seed: c.Seed, SpillDir: c.SpillDir}
	if c.Search == "" { // a command without the search's flags
		return opt, nil
	}
	if err := usableSpillDir(c.SpillDir); err != nil {
		return opt, err
	}
	var limit time.Duration
	if c.budget != nil {
		limit = c.budget.timeLimit
	}
	var err error
	switch c.Search {
	case "auto":
		opt.Static, opt.Portfolio = true, true
	case "bfs":
	case "swarm":
		if limit <= 0 {
			return opt, usagef("--search swarm needs --time-limit (a swarm that finds nothing runs until stopped)")
		}
		opt.Swarm = true
	default:
		return opt, usagef("--search %q is unknown; use auto, bfs or swarm", c.Search)
	}
	if limit < 0 {
		return opt, usagef("--time-limit must not be negative")
	}
	switch c.Reduction {
	case "stubborn":
		opt.Reduction = !c.Symmetry
	case "lean":
	case "none":
		opt.FlitModel = true
	default:
		return opt, usagef("--reduction %q is unknown; use stubborn, lean or none", c.Reduction)
	}
	if opt.Store, err = check.StoreNamed(c.Store); err != nil {
		return opt, err
	}
	opt.Workers = c.Workers
	return opt, opt.Validate()
}

// artefacts are the files a violation may be written to.
type artefacts struct{ Trace, SVG, PCAP string }

// emitReport prints the report (its Body, where it has one), then writes the requested
// artefacts: the trace, and the picture and capture props/render makes of the report's
// evidence. It returns the exit code of the verdict, or a file that could not be drawn
// or written (after the report was printed).
func emitReport(e *env, cmd string, rep *props.Report, asJSON bool, files artefacts) (int, error) {
	rep.Schema = props.ReportSchema
	rep.Version = toolVersion()
	rep.Command = cmd
	switch {
	case rep.Body != nil && asJSON:
		rep.Body.SetVersion(toolVersion())
		if err := writeJSON(e.Stdout, rep.Body); err != nil {
			return 0, err
		}
	case rep.Body != nil:
		rep.Body.WriteText(e.Stdout)
	case asJSON:
		if err := writeJSON(e.Stdout, rep); err != nil {
			return 0, err
		}
	default:
		io.WriteString(e.Stdout, rep.String())
	}
	if err := writeArtefacts(e, rep, files); err != nil {
		return 0, err
	}
	return rep.Verdict.ExitCode(), nil
}

// writeArtefacts writes the files asked for: the trace (JSON), the picture (SVG) and
// the capture (pcap) of the evidence. Nothing to write is said on stderr; a picture
// or capture that cannot be made, or a file that cannot be written, is an error.
func writeArtefacts(e *env, rep *props.Report, files artefacts) error {
	write := func(path, what string, data []byte, err error) error {
		if path == "" {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s %s: %v", what, path, err)
		}
		if data == nil {
			fmt.Fprintf(e.Stderr, "wormcheck: no %s to write to %s (verdict %s)\n", what, path, rep.Verdict)
			return nil
		}
		if err := writeOutput(path, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %v", what, err)
		}
		return nil
	}
	var traceJSON []byte
	var err error
	if rep.Trace != nil && files.Trace != "" {
		traceJSON, err = marshalIndent(rep.Trace)
	}
	if err := write(files.Trace, "trace", traceJSON, err); err != nil {
		return err
	}
	var pic, capture []byte
	if files.SVG != "" {
		pic, err = render.Picture(rep.Evidence)
	}
	if err := write(files.SVG, "picture", pic, err); err != nil {
		return err
	}
	if files.PCAP != "" {
		capture, err = render.Capture(rep.Evidence)
	}
	return write(files.PCAP, "pcap capture", capture, err)
}

// usableSpillDir checks that --spill-dir names a directory the search can make its files
// in (by making and removing a directory there), so that an unusable one is a usage
// error before the search rather than an inconclusive run after it.
func usableSpillDir(dir string) error {
	if dir == "" {
		return nil
	}
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("--spill-dir %s: %v", dir, errors.Unwrap(err))
	case !st.IsDir():
		return usagef("--spill-dir %s is not a directory", dir)
	}
	probe, err := os.MkdirTemp(dir, "wormcheck-probe-")
	if err != nil {
		return usagef("--spill-dir %s: the search cannot make its files there: %v", dir, errors.Unwrap(err))
	}
	os.Remove(probe)
	return nil
}
