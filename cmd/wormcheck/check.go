package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/props"
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
func algoName(args []string) string {
	for i, a := range args {
		for _, p := range []string{"--algo", "-algo"} {
			if a == p && i+1 < len(args) {
				return args[i+1]
			}
			if v, ok := strings.CutPrefix(a, p+"="); ok {
				return v
			}
		}
	}
	return ""
}

func defineCommon(fs *flag.FlagSet, c *common) (showProgress *bool) {
	fs.StringVar(&c.Topo, "topo", "", "topology spec")
	fs.StringVar(&c.Faults, "faults", "", "failed links of the --topo grid: A-B (both ways) or A->B, comma-separated, e.g. '(1,1)-(2,1),9->10'")
	fs.StringVar(&c.BookSim, "booksim", "", "read topology, routing_function, num_vcs, vc_buf_size and packet_size from this BookSim2 configuration `file`")
	fs.StringVar(&c.Prop, "prop", "", "property to check")
	fs.BoolVar(&c.JSON, "json", false, "print one JSON object")
	fs.IntVar(&c.Workers, "workers", 1, "explorer workers")
	fs.Int64Var(&c.MaxStates, "max-states", 0, "state budget (0 = none)")
	fs.IntVar(&c.MaxDepth, "max-depth", 0, "depth bound (0 = none)")
	fs.Int64Var(&c.MaxMemMB, "max-memory", progress.DefaultMemoryMiB(), "memory budget in MiB (0 = none; default 3/4 of the memory available at the start)")
	fs.StringVar(&c.Store, "store", "exact", "visited store: exact or fingerprint")
	fs.BoolVar(&c.Symmetry, "symmetry", false, "symmetry reduction")
	fs.StringVar(&c.Trace, "trace", "", "write a violation's trace to this file")
	fs.StringVar(&c.SVG, "svg", "", "draw the witness to this SVG file")
	fs.StringVar(&c.PCAP, "pcap", "", "write a flit-level witness as pcap")
	fs.Int64Var(&c.Seed, "seed", 1, "random seed")
	fs.StringVar(&c.SpillDir, "spill-dir", "", "keep the frontier and parent records in files under this directory")
	fs.StringVar(&c.Search, "search", "bfs", "bfs (exhaustive, shortest trace) or swarm (randomised walks on every core hunting for a deadlock; never holds)")
	fs.StringVar(&c.Reduction, "reduction", "stubborn", "reduction of flit searches: stubborn (the lean model, with stubborn sets where sound: an acyclic relation, no symmetry), lean (the lean model only: worms compacted, lowest free VC of a class) or none (the flit model itself, every flit move a step)")
	fs.DurationVar(&c.TimeLimit, "time-limit", 0, "stop the search after this long, inconclusive (e.g. 30s; 0 = none; a swarm needs one)")
	return fs.Bool("progress", false, "show progress on stderr")
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
	return runEntryCheck(ctx, e, a, args)
}

// algoNames lists the registry's algorithm names, sorted.
func algoNames() []string {
	var out []string
	for _, a := range check.Algorithms() {
		out = append(out, a.Name)
	}
	return out
}

