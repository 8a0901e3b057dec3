package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker/family"
)

// TestMergeBanyanPairs merges the kept results of a banyan pair sweep (banyan.
// PairFamily, which only the library writes) in two shards: the merge is violated, names
// the deadlocking row as its witness, and exits 1; one shard alone says which is missing.
func TestMergeBanyanPairs(t *testing.T) {
	dir := t.TempDir()
	f := banyan.PairFamily{Name: "fig4", Arbitration: banyan.Free, N: 16, Rows: 4, Gen: func(i int, yield func(a, c banyan.Multicast)) {
		src := []int{7, 15, 3, 1}[i] // 002 Fig. 4: sources 3 and 1 deadlock with 15
		yield(banyan.Multicast{Source: src, Dests: []int{5, 6, 7, 8}}, banyan.Multicast{Source: 15, Dests: []int{7, 8, 9, 10, 11, 12}})
	}}
	var files []string
	for i := range 2 {
		g := f
		g.Shard = family.Shard{Index: i, Count: 2}
		_, rec, err := g.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		data, err := rec.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(dir, "s"+string(rune('0'+i))+".json"))
		if err := os.WriteFile(files[i], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errb := runCLI(t, "merge", files[0], files[1])
	if code != 1 || !strings.Contains(out, "fig4 on banyan:16 (deadlock, free arbitration, lockstep): violated") ||
		!strings.Contains(out, "first witness: member 2 ") || errb != "" {
		t.Errorf("merge: exit %d\n%s%s", code, out, errb)
	}
	code, out, _ = runCLI(t, "merge", files[1])
	if code != 1 || !strings.Contains(out, "missing [0]") {
		t.Errorf("one shard: exit %d\n%s", code, out)
	}
}
