// Package partition builds the subnetworks of network partitioning on 2-D tori and meshes
// and judges them: data-distributing networks (DDNs) of Types I-IV, data-collecting
// networks (DCNs), their node and link contention levels, the properties P1-P5 of the
// three-phase multi-node multicast, and strong connectivity of each subnetwork under its
// own channels.
//
// Reference: 001 §2.2-§3 (Definitions 1-8, Lemmas 1-4, Table 1, P1-P5).
//
// Coordinates follow the paper: node p_{x,y} is the grid node with coordinate 0 = x (the
// row) and coordinate 1 = y (the column). "The channels at row r" are the channels along
// dimension 1 whose end nodes have x = r; "the channels at column c" are the channels
// along dimension 0 whose end nodes have y = c. A positive link is a Plus channel of the
// grid, a negative link a Minus channel; on a torus the Plus wrap-around channel from
// index k-1 to 0 counts as positive (it continues the Plus ring), which is what keeps the
// directed subnetworks of Definitions 6 and 7 strongly connected as §3.1 says they are.
//
// Everything here is pure and deterministic. Entry points: DDNs, DCNs, ComputeLevels,
// CheckProperties, StronglyConnected and Isomorphic.
package partition