// runEntryCheck runs `check` for an algorithm of the library registry: the common flags,
// one flag per documented parameter, and --result for algorithms with families.
func runEntryCheck(ctx context.Context, e *env, a check.Algorithm, args []string) (int, error) {
	var c common
	fs := newFlagSet("check")
	fs.String("algo", "", "algorithm")
	showProgress := defineCommon(fs, &c)
	params := defineParams(fs, a.Params)
	explore := fs.Bool("explore", false, "after a violation, step through its trace in the browser (127.0.0.1)")
	var result, resume string
	var every time.Duration
	if a.Families {
		fs.StringVar(&result, "result", "", "with --family: write the family result (JSON, for wormcheck merge) to this `file`, updated as members finish")
		fs.StringVar(&resume, "resume", "", "with --family: continue the result in this `file` (a missing file starts afresh); it is updated unless --result names another")
		fs.DurationVar(&every, "checkpoint-every", time.Second, "with --result: rewrite the result file at most this often as members finish")
	}
	propList := strings.Join(a.PropertyNames(), ", ")
	if a.DefaultProperty != "" {
		propList += " (default " + a.DefaultProperty + ")"
	}
	help := fmt.Sprintf("wormcheck check --algo %s: %s\nproperties: %s\n\n%s\n\nFlags:\n", a.Name, a.Summary, propList, a.Doc)
	if code, done, err := parseOrHelp(e, fs, args, help, true); done {
		return code, err
	}
	bs, err := topologyFlags(e, &c.Topo, c.Faults, c.BookSim)
	if err != nil {
		return 0, err
	}
	in := check.Instance{Algorithm: a.Name, Topology: c.Topo, Params: params()}
	if bs != nil {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for name, v := range map[string]int{"vcs": bs.VCs, "buffers": bs.Buffer, "length": bs.Length} {
			if _, has := in.Params[name]; has && !set[name] && v > 0 {
				in.Params[name] = strconv.Itoa(v)
			}
		}
		if _, has := in.Params["routing"]; has && !set["routing"] && bs.Routing != "" {
			in.Params["routing"] = bs.Routing
		}
	}
	if (result != "" || resume != "") && in.Params["family"] == "" {
		return 0, usagef("--result and --resume need --family")
	}
	opt, err := c.options()
	if err != nil {
		return 0, err
	}
	// The overview picture of a holding instance is drawn only when --svg asks for it:
	// on a large schedule it costs seconds, many times the check.
	opt.ViolationPicturesOnly = c.SVG == ""
	if a.Families {
		if result, err = familyFiles(&opt, result, resume, every); err != nil {
			return 0, err
		}
	}
	if *showProgress || e.StderrIsTerminal {
		opt.Progress = e.Stderr
	}
	// The searches bound their own heap (Options.MaxMemoryBytes); the watcher of the
	// process's resident set covers what they do not count and the algorithms that do
	// not account for theirs.
	ctx, release, err := budgetContext(ctx, c.MaxMemMB<<20, c.TimeLimit)
	if err != nil {
		return 0, err
	}
	defer release()
	rep, err := budgeted(ctx, func() (*props.Report, error) { return check.Run(ctx, in, c.Prop, opt) })
	if errors.Is(err, errStopped) {
		params := map[string]any{}
		for k, v := range in.Params {
			if v != "" {
				params[k] = v
			}
		}
		prop := c.Prop
		if prop == "" {
			prop = a.DefaultProperty
		}
		if names := a.PropertyNames(); prop == "" && len(names) == 1 {
			prop = names[0]
		}
		sem := ""
		for _, sp := range a.Properties {
			if sp.Property == prop {
				sem = sp.Semantics
				break
			}
		}
		return stoppedReport(ctx, e, "check", props.Instance{Topology: in.Topology, Algorithm: in.Algorithm, Params: params}, prop, sem, c.JSON)
	}
	if err != nil {
		if errors.Is(err, check.ErrBadInput) {
			return 0, usagef("%v", err)
		}
		return 0, err
	}
	if result != "" && rep.Result != nil {
		if err := writeOutput(result, append(rep.Result, '\n'), 0o644); err != nil {
			return 0, fmt.Errorf("writing --result: %v", err)
		}
		if rep.Verdict == checker.Inconclusive && ctx.Err() != nil {
			rep.Reason += fmt.Sprintf(" (--resume %s)", result)
		}
	}
	code, err := emitReport(e, "check", rep, c.JSON, artefacts{Trace: c.Trace, SVG: c.SVG, PCAP: c.PCAP})
	if err != nil || !*explore {
		return code, err
	}
	if rep.Trace == nil {
		fmt.Fprintf(e.Stderr, "wormcheck: no flit-level trace to explore (verdict %s)\n", rep.Verdict)
		return code, nil
	}
	sc, err := traceScene(rep.Trace)
	if err != nil {
		return 0, err
	}
	return code, serveExplorer(ctx, e, sc, "127.0.0.1:0")
}

