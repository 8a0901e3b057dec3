// Package render draws the evidence of wormcheck's verdicts (props.Evidence) so that a
// person can understand it; the command line calls it when --svg, --pcap, --explore or
// prove --witness-dir ask, and nothing else does: the library decides and returns
// evidence, it never draws. Picture draws any evidence by its kind:
//
//   - a flit-level trace (a deadlock): FlitTrace — the last state on the topology with
//     the wait-for cycle numbered (the cycle props.FlitCycle gives the witness);
//   - a lasso (livelock, starvation): FlitLasso — the state the cycle returns to and
//     the cycle's hops;
//   - a schedule: ScheduleTitled — the contending pair apart with the occupancy
//     timeline, or one panel per step;
//   - a dependency cycle of a routing relation: StaticCycle, ProvenCycle (harmless);
//     the certificate of an acyclic one: ChannelRanks;
//   - a partition's subnetworks: Partition;
//   - a banyan witness (002): BanyanConflict (a blocking pattern's two trees and their
//     shared link) and Banyan (a deadlocked state);
//   - a latency plot: LatencyPanels, LatencyPlot;
//
// Capture writes a flit-level or banyan run as pcap, SceneOf builds the browser trace
// explorer's data (FlitScene, ScheduleScene; Explorer, ServeExplorer serve it), and
// Dissector is the Wireshark dissector of the captures.
//
// Pictures take model-level values (topology.Network, model.Schedule, flit states, the
// evidence's own types), so every algorithm's witnesses are drawn the same way; render
// knows no algorithm. Output is a pure function of the input: no clock, no map
// iteration, fixed number formatting, so pictures can be golden-tested and diffed (go
// test ./props/render -update rewrites testdata).
package render
