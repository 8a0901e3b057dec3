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

func init() {
	registerCommand(&command{Name: "prove", Summary: "run the claims catalogue (--quick for CI, --full for the complete families)", Help: proofs.Usage, Run: runProve})
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
	if code, done, err := parseOrHelp(e, fs, args, proofs.Usage, false); done {
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
