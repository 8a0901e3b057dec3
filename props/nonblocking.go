package props

import (
	"iter"

	"github.com/wormcheck/wormcheck/model/topology"
)

// NonblockingResult is the verdict of a nonblocking check over a family of patterns.
type NonblockingResult struct {
	Verdict  Verdict                 `json:"verdict"`
	Patterns int64                   `json:"patterns"`
	Pattern  []topology.BanyanPacket `json:"pattern,omitempty"`
	Conflict *topology.LinkConflict  `json:"conflict,omitempty"`
}

// CheckNonblocking checks that no pattern of the family blocks (topology.Banyan.FirstConflict
// finds no conflict for any member). It stops at the first blocking pattern, which it returns
// with its conflict as the witness; Patterns counts the patterns checked. A family must
// not reuse the slice it yields after the next iteration step (the witness is copied).
func CheckNonblocking(b *topology.Banyan, family iter.Seq[[]topology.BanyanPacket]) (NonblockingResult, error) {
	res := NonblockingResult{Verdict: Holds}
	for pat := range family {
		res.Patterns++
		c, err := b.FirstConflict(pat)
		if err != nil {
			return res, err
		}
		if c != nil {
			res.Verdict = Violated
			res.Pattern = append([]topology.BanyanPacket(nil), pat...)
			res.Conflict = c
			return res, nil
		}
	}
	return res, nil
}
