package partitiongen_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/algos/partition/partitiongen"
	"github.com/wormcheck/wormcheck/checker"
)

// TestGeneratedFamiliesAreValid: every generated family builds, and on tori its directed
// DDNs are strongly connected (001 §3.1).
func TestGeneratedFamiliesAreValid(t *testing.T) {
	ps := gopter.NewProperties(gopter.DefaultTestParametersWithSeed(1))
	ps.Property("torus families build and connect", prop.ForAll(func(in partitiongen.Instance) bool {
		ddns, err := partition.DDNs(in.Grid, in.Params)
		if err != nil {
			t.Log(err)
			return false
		}
		return partition.CheckConnected("sc", in.Grid, ddns).Verdict == checker.Holds
	}, partitiongen.Torus(4, 5)))
	ps.Property("mesh families build", prop.ForAll(func(in partitiongen.Instance) bool {
		_, err := partition.DDNs(in.Grid, in.Params)
		return err == nil
	}, partitiongen.Mesh(4, 5)))
	ps.TestingRun(t)
}

// Example shows a user's property in a few lines: Type I and III families on random tori
// are free of node and link contention (001 Lemmas 1 and 3).
func Example() {
	params := gopter.DefaultTestParametersWithSeed(7)
	params.MinSuccessfulTests = 50
	ps := gopter.NewProperties(params)
	ps.Property("Lemmas 1 and 3", prop.ForAll(func(in partitiongen.Instance) bool {
		if in.Params.Type != partition.TypeI && in.Params.Type != partition.TypeIII {
			return true
		}
		ddns, _ := partition.DDNs(in.Grid, in.Params)
		l := partition.ComputeLevels(in.Grid, ddns)
		return l.Node == 1 && l.Link == 1
	}, partitiongen.Torus(4, 6)))
	fmt.Println(ps.Run(gopter.NewFormatedReporter(false, 80, discard{})))
	// Output: true
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
