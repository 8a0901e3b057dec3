// Package render draws wormcheck's witnesses so that a person can understand them, one
// function per witness kind (props.Witness):
//
//   - trace (a deadlock): FlitTrace / FlitFiles / TraceFiles — the last state on the
//     topology with the wait-for cycle numbered (WitnessCycle gives it to the witness);
//   - lasso (livelock, starvation): FlitLasso — the state the cycle returns to and the
//     cycle's hops; FlitWitness picks between the two by kind;
//   - pair (schedule contention): Schedule — the two unicasts apart and the occupancy
//     timeline; without a pair, one panel per step;
//   - cycle (a static routing proof): StaticCycle;
//   - instance (a partition's subnetworks): Partition;
//   - banyan (002): BanyanConflict (a blocking pattern's two trees and their shared link)
//     and BanyanDeadlock (a deadlocked state of the banyan multicast model);
//
// and the browser trace explorer (FlitScene, ScheduleScene, Explorer) and the Wireshark
// dissector of the captures (Dissector).
//
// Pictures take model-level inputs (topology.Network, model.Schedule, flit states, props.Witness)
// so every algorithm's witnesses are drawn the same way; the one exception is
// BanyanDeadlock, whose state is algos/banyan's System (the banyan multicast model lives
// with its algorithm). algos do not import render. Output is a pure function of the
// input: no clock, no map iteration, fixed number formatting, so pictures can be
// golden-tested and diffed (go test ./props/render -update rewrites testdata).
package render
