// Package model holds wormcheck's networks: topologies (meshes, tori, hypercubes and the
// wrap-around broadcast banyan), their directed channels with stable integer ids,
// deterministic routing (dimension order with dateline virtual-channel classes, banyan
// self-routing) and the spec parser that turns "torus:8x8" into a topology. A schedule
// may opt out of the strict DOR paths: with Schedule.Ties = TiesEither a path may go
// either way round a ring where both ways are minimal (DOR.PathTies, IsDORPathTies), and
// with Schedule.Explicit any simple walk of channels is accepted (Grid.CheckWalk).
//
// Everything here is pure and deterministic: no goroutines, clocks or randomness. A
// topology is immutable once built and safe to share between goroutines.
package model
