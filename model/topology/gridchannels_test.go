package topology

import "testing"

// TestGridChannels: the count GridChannels gives without building a grid is the
// channels Parse builds, on meshes, tori (rings of 2 wired as on a mesh) and
// hypercubes; other specs are not counted.
func TestGridChannels(t *testing.T) {
	for _, spec := range []string{"mesh:4x3", "mesh:2x2x2", "torus:4x4", "torus:2x5", "torus:7", "hypercube:1", "hypercube:6", "Mesh:3x8"} {
		g, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := GridChannels(spec)
		if !ok || n != int64(g.Channels()) || cap(g.channels) != g.Channels() {
			t.Errorf("%s: GridChannels %d, %v; built %d channels (capacity %d)", spec, n, ok, g.Channels(), cap(g.channels))
		}
	}
	for _, spec := range []string{"file:x.json", "mesh:4x4/faults=(0,0)-(1,0)", "mesh:1x4", "mesh:4096x4096", "hypercube:0", "dragonfly:a=4,p=2,h=2", "mesh"} {
		if n, ok := GridChannels(spec); ok {
			t.Errorf("%s: counted %d channels", spec, n)
		}
	}
}
