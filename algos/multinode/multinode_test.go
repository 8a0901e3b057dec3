package multinode

import (
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestExplicitPaths: the schedules of directed DDNs (Types III and IV) are Explicit; their
// paths include some that are not the network's DOR path (so the strict check refuses
// them), yet every path is a simple walk, the schedule file round-trips in "routing":
// "explicit", and package props judges it. Undirected types stay strict DOR. A path made
// to reuse a channel is refused.
func TestExplicitPaths(t *testing.T) {
	for _, spec := range []string{"torus:8x8", "torus:12x12"} {
		g, _ := topology.Parse(spec)
		in, err := Generate(g, GenOptions{Sources: 6, Dests: 10, Hotspot: 0.5, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []partition.Params{{Type: partition.TypeII, H: 2}, {Type: partition.TypeIII, H: 4, Delta: 2}, {Type: partition.TypeIV, H: 2}} {
			for _, sel := range []Selection{Centralised, Own} {
				if sel == Own && p.Type == partition.TypeIII {
					continue
				}
				pl, err := Build(in, Options{Partition: p, Select: sel})
				if err != nil {
					t.Fatal(err)
				}
				s := pl.Schedule
				name := spec + " " + p.String() + " " + sel.String()
				if s.Explicit != p.Type.Directed() {
					t.Fatalf("%s: Explicit = %v", name, s.Explicit)
				}
				if err := s.Check(); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				nonDOR := 0
				r := topology.NewDOR(g)
				for _, u := range s.Unicasts {
					if r.IsDORPath(u.From, u.To, u.Path) != nil {
						nonDOR++
					}
				}
				if !p.Type.Directed() {
					if nonDOR != 0 {
						t.Errorf("%s: %d non-DOR paths in an undirected type", name, nonDOR)
					}
					continue
				}
				if nonDOR == 0 {
					t.Errorf("%s: every path is DOR; the test does not exercise explicit paths", name)
				}
				strict := s
				strict.Explicit = false
				if strict.Check() == nil {
					t.Errorf("%s: the strict check accepts the DDN paths", name)
				}
				b, err := model.MarshalSchedule(&s)
				if err != nil {
					t.Fatalf("%s: marshal: %v", name, err)
				}
				back, err := model.ParseSchedule(b)
				if err != nil {
					t.Fatalf("%s: parse: %v", name, err)
				}
				if !back.Explicit || len(back.Unicasts) != len(s.Unicasts) {
					t.Fatalf("%s: round trip lost the mode or unicasts", name)
				}
				for i := range s.Unicasts {
					if !slices.Equal(back.Unicasts[i].Path, s.Unicasts[i].Path) {
						t.Fatalf("%s: round trip changed path %d", name, i)
					}
				}
				if v := schedule.Validity(&s); v.Verdict != checker.Holds {
					t.Errorf("%s: props says %s: %s", name, v.Verdict, v.Reason)
				}
				// A path that goes round a ring and back over a channel it used is refused.
				bad := s
				bad.Unicasts = slices.Clone(s.Unicasts)
				k := slices.IndexFunc(bad.Unicasts, func(u model.Unicast) bool { return len(u.Path) > 0 })
				u := &bad.Unicasts[k]
				c := g.Channel(u.Path[0])
				back1, _ := g.Neighbor(c.To, c.Dim, 1-c.Dir)
				u.Path = append([]topology.ChannelID{u.Path[0], back1}, u.Path...)
				if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "both use") {
					t.Errorf("%s: a path reusing a channel: %v", name, err)
				}
			}
		}
	}
}