// familyFiles sets up checkpointing for a family run: the result so far is written to the
// --result file (atomically, so that a kill at any moment leaves a valid file) as members
// finish, and --resume reads an earlier result to continue; a missing --resume file
// starts afresh, which is what a first attempt of a requeued Slurm task finds. It returns
// the file the result goes to (--resume's when --result is not given).
func familyFiles(opt *check.Options, result, resume string, every time.Duration) (string, error) {
	if every <= 0 {
		return "", usagef("--checkpoint-every %v must be positive", every)
	}
	if resume != "" {
		if result == "" {
			result = resume
		}
		data, err := os.ReadFile(resume)
		switch {
		case errors.Is(err, iofs.ErrNotExist):
		case err != nil:
			return "", usagef("--resume: %v", err)
		default:
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
	opt := check.Options{Workers: c.Workers, MaxStates: c.MaxStates, MaxDepth: c.MaxDepth,
		MaxMemoryBytes: c.MaxMemMB << 20, Symmetry: c.Symmetry, Seed: c.Seed, SpillDir: c.SpillDir}
	var err error
	switch c.Search {
	case "bfs":
	case "swarm":
		if c.TimeLimit <= 0 {
			return opt, usagef("--search swarm needs --time-limit (a swarm that finds nothing runs until stopped)")
		}
		opt.Swarm = true
	default:
		return opt, usagef("--search %q is unknown; use bfs or swarm", c.Search)
	}
	if c.TimeLimit < 0 {
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
	if opt.Store, err = storeNamed(c.Store); err != nil {
		return opt, err
	}
	return opt, opt.Validate()
}

// storeNamed returns the visited store --store names: "exact" (every state kept) or
// "fingerprint" (64-bit hashes, TLC-style).
func storeNamed(name string) (checker.StoreMode, error) {
	switch name {
	case "exact":
		return checker.Exact, nil
	case "fingerprint":
		return checker.Fingerprint, nil
	}
	return checker.Exact, usagef("--store %q is unknown; use exact or fingerprint", name)
}

// artefacts are the files a violation may be written to.
type artefacts struct{ Trace, SVG, PCAP string }

// emitReport writes the requested artefacts, prints the report and returns the exit code
// of its verdict.
func emitReport(e *env, cmd string, rep *props.Report, asJSON bool, files artefacts) (int, error) {
	rep.Schema = props.ReportSchema
	rep.Version = toolVersion()
	rep.Command = cmd
	if err := writeArtefacts(e, rep, files); err != nil {
		return 0, err
	}
	if asJSON {
		if err := writeJSON(e.Stdout, rep); err != nil {
			return 0, err
		}
	} else {
		io.WriteString(e.Stdout, rep.String())
	}
	return rep.Verdict.ExitCode(), nil
}

func writeArtefacts(e *env, rep *props.Report, files artefacts) error {
	write := func(path, what string, data []byte) error {
		if path == "" {
			return nil
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
	if rep.Trace != nil {
		var err error
		if traceJSON, err = marshalIndent(rep.Trace); err != nil {
			return err
		}
	}
	if err := write(files.Trace, "trace", traceJSON); err != nil {
		return err
	}
	if err := write(files.SVG, "picture", rep.SVG); err != nil {
		return err
	}
	return write(files.PCAP, "pcap capture", rep.PCAP)
}

// defineParams defines one flag per registry parameter (a boolean flag for a switch) and
// returns a function that reads their values, after parsing, as the entry's parameters.
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
		out := make(map[string]string, len(read))
		for name, r := range read {
			out[name] = r()
		}
		return out
	}
}
