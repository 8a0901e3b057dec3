package props

import "github.com/wormcheck/wormcheck/checker"

// Property is a property's name: the names are declared once, in package checker
// (checker.PropDeadlock, ...), so that the models below this package record and replay
// them too.
type Property = checker.Property

// The semantics a verdict is judged in. props/check's registry lists which algorithm
// supports which property under which semantics.
const (
	SemFlit     = "flit"
	SemStep     = "step"
	SemTimed    = "timed"
	SemAnyDelay = "any-delay"
	SemStatic   = "static"
	SemSim      = "sim"
	// SemVCT is InfiniBand's virtual cut-through with credit-based flow control (model/vct).
	SemVCT = "vct"
)
