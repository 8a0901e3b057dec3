package booksim

import (
	"reflect"
	"strings"
	"testing"
)

// TestBookSimConfig reads configurations as BookSim2's examples write them.
func TestBookSimConfig(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Config
	}{
		{"// anynet\ntopology = anynet;\nrouting_function = min;\nnetwork_file = anynet_file;\ntraffic = uniform;\nnum_vcs     = 1;\nvc_buf_size = 3;\n",
			Config{Topology: "file:dir/anynet_file", Routing: "shortest-path", VCs: 1, Buffer: 3, Ignored: []string{"traffic"}}},
		{"routing_function = nca;\nnum_vcs     = 4;\ninjection_rate = 0.6;\npacket_size = 1;\ntopology = fattree;\nk  = 4;\nn  = 3;\nwatch_out=-;",
			Config{Topology: "fattree:4,3", Routing: "fattree-nca", VCs: 4, Length: 1, Ignored: []string{"injection_rate", "watch_out"}}},
		{"routing_function = min;\nnum_vcs     = 2;\nconst_flits_per_packet = 10;\ntopology = dragonflynew;\nk  = 4;\nn  = 1;\n",
			Config{Topology: "dragonfly:a=8,p=4,h=4", Routing: "dragonfly-min", VCs: 2, Length: 10}},
		{"topology = torus; k = 8; n = 2; routing_function = dim_order; /* a\ncomment */ vc_buf_size = 8;",
			Config{Topology: "torus:8x8", Routing: "dor", Buffer: 8}},
		{"topology = mesh; k = 4; n = 2; routing_function = romm;",
			Config{Topology: "mesh:4x4", Ignored: []string{"routing_function (romm is not a relation wormcheck has for mesh)"}}},
	} {
		got, err := Parse([]byte(tc.text), "dir")
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"k = 4;", "key topology is missing"},
		{"topology = flatfly;\n", "booksim line 1: topology \"flatfly\" is not supported"},
		{"topology = mesh;\nk = four;\nn = 2;", "booksim line 2: k = \"four\" is not a whole number"},
		{"topology = mesh;\nk\n", "booksim line 2: \"k\" is not KEY = VALUE;"},
		{"topology = anynet;", "needs network_file"},
	} {
		if _, err := Parse([]byte(tc.text), ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want %q", tc.text, err, tc.want)
		}
	}
}

// FuzzBookSimConfig: any bytes give a configuration or a one-line error.
func FuzzBookSimConfig(f *testing.F) {
	f.Add([]byte("topology = anynet;\nrouting_function = min;\nnetwork_file = anynet_file;\nnum_vcs = 1;\n"))
	f.Add([]byte("topology = fattree; k = 4; n = 3; routing_function = nca; // c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Parse(data, "d"); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error of several lines: %q", err)
		}
	})
}
