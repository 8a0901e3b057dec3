package topology

import "testing"

// TestGridBytes: the count GridBytes gives without building a grid is the
// channels Parse builds, on meshes, tori (rings of 2 wired as on a mesh) and
// hypercubes; other specs are not counted.
func TestGridBytes(t *testing.T) {
	for _, spec := range []string{"mesh:4x3", "mesh:2x2x2", "torus:4x4", "torus:2x5", "torus:7", "hypercube:1", "hypercube:6", "Mesh:3x8"} {
		g, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		b, _, n, ok := GridBytes(spec)
		if !ok || n != int64(g.Channels()) || cap(g.channels) != g.Channels() || b != n*channelBytes {
			t.Errorf("%s: GridBytes %d channels, %v; built %d channels (capacity %d)", spec, n, ok, g.Channels(), cap(g.channels))
		}
	}
	for _, spec := range []string{"file:x.json", "mesh:4x4/faults=(0,0)-(1,0)", "mesh:1x4", "mesh:4096x4096", "hypercube:0", "dragonfly:a=4,p=2,h=2", "mesh"} {
		if _, _, n, ok := GridBytes(spec); ok {
			t.Errorf("%s: counted %d channels", spec, n)
		}
	}
}
