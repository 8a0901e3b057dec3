package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/proofs"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

const proveHelp = `wormcheck prove [--quick | --full] [--only IDS] [--json] [--workers N] [--witness-dir D]

Runs the claims catalogue: every claim of the source papers that wormcheck
machine-checks, each with its source, semantics and expected verdict, and prints a table
of claim, source, semantics, expected, verdict, instances, states and time. Each claim
is checked on its instance families at one of three sizes:

  --quick    the small families CI runs: about 15 s of CPU in all
  (default)  bigger families: about 45 s of CPU, under three minutes of wall time on
             2 cores even when they are shared
  --full     the complete families: about an hour on 2 cores (TM2 and TM3 take most)

The exit code is 0 when every verdict is as expected, 1 otherwise, and 3 when the run
was interrupted (SIGINT, SIGTERM, --max-memory or --time-limit): the running claim is
reported inconclusive with what it had counted, the claims after it "not run".

Flags:
  --quick           the small families
  --full            the complete families
  --only IDS        comma-separated claim ids, e.g. --only WH1,WH2
  --json            one object: version, size, as_expected, interrupted, claims[{id,
                    source, claim, semantics, expected, verdict, instances, states,
                    seconds, witness}]; the witness is a wormcheck witness object
                    (kind trace, pair, instance, ...) or null
  --workers N       members checked at once (default: the number of CPUs); verdicts
                    and state counts do not depend on it
  --witness-dir D   for every claim with a witness: D/ID.json, a trace file that
                    'wormcheck replay', render and explore take (MN6B adds ID.async.json);
                    D/ID.svg its picture; D/ID.pcap its capture (flit claims); for a claim
                    whose witness is no trace, D/ID.report.json (the report of a timed
                    claim's contending pair) or D/ID.witness.json (a blocking pattern, an
                    unreachable pair), which replay and render name as such
  --progress        progress lines on stderr even when it is not a terminal (on a
                    terminal one line is updated in place): claim, family, members
                    done/total, states, states/s, elapsed, ETA of the family, memory
  --list            list the claims and what each family holds at each size
  --max-memory MiB, --time-limit D
                    stop the run as a signal does when the process outgrows MiB
                    (default 3/4 of the memory available) or after D

Examples:
  wormcheck prove --quick
  wormcheck prove --only WH2 --witness-dir out && wormcheck replay out/WH2.json
`

func init() {
	registerCommand(&command{Name: "prove", Summary: "run the claims catalogue (--quick for CI, --full for the complete families)", Help: proveHelp, Run: runProve})
}

func runProve(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("prove")
	quick := fs.Bool("quick", false, "small families")
	full := fs.Bool("full", false, "complete families")
	only := fs.String("only", "", "claim ids")
	asJSON := fs.Bool("json", false, "JSON output")
	workers := fs.Int("workers", runtime.NumCPU(), "members checked at once")
	witnessDir := fs.String("witness-dir", "", "directory for witnesses")
	progress := fs.Bool("progress", false, "progress on stderr")
	list := fs.Bool("list", false, "list claims")
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, proveHelp, false); done {
		return code, err
	}
	if given(fs, "only") && strings.TrimSpace(*only) == "" {
		return 0, usagef("--only is empty; give claim ids such as WH1,DC5, or leave --only out for every claim")
	}
	opt, err := proofs.NewOptions(*quick, *full, *workers)
	if err != nil {
		return 0, usagef("%v", err)
	}
	claims, err := proofs.Select(*only)
	if err != nil {
		return 0, usagef("%v", err)
	}
	if *list {
		proofs.WriteClaims(e.Stdout, claims)
		return exitHolds, nil
	}
	if *witnessDir != "" {
		if err := os.MkdirAll(*witnessDir, 0o755); err != nil {
			return 0, usagef("--witness-dir: %v", err)
		}
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	var rep *proofs.Progress
	if *progress || e.StderrIsTerminal {
		rep = proofs.StartProgress(e.Stderr, opt.Meter, e.StderrIsTerminal)
	}
	out := proofs.NewReport(toolVersion(), opt.Size)
	var table *proofs.Table
	if !*asJSON {
		table = proofs.NewTable(e.Stdout)
	}
	var drawErr error // the first witness that could not be drawn; the run goes on
	err = out.Run(ctx, claims, opt, func(r proofs.Result, cj proofs.ClaimReport) error {
		rep.ClaimDone(r)
		if *witnessDir != "" {
			if err := writeWitnessFiles(*witnessDir, cj.ID, r.Outcome.Files); err != nil {
				return err
			}
			if err := drawWitness(*witnessDir, cj.ID, r.Outcome.Evidence); err != nil && drawErr == nil {
				drawErr = err
			}
		}
		table.Row(cj)
		return nil
	})
	rep.Stop()
	if err != nil {
		return 0, err
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, out); err != nil {
			return 0, err
		}
	} else {
		table.Finish(out)
	}
	if drawErr != nil {
		return 0, drawErr
	}
	return out.Verdict().ExitCode(), nil
}

// drawWitness writes a claim's evidence as DIR/ID.svg and, where it has a capture (a
// flit-level or banyan run), DIR/ID.pcap.
func drawWitness(dir, id string, ev props.Evidence) error {
	if ev == nil {
		return nil
	}
	files := map[string][]byte{}
	pic, err := render.Picture(ev)
	if err != nil {
		return fmt.Errorf("witness picture of %s: %v", id, err)
	}
	files["svg"] = pic
	capture, err := render.Capture(ev)
	if err != nil {
		return fmt.Errorf("witness capture of %s: %v", id, err)
	}
	if capture != nil {
		files["pcap"] = capture
	}
	return writeWitnessFiles(dir, id, files)
}

// writeWitnessFiles writes a claim's witness files as DIR/ID.EXT, in the order of their
// extensions.
func writeWitnessFiles(dir, id string, files map[string][]byte) error {
	exts := make([]string, 0, len(files))
	for ext := range files {
		exts = append(exts, ext)
	}
	slices.Sort(exts)
	for _, ext := range exts {
		p := filepath.Join(dir, id+"."+ext)
		if err := writeOutput(p, files[ext], 0o644); err != nil {
			return fmt.Errorf("writing witness %s: %v", p, err)
		}
	}
	return nil
}
