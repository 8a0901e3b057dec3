package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/wormcheck/wormcheck/proofs"
	"github.com/wormcheck/wormcheck/props"
)

const proveHelp = `wormcheck prove [--quick] [--only IDS] [--json] [--workers N] [--witness-dir D]

Runs the claims catalogue (../shared/DESIGN.md): every claim of the source papers that
wormcheck machine-checks, each with its source, semantics and expected verdict, and prints
a table of claim, source, semantics, expected, verdict, instances, states and time. The
exit code is 0 when every verdict is as expected and 1 otherwise.

Flags:
  --quick           smaller instance families (seconds per claim; what CI runs)
  --only IDS        comma-separated claim ids, e.g. --only WH1,WH2
  --json            one object: version, as_expected, claims[{id, source, claim, semantics,
                    expected, verdict, instances, states, seconds, witness}]
  --workers N       explorer workers (state counts do not depend on it)
  --witness-dir D   write D/ID.json (replayable trace or witness), D/ID.svg, D/ID.pcap for
                    every claim that has a witness
  --progress        report progress on stderr even when it is not a terminal
  --list            list the claims without running them

Examples:
  wormcheck prove --quick
  wormcheck prove --only WH2 --witness-dir out && wormcheck replay out/WH2.json
`

func init() {
	registerCommand(&command{Name: "prove", Summary: "run the claims catalogue (--quick for CI)", Help: proveHelp, Run: runProve})
}

// claimJSON is one entry of `prove --json`.
type claimJSON struct {
	ID        string             `json:"id"`
	Source    string             `json:"source"`
	Claim     string             `json:"claim"`
	Semantics string             `json:"semantics"`
	Expected  string             `json:"expected"`
	Verdict   string             `json:"verdict"`
	AsExp     bool               `json:"as_expected"`
	Instances int                `json:"instances"`
	States    int64              `json:"states"`
	Seconds   float64            `json:"seconds"`
	Witness   any                `json:"witness"`
	Figures   map[string]float64 `json:"figures,omitempty"`
	Note      string             `json:"note,omitempty"`
	Error     string             `json:"error,omitempty"`
	// Certificate says how a flit or banyan claim knows every message is delivered.
	Certificate *props.Certificate `json:"certificate,omitempty"`
}

type proveJSON struct {
	Version    string      `json:"version"`
	Quick      bool        `json:"quick"`
	AsExpected bool        `json:"as_expected"`
	Claims     []claimJSON `json:"claims"`
}

