package treemcast

import (
	"encoding/json"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
)

// Algorithm is the algorithm name tree multicast's family results carry.
const Algorithm = "tree-mcast"

// FamilyFormat is the format tag of the family result files RunFamily writes
// (family.ResultFormat); files of the earlier family.ResultFormatV1 are still read.
const FamilyFormat = family.ResultFormat

// FamilyParams are the parameters every shard of one family run must share.
type FamilyParams struct {
	Pruning  string           `json:"pruning"`
	Length   int              `json:"length"`
	Buffers  int              `json:"buffers"`
	Ports    string           `json:"ports"`
	Prop     checker.Property `json:"property"`
	Symmetry bool             `json:"symmetry"`
	// Routing names the members' routing relation when it is not dimension order: a
	// built-in relation's name, or, for a relation from a routing file, RoutingFile
	// holds that file (model/routing.Encode), so that the result names everything a
	// re-run needs.
	Routing     string          `json:"routing,omitempty"`
	RoutingFile json.RawMessage `json:"routing_file,omitempty"`
	// Store is "fingerprint" for a run in fingerprint mode, empty for the exact store.
	Store string `json:"store,omitempty"`
}

// FamilyResult is the result of checking one or more shards of a family of pairs of
// multicasts (family.Result, with Covered counting the pairs of the unreduced family);
// `wormcheck merge` joins the results of disjoint shards.
type FamilyResult = family.Result[FamilyParams]

// FamilyWitness is a violating member with its shortest trace.
type FamilyWitness = family.Witness

// MemberOutcome is the verdict and search size of one checked member.
type MemberOutcome = family.MemberOutcome

// ParseFamilyResult decodes a tree-multicast family result file and checks its format.
func ParseFamilyResult(data []byte) (*FamilyResult, error) {
	return family.ParseResult[FamilyParams](data, Algorithm)
}

// Merge joins the results of disjoint shards of one family run (family.Merge).
func Merge(rs []*FamilyResult) (*FamilyResult, error) { return family.Merge(rs) }

// MergeFiles reads the family results that `check --family ... --shard i/n --result F`
// wrote for disjoint shards of one run, with read, in order, and merges them (Merge);
// an error names the file at fault.
func MergeFiles(files []string, read func(string) ([]byte, error)) (*FamilyResult, error) {
	return family.MergeFiles[FamilyParams](files, read, Algorithm)
}

// ConfirmWitness replays the witness's trace and checks that it reaches the recorded
// violation; the replay is what pictures of the witness are drawn from.
func ConfirmWitness(w *FamilyWitness) (*Replayed, error) {
	tf := w.Trace
	rp, err := Replay(tf)
	if err != nil {
		return nil, fmt.Errorf("witness does not replay: %v", err)
	}
	if rp.Violation != tf.Violation {
		return nil, fmt.Errorf("witness replays to %q, recorded %q", rp.Violation, tf.Violation)
	}
	return rp, nil
}
