// Package model holds wormcheck's unicast schedules: the implementation I(B) of a
// unicast-based collective as unicasts by step over the channels of a topology
// (model/topology), their port model, and the schedule file format. A schedule may opt
// out of the strict dimension-order paths: with Schedule.Ties = TiesEither a path may go
// either way round a ring where both ways are minimal (topology.DOR.PathTies,
// IsDORPathTies), and with Schedule.Explicit any simple walk of channels is accepted
// (topology.Network.CheckWalk).
//
// Everything here is pure and deterministic: no goroutines, clocks or randomness.
package model
