package treemcast

import (
	"encoding/json"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/model/topology/topologytest"
)

func FuzzParseFamily(f *testing.F) {
	for _, s := range []string{"pairs:1", "pairs:3:ordered", "pairs:0", "pairs:x", "triples:2", "pairs:2:x"} {
		f.Add(s)
	}
	g, _ := topology.Parse("mesh:3x3")
	f.Fuzz(func(t *testing.T, s string) {
		fam, err := ParseFamily(g, s)
		if err != nil {
			return
		}
		again, err := ParseFamily(g, fam.Spec())
		if err != nil || again.K != fam.K || again.Orders != fam.Orders {
			t.Fatalf("%q: spec %q does not round-trip: %v", s, fam.Spec(), err)
		}
	})
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/4", "4/4", "-1/2", "1/0", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.Index < 0 || sh.Index >= sh.Count || !sh.Has(sh.Index) {
			t.Fatalf("%q parsed as %+v", s, sh)
		}
	})
}

func FuzzParseFamilyResult(f *testing.F) {
	r := &FamilyResult{Format: FamilyFormat, Family: "pairs:1", Topology: "mesh:2x2", Members: 3, Shard: Shard{Index: 0, Count: 1}, Instances: 3, Verdict: checker.Holds}
	b, _ := r.Marshal()
	f.Add(b)
	f.Add([]byte(`{"format":"wormcheck-family/1","shard":{"index":2,"count":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseFamilyResult(data)
		if err != nil {
			return
		}
		if _, err := Merge([]*FamilyResult{r}); err != nil && r.Instances <= r.Members && len(r.Shards) == 0 {
			t.Fatalf("a valid single result does not merge: %v", err)
		}
	})
}

func FuzzInstanceOf(f *testing.F) {
	p, _ := json.Marshal(TraceParams{Msgs: fig3, Pruning: "none", Length: 1, Buffers: 1, Ports: "one-port"})
	f.Add("mesh:3x2", p)
	f.Add("torus:4x4", []byte(`{"msgs":"(0,0)->(1,1)","pruning":"total","length":1,"buffers":2,"ports":"all-port"}`))
	f.Fuzz(func(t *testing.T, topo string, params []byte) {
		if !topologytest.Small(topo) {
			return // a valid network of up to a million nodes takes a second to build
		}
		tf := &tracefile.File{Format: tracefile.Format, Algorithm: "tree-mcast", Topology: topo, Params: params}
		in, err := InstanceOf(tf)
		if err != nil {
			return
		}
		if len(in.Msgs) > 0 && in.Params.Length >= 1 && in.Params.Length <= 16 && in.Params.Buffer >= 1 && in.Params.Buffer <= 64 && len(in.Msgs) <= 64 {
			if _, err := in.Model(); err != nil {
				return // e.g. too many flits: an error, never a panic
			}
		}
	})
}
