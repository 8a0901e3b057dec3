// Package verdictmisuse is a user's test that turns a verdict into text with
// string(...): props.Verdict is an integer, so the conversion yields one rune, and go
// vet must refuse it (props' TestVerdictMisuseIsCaught runs go vet on this file).
package verdictmisuse

import "github.com/wormcheck/wormcheck/props"

// Text is what the test prints: one rune, not "holds".
func Text(r *props.Report) string { return string(r.Verdict) }
