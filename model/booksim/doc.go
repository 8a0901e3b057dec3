// Package booksim reads BookSim2 configuration files. A configuration names a network
// (anynet, mesh, torus, fat-tree, dragonfly) together with the routing function, virtual
// channels, buffer depth and packet length that run on it; Parse turns it into a
// topology spec that topology.Parse accepts, a built-in routing relation's name and the
// figures, and lists what a flit-level model checker does not use.
package booksim
