// Package decide decides exactly whether a routing relation can deadlock on its whole
// topology: whether a deadlock configuration exists (Verbeek & Schmaltz, TPDS 2011 and
// 2014: a necessary and sufficient condition for wormhole routing, co-NP-complete).
// Decide tries the sufficient conditions of props/cdg first (Dally & Seitz, Duato), then
// searches the relation's reachable header states (cdg.ReachableHeaders) for a
// configuration with the fewest worms and channels, or proves there is none. Realise
// puts a configuration in place in the flit model from the empty network, so that a
// violation is a flit trace `replay` confirms; Prove and ProveRelation do both and
// return the report of `wormcheck routing`.
//
// A bound reached (states, search nodes, a context that ended) makes the verdict
// inconclusive, with the bound named; it is never a verdict. docs/semantics.md states
// the decision's assumptions in full; decide.go the argument it rests on.
package decide
