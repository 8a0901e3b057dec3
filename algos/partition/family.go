package partition

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Instance is one member of a DDN family sweep: a 2-D grid (its spec, e.g. "torus:6x4")
// with its sides, and the DDN parameters.
type Instance struct {
	Topology string
	S, T     int
	Params   Params
}

// Family lists the sweep of 001's claims: every s x t grid of the kind with lo <= s, t <=
// hi that keep accepts (nil: every one), every h dividing both sides and, for Type III,
// every delta in 1..h-1, for each type in types, in ascending (s, t, h, type, delta)
// order. The members are descriptions; the caller builds and judges each.
func Family(kind topology.Kind, lo, hi int, keep func(s, t int) bool, types []Type) []Instance {
	name := "torus"
	if kind == topology.Mesh {
		name = "mesh"
	}
	var out []Instance
	for s := lo; s <= hi; s++ {
		for t := lo; t <= hi; t++ {
			if keep != nil && !keep(s, t) {
				continue
			}
			spec := fmt.Sprintf("%s:%dx%d", name, s, t)
			for h := 1; h <= min(s, t); h++ {
				if s%h != 0 || t%h != 0 {
					continue
				}
				for _, typ := range types {
					if typ == TypeIII {
						for d := 1; d < h; d++ {
							out = append(out, Instance{spec, s, t, Params{Type: typ, H: h, Delta: d}})
						}
						continue
					}
					out = append(out, Instance{spec, s, t, Params{Type: typ, H: h}})
				}
			}
		}
	}
	return out
}

// FamilyAlgorithm is the algorithm name partition family results carry.
const FamilyAlgorithm = "partition"

// FamilyParams are the parameters every shard of one partition family run must share:
// the DDN types swept and the property each member is judged for.
type FamilyParams struct {
	Types    []string         `json:"types"`
	Property checker.Property `json:"property"`
}

// FamilyRecord is the kept result of a partition family run (family.Result): members
// (Family's instances, by index) checked with their verdicts, the shard, and the first
// violated member as the witness. A member's "states" are what its judge examined
// (subnetworks or properties); the judges are static, so there are no transitions.
type FamilyRecord = family.Result[FamilyParams]

// ParseFamilyRecord decodes a partition family result file and checks its format.
func ParseFamilyRecord(data []byte) (*FamilyRecord, error) {
	return family.ParseResult[FamilyParams](data, FamilyAlgorithm)
}

// FamilySpec names the sweep Family(kind, lo, hi, nil, types) lists: "sizes:LO-HI".
func FamilySpec(lo, hi int) string { return fmt.Sprintf("sizes:%d-%d", lo, hi) }

// MaxFamilySide bounds the sides of a family ParseFamilySpec accepts: the sweep to 64
// has about 10^5 members, most of them small grids, and larger sweeps are better split
// into several families.
const MaxFamilySide = 64

// ParseFamilySpec reads "sizes:LO-HI" (2 <= LO <= HI <= MaxFamilySide), the family of
// every LO..HI x LO..HI grid that FamilySpec names.
func ParseFamilySpec(s string) (lo, hi int, err error) {
	r, ok := strings.CutPrefix(s, "sizes:")
	a, b, ok2 := strings.Cut(r, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || !ok2 || err1 != nil || err2 != nil || lo < 2 || hi < lo || hi > MaxFamilySide {
		return 0, 0, fmt.Errorf("family %q: want sizes:LO-HI with 2 <= LO <= HI <= %d, e.g. sizes:2-8", s, MaxFamilySide)
	}
	return lo, hi, nil
}

// Witness is the trace file that stands for a violated member in a family result: it
// names the member (topology, type, h, delta) and what was violated; a static judgement
// has no actions to replay, so the member is judged again to show it.
func (in Instance) Witness(property checker.Property, violation string) *tracefile.File {
	params, _ := json.Marshal(struct {
		Type  string `json:"type"`
		H     int    `json:"h"`
		Delta int    `json:"delta,omitempty"`
	}{in.Params.Type.String(), in.Params.H, in.Params.Delta})
	return &tracefile.File{Format: tracefile.Format, Algorithm: FamilyAlgorithm, Topology: in.Topology, Property: property,
		Semantics: "static", Params: params, Actions: []uint64{}, Labels: []string{}, Violation: violation}
}

// String names the member as a family result's Msgs does: "torus:6x4 Type III, h=2,
// delta=1".
func (in Instance) String() string { return in.Topology + " " + in.Params.String() }
