package proofs

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// This file writes a catalogue run for people: the table `wormcheck prove` prints row by
// row as claims finish, and the list of claims with their families (`prove --list`).

// tableRow is the format of the table's header and rows.
const tableRow = "%-5s  %-34s  %-15s  %-8s  %-12s  %-10s  %9s  %11s  %8s\n"

// Table writes a run as a table: a header when made, one row per claim (Row) as it
// finishes, then the claims' notes and one closing line (Finish). A nil *Table writes
// nothing, so a caller printing JSON instead passes nil.
type Table struct {
	w     io.Writer
	notes []string
}

// NewTable writes the table's header to w and returns the table.
func NewTable(w io.Writer) *Table {
	fmt.Fprintf(w, tableRow, "CLAIM", "SOURCE", "SEMANTICS", "EXPECTED", "VERDICT", "", "INSTANCES", "STATES", "TIME")
	return &Table{w: w}
}

// Row writes one claim's row (a claim not run shows "-" for its figures) and keeps its
// notes for Finish.
func (t *Table) Row(cr ClaimReport) {
	if t == nil {
		return
	}
	inst, states, secs := fmt.Sprint(cr.Instances), fmt.Sprint(cr.States), fmt.Sprintf("%.2fs", cr.Seconds)
	if cr.Verdict == NotRun {
		inst, states, secs = "-", "-", "-"
	}
	fmt.Fprintf(t.w, tableRow, cr.ID, truncate(cr.Source, 34), cr.Semantics, cr.Expected, cr.Verdict, cr.Mark(), inst, states, secs)
	t.notes = append(t.notes, cr.Notes()...)
}

// Finish writes the notes gathered from the rows and the run's closing line: how many
// claims an interrupted run ran, or whether every verdict was as expected.
func (t *Table) Finish(rep *Report) {
	if t == nil {
		return
	}
	if len(t.notes) > 0 {
		fmt.Fprintln(t.w, "\nNotes:")
		for _, n := range t.notes {
			for _, line := range wrap(n, notesWidth-4) {
				fmt.Fprintf(t.w, "  %s\n", line)
			}
		}
	}
	fmt.Fprintf(t.w, "\nSTATES are counted without partial-order reduction (reduction: %s);\nunicast flit searches count the lean model (worms compacted, docs/semantics.md).\n", CatalogueReduction)
	switch {
	case rep.Interrupted:
		fmt.Fprintf(t.w, "\ninterrupted: %d of %d claims run, the last one inconclusive\n", rep.Ran(), len(rep.Claims))
	case rep.AsExpected:
		fmt.Fprintf(t.w, "\nall %d claims as expected\n", len(rep.Claims))
	default:
		fmt.Fprintf(t.w, "\nsome claims are NOT as expected\n")
	}
	fmt.Fprintln(t.w, Summary(rep))
}

// Summary is the last line of prove's table, in a fixed form a script can grep:
// "summary: claims=N as_expected=A unexpected=U not_run=R violated=V measured=M" (V counts
// the claims with a counterexample, M the measured ones).
func Summary(rep *Report) string {
	var as, unexpected, notRun, violated, measured int
	for _, c := range rep.Claims {
		switch {
		case c.Verdict == NotRun:
			notRun++
		case c.AsExp:
			as++
		default:
			unexpected++
		}
		switch c.Verdict {
		case Violated:
			violated++
		case Measured:
			measured++
		}
	}
	return fmt.Sprintf("summary: claims=%d as_expected=%d unexpected=%d not_run=%d violated=%d measured=%d", len(rep.Claims), as, unexpected, notRun, violated, measured)
}

// WriteClaims lists claims (id, source, semantics, expected verdict, statement) and then
// every family with what it holds at each size, "-" where it is not run at that size.
func WriteClaims(w io.Writer, claims []Claim) {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSOURCE\tSEMANTICS\tEXPECTED\tCLAIM")
	for _, c := range claims {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Source, c.Semantics, c.Expected, c.Statement)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nFamilies (quick | default | full; - = not run at that size):")
	for _, c := range claims {
		for _, f := range c.Families {
			sz := make([]string, len(f.Sizes))
			for i, s := range f.Sizes {
				sz[i] = s
				if s == "" {
					sz[i] = "-"
				}
			}
			ev := ""
			if f.Evidence {
				ev = " (evidence)"
			}
			fmt.Fprintf(w, "  %s %s%s: %s\n", c.ID, f.Name, ev, strings.Join(sz, " | "))
		}
	}
}

// notesWidth is the width prove's notes are wrapped to: an 80-column terminal.
const notesWidth = 80

// wrap breaks s into lines of at most width runes at spaces; a continuation line is
// indented by two spaces (and is two runes shorter), and a word longer than a line
// stands alone on its own.
func wrap(s string, width int) []string {
	var lines []string
	line, limit := "", width
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= limit:
			line += " " + w
		default:
			lines = append(lines, line)
			line, limit = "  "+w, width
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// truncate shortens s to at most n runes, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
