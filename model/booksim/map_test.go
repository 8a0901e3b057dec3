package booksim

import (
	"reflect"
	"strings"
	"testing"
)

// TestMap maps configurations as BookSim2's examples write them, absent keys at
// BookSim's defaults.
func TestMap(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Mapping
	}{
		{"topology = anynet;\nrouting_function = min;\nnetwork_file = anynet_file;\nnum_vcs = 1;\nvc_buf_size = 3;\n",
			Mapping{Topology: "file:dir/anynet_file", Routing: "booksim:min,vcs=1", Buffer: 3, Length: 1}},
		{"routing_function = nca;\nnum_vcs = 4;\npacket_size = 1;\ntopology = fattree;\nk = 4;\nn = 3;\n",
			Mapping{Topology: "fattree:4,3", Routing: "booksim:nca,vcs=4", Buffer: 8, Length: 1}},
		{"routing_function = min;\nnum_vcs = 2;\npacket_size = 10;\ntopology = dragonflynew;\nk = 4;\nn = 1;\nvc_buf_size = 256;\n",
			Mapping{Topology: "dragonfly:a=8,p=4,h=4", Routing: "booksim:min,vcs=2", Buffer: 256, Length: 10}},
		{"routing_function = dim_order; use_read_write = 1;",
			Mapping{Topology: "torus:8x8", NoRouting: "use_read_write = 1: requests and replies route on VC ranges of their own (read_request_begin_vc, ...), and wormcheck checks worms of one kind; set use_read_write = 0", Buffer: 8, Length: 1}},
		{"topology = cmesh; k = 4; c = 4; xr = 2; yr = 2; x = 4; y = 4; routing_function = dor_no_express; subnets = 2; router = event; vct = 1;",
			Mapping{Topology: "cmesh:k=4,n=2,c=4,xr=2,yr=2", Routing: "booksim:dor_no_express,vcs=16", Buffer: 8, Length: 1, Notes: []string{
				"subnets = 2: BookSim replicates the network; wormcheck checks one copy (each copy routes alike)",
				"router = event: wormcheck's flit semantics is an input-queued wormhole router's",
				"vct = 1: BookSim's event router switches virtual cut-through; wormcheck's flit semantics is wormhole"}}},
		{"topology = tree4; k = 4; n = 3; routing_function = anca; num_vcs = 2;",
			Mapping{Topology: "tree4:k=4,n=3", Routing: "booksim:anca,vcs=2", Buffer: 8, Length: 1}},
		{"packet_size = {{1,20},{4}};",
			Mapping{Topology: "torus:8x8", NoRouting: "the configuration has no routing_function (BookSim would refuse none_torus)", Buffer: 8, Length: 20}},
	} {
		c, err := Parse([]byte(tc.text))
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		got, err := c.Map("dir")
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"topology = anynet;", "booksim line 1: topology anynet needs network_file"},
		{"packet_size = 0;", "booksim line 1: packet_size = 0: BookSim would make packets of no flits and inject nothing; give 1 or more"},
		{"topology = mesh; k = 4; n = 2; num_vcs = 0;", "num_vcs = 0"},
		{"topology = torus; n = 9;", "n = 9; wormcheck takes 1..8 dimensions"},
		{"topology = hypercube;", `topology "hypercube" is not one BookSim builds`},
		{"topology = torus; k = 2;", "k = 2; wormcheck takes k >= 2 on a mesh and k >= 3 on a torus"},
		{"topology = qtree; k = 4; n = 2;", "BookSim's qtree asserts k = 4 and n = 3; k is 4, n is 2"},
		{"num_vcs = 65;", "num_vcs = 65; wormcheck takes 1..64"},
	} {
		c, err := Parse([]byte(tc.text))
		if err == nil {
			_, err = c.Map("")
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want %q", tc.text, err, tc.want)
		}
	}
}
