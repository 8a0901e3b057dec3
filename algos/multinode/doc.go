// Package multinode builds the three-phase multi-node multicast of 001 §2.3 and §4 as a
// unicast schedule: for an instance {(s_i, M_i, D_i)} and a DDN/DCN partition of a 2-D
// torus or mesh (package partition),
//
//   - Phase 1 sends M_i from s_i to a representative r_i in a chosen DDN, inside s_i's
//     own DCN: chosen centrally (round-robin over the DDNs in each DCN, least-loaded DDNs
//     first, §4.1), at random (seeded), or r_i = s_i for Types II and IV (no phase 1);
//   - Phase 2 multicasts from r_i to D_i', one representative per DCN that holds
//     destinations, inside the DDN: U-torus (sorted, rotated to r_i, recursive doubling)
//     on a torus, SPU (the same on a mesh) or U-mesh;
//   - Phase 3 multicasts from each representative to the destinations of its DCN with
//     U-mesh inside the DCN.
//
// The result is a model.Schedule whose Group says which multicast each unicast serves
// (GroupDestinations its destination set). Check validates it and judges per-multicast
// stepwise contention freedom and the contention between multicasts; Contenders builds
// the partitioned scheme's schedules beside plain U-torus (package unicastmc) for §4.4's
// comparison, and Scheme.Schedule one scheme's schedule for a latency measurement. This
// package only builds and counts schedules: the comparison that also asks package props
// for a second opinion, and the latency measurement that executes the schemes at flit
// level (checker/sim.ExecuteSchedule, each multicast relayed only once its own message
// has arrived) beside the contention-free timed model, are judged in props/check
// (check --algo multinode --compare [--latency]).
//
// Findings: under the model's DOR (shortest way, ties Plus) neither plain U-torus nor
// U-torus inside a DDN is always stepwise contention-free per multicast (a worm that
// wraps leaves its chain interval; see claim NP8), and in a directed DDN no ordering
// argument applies at all; Check reports the pairs.
//
// Routing. Unicasts in undirected subnetworks (Types I and II, the DCNs, phase 1) follow
// the network's dimension-order routing (topology.DOR: dimension 0 first, shortest way,
// ties Plus). In a directed DDN (Types III and IV) a worm may only use the DDN's
// positive (or negative) channels, so it is routed in dimension order the DDN's way round
// each ring: such paths are dimension-ordered but not always shortest, so Build marks
// those schedules Explicit (model.Schedule.Explicit, "routing": "explicit" in schedule
// files): their paths are checked as walks of existing channels (topology.Network.CheckWalk)
// instead of against topology.DOR, and package props and `wormcheck verify` judge them.
// Every path is checked to stay inside its subnetwork.
//
// Reconstructions (001's figures are missing): the U-torus "half" is index
// ceil(n/2) of the rotated list (the lower part keeps the larger half), U-mesh sends to
// the nearest end of the other half (McKinley et al.), nodes are ordered with the first
// routed dimension (x, coordinate 0) as the major key, and in a negative DDN the order is
// descending so that the rotated list runs the way the worms go. Phase 3 of a multicast
// starts after its Phase 2 has ended.
//
// Reference: 001 §2.3, §4.1-§4.4, §5.1.
package multinode