func runProve(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("prove")
	quick := fs.Bool("quick", false, "smaller families")
	only := fs.String("only", "", "claim ids")
	asJSON := fs.Bool("json", false, "JSON output")
	workers := fs.Int("workers", 1, "explorer workers")
	witnessDir := fs.String("witness-dir", "", "directory for witnesses")
	progress := fs.Bool("progress", false, "progress on stderr")
	list := fs.Bool("list", false, "list claims")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(e.Stdout, proveHelp)
			return exitHolds, nil
		}
		return 0, err
	}
	if *workers < 1 || *workers > 256 {
		return 0, usagef("--workers %d is out of range; use 1..256", *workers)
	}
	claims, err := selectClaims(*only)
	if err != nil {
		return 0, err
	}
	if *list {
		tw := tabwriter.NewWriter(e.Stdout, 0, 2, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSOURCE\tSEMANTICS\tEXPECTED\tCLAIM")
		for _, c := range claims {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Source, c.Semantics, c.Expected, c.Statement)
		}
		tw.Flush()
		return exitHolds, nil
	}
	if *witnessDir != "" {
		if err := os.MkdirAll(*witnessDir, 0o755); err != nil {
			return 0, usagef("--witness-dir: %v", err)
		}
	}
	opt := proofs.Options{Quick: *quick, Workers: *workers}
	if *progress || e.StderrIsTerminal {
		opt.Progress = e.Stderr
	}
	out := proveJSON{Version: toolVersion(), Quick: *quick, AsExpected: true}
	const row = "%-5s  %-34s  %-9s  %-8s  %-12s  %-10s  %9s  %11s  %8s\n"
	if !*asJSON {
		fmt.Fprintf(e.Stdout, row, "CLAIM", "SOURCE", "SEMANTICS", "EXPECTED", "VERDICT", "", "INSTANCES", "STATES", "TIME")
	}
	var notes []string
	for _, c := range claims {
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "prove: %s ...\n", c.ID)
		}
		r := proofs.Run(ctx, c, opt)
		cj := claimJSON{
			ID: c.ID, Source: c.Source, Claim: c.Statement, Semantics: c.Semantics,
			Expected: string(c.Expected), Verdict: r.Outcome.Verdict, AsExp: r.AsExpected(),
			Instances: r.Outcome.Instances, States: r.Outcome.States, Seconds: r.Seconds,
			Witness: r.Outcome.Witness, Figures: r.Outcome.Figures, Note: r.Outcome.Note,
			Certificate: r.Outcome.Certificate,
		}
		if r.Outcome.Err != nil {
			cj.Error = oneLine(r.Outcome.Err.Error())
		}
		if !cj.AsExp {
			out.AsExpected = false
		}
		out.Claims = append(out.Claims, cj)
		if *witnessDir != "" {
			if err := writeWitnessFiles(*witnessDir, c.ID, r.Outcome.Files); err != nil {
				return 0, err
			}
		}
		if !*asJSON {
			mark := "ok"
			if !cj.AsExp {
				mark = "UNEXPECTED"
			}
			fmt.Fprintf(e.Stdout, row, c.ID, truncate(c.Source, 34), c.Semantics, c.Expected, cj.Verdict, mark,
				fmt.Sprint(cj.Instances), fmt.Sprint(cj.States), fmt.Sprintf("%.2fs", cj.Seconds))
			if cj.Error != "" {
				notes = append(notes, fmt.Sprintf("%s: error: %s", c.ID, cj.Error))
			}
			if cj.Note != "" {
				notes = append(notes, fmt.Sprintf("%s: %s", c.ID, cj.Note))
			}
		}
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, out); err != nil {
			return 0, err
		}
	} else {
		printNotes(e.Stdout, notes)
		if out.AsExpected {
			fmt.Fprintf(e.Stdout, "\nall %d claims as expected\n", len(out.Claims))
		} else {
			fmt.Fprintf(e.Stdout, "\nsome claims are NOT as expected\n")
		}
	}
	if !out.AsExpected {
		return exitViolated, nil
	}
	return exitHolds, nil
}

func printNotes(w io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w, "\nNotes:")
	for _, n := range notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

// selectClaims returns the catalogue, or the claims named in a comma-separated list.
func selectClaims(only string) ([]proofs.Claim, error) {
	all := proofs.All()
	if strings.TrimSpace(only) == "" {
		return all, nil
	}
	var out []proofs.Claim
	for _, id := range strings.Split(only, ",") {
		id = strings.ToUpper(strings.TrimSpace(id))
		c, ok := proofs.Lookup(id)
		if !ok {
			ids := make([]string, len(all))
			for i, c := range all {
				ids[i] = c.ID
			}
			return nil, usagef("--only: no claim %q; known: %s", id, strings.Join(ids, ","))
		}
		if !slices.ContainsFunc(out, func(x proofs.Claim) bool { return x.ID == id }) {
			out = append(out, c)
		}
	}
	return out, nil
}

func writeWitnessFiles(dir, id string, files map[string][]byte) error {
	exts := make([]string, 0, len(files))
	for ext := range files {
		exts = append(exts, ext)
	}
	slices.Sort(exts)
	for _, ext := range exts {
		p := filepath.Join(dir, id+"."+ext)
		if err := os.WriteFile(p, files[ext], 0o644); err != nil {
			return fmt.Errorf("writing witness %s: %v", p, err)
		}
	}
	return nil
}

// truncate shortens s to at most n runes, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
