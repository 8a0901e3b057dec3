package partition

import (
	"testing"
)

func BenchmarkDDNsTypeII32(b *testing.B) {
	g := torus(b, 32, 32)
	for b.Loop() {
		DDNs(g, Params{Type: TypeII, H: 4})
	}
}

func BenchmarkLevelsTypeII32(b *testing.B) {
	g := torus(b, 32, 32)
	subs, _ := DDNs(g, Params{Type: TypeII, H: 4})
	for b.Loop() {
		ComputeLevels(g, subs)
	}
}

func BenchmarkIsomorphicSymmetry32(b *testing.B) {
	g := torus(b, 32, 32)
	subs, _ := DDNs(g, Params{Type: TypeIII, H: 4, Delta: 2})
	for b.Loop() {
		Isomorphic(g, subs[0], subs[7], IsoOptions{})
	}
}

func BenchmarkIsomorphicMeshReflection(b *testing.B) {
	g := mesh(b, 8, 8)
	dcns, _ := DCNs(g, 4)
	// On a mesh only reflections apply: DCN0,0 maps onto DCN1,1 by the point reflection.
	for b.Loop() {
		Isomorphic(g, dcns[0], dcns[3], IsoOptions{})
	}
}

func BenchmarkStronglyConnected32(b *testing.B) {
	g := torus(b, 32, 32)
	subs, _ := DDNs(g, Params{Type: TypeIV, H: 2})
	for b.Loop() {
		StronglyConnected(g, subs[1])
	}
}
