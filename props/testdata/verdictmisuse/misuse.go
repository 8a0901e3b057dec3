// Package verdictmisuse is a user's old test that turned a verdict into text with
// string(...): props.Verdict is an integer now, so the conversion yields one rune, and
// go vet must refuse it (props' TestVerdictMisuseIsCaught runs go vet on this file).
package verdictmisuse

import "github.com/wormcheck/wormcheck/props"

// Text is what the old test printed.
func Text(r *props.Report) string { return string(r.Verdict) }
