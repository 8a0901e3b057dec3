package simulate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wormcheck/wormcheck/checker/sim/pipeline"
	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestExampleLonePacketsMatchBookSim runs lone packets through the experiment that
// bookSimConfig builds from BookSim2's own example configurations and pins each
// packet's latency to what BookSim2 reports for the same packets (the example with
// injection_rate = 0.0002 and watch_packets = {0,1,2,3}, BookSim2 commit
// 28f43299f1706a3160ffac721ca461d74eb6e618: its first packets cross an empty
// network; dragonflyconfig with injection_rate = 0.00002 packets). The rows catch a
// network whose channel latencies are not BookSim's: the flattened butterfly's wires are
// xr*|dx| + yr*|dy| cycles long, the concentrated mesh's 2 (k on an express channel),
// the dragonfly's 10 within a group and 100 between groups, so with every channel at 1
// cycle these packets arrive in 14, 14, 6, 14; 37, 27, 27, 17; and 23, 23, 23, 23
// cycles.
func TestExampleLonePacketsMatchBookSim(t *testing.T) {
	rows := []struct {
		example string
		packets []pipeline.Packet
		want    []int64
	}{
		{"flatflyconfig", []pipeline.Packet{{Src: 9, Dst: 36, Size: 1, At: 107}, {Src: 39, Dst: 58, Size: 1, At: 115}, {Src: 58, Dst: 51, Size: 1, At: 128}, {Src: 29, Dst: 57, Size: 1, At: 250}},
			[]int64{20, 18, 6, 20}},
		{"cmeshconfig", []pipeline.Packet{{Src: 9, Dst: 54, Size: 1, At: 107}, {Src: 39, Dst: 24, Size: 1, At: 115}, {Src: 58, Dst: 5, Size: 1, At: 128}, {Src: 29, Dst: 34, Size: 1, At: 250}},
			[]int64{43, 31, 31, 19}},
		{"dragonflyconfig", []pipeline.Packet{{Src: 734, Dst: 68, Size: 10, At: 21}, {Src: 440, Dst: 597, Size: 10, At: 46}, {Src: 690, Dst: 441, Size: 10, At: 53}, {Src: 759, Dst: 358, Size: 10, At: 134}},
			[]int64{140, 140, 140, 140}},
		{"mesh88_lat", []pipeline.Packet{{Src: 9, Dst: 9, Size: 20, At: 107}, {Src: 47, Dst: 61, Size: 20, At: 115}, {Src: 7, Dst: 56, Size: 20, At: 129}, {Src: 29, Dst: 43, Size: 20, At: 250}},
			[]int64{25, 41, 81, 41}},
	}
	dir := filepath.Join("..", "..", "model", "booksim", "testdata", "examples")
	for _, row := range rows {
		data, err := os.ReadFile(filepath.Join(dir, row.example))
		if err != nil {
			t.Fatal(err)
		}
		c, err := booksim.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.Map(dir)
		if err != nil {
			t.Fatal(err)
		}
		g, err := topology.Parse(m.Topology)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := routing.Resolve(g, m.Routing, os.ReadFile)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := bookSimConfig(g, &BookSimRun{Name: row.example, Config: c, Seed: 1}, rel)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Traffic = pipeline.Traffic{Packets: row.packets}
		res, err := pipeline.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, p := range res.Packets {
			got = append(got, p.Arrived-p.Created)
		}
		if !reflect.DeepEqual(got, row.want) {
			t.Errorf("%s: lone packets take %v cycles, BookSim %v", row.example, got, row.want)
		}
	}
}
