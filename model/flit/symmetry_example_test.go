package flit_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// ExampleGridSymmetries lists the routing-preserving symmetries of a 3x3 mesh under XY
// routing and of a 4x4 torus under DOR with and without dateline classes.
func ExampleGridSymmetries() {
	mesh, _ := topology.NewMesh(3, 3)
	for _, s := range flit.GridSymmetries(mesh, routing.NewDOR(mesh, false)) {
		fmt.Println(s.Name)
	}
	torus, _ := topology.NewTorus(4, 4)
	fmt.Println("torus with datelines:", len(flit.GridSymmetries(torus, routing.NewDOR(torus, true))))
	fmt.Println("torus without datelines:", len(flit.GridSymmetries(torus, routing.NewDOR(torus, false))))
	// Output:
	// identity
	// reflect 0
	// reflect 1
	// reflect 0 reflect 1
	// torus with datelines: 1
	// torus without datelines: 16
}
