// Package checkertest holds small transition systems with known answers (state counts,
// shortest deadlock and invariant-violation depths, symmetry) for testing the checker
// and anything built on it, and a gopter generator of random graph models.
//
// Every model is a plain value that is safe for concurrent use; its states are
// immutable values.
package checkertest
