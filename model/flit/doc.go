// Package flit is wormcheck's flit-level wormhole network: an explicit-state model of
// worms (unicast and tree-based multicast) moving flit by flit through virtual-channel
// buffers, in the "flit" semantics of DESIGN.md, as a system.Model[State] that package checker explores.
//
// # Configuration
//
// A Config names the topology (Network; GridNetwork adapts *topology.Network), the routing
// relation (Routing, a model/routing.Relation: for a header at a router, arrived on an
// input channel and virtual channel, the ordered set of permitted outputs;
// routing.NewDOR is dimension order with or without dateline classes), VCs virtual
// channels per physical channel (a multiple of the relation's R virtual channels:
// relation VC r owns the model's VCs r*VCs/R .. (r+1)*VCs/R-1), Buffer flits per virtual
// channel at its receiving end, the port model (OnePort: one injection and one ejection
// channel per node; AllPort: one per channel, 2n delivery channels on n dimensions), the pruning policy of tree
// multicasts (Prune) and the Messages. NewGridConfig builds the usual one (DOR),
// NewRelationConfig one for any relation. New validates it and returns the Model.
//
// # State
//
// A State holds, per message, its source's progress (Sent flits of its format, Done) and
// the flits each destination has received (Got), and per network virtual channel (index
// channel*VCs+vc) its owner, its buffer (flit positions in the owner's format, oldest
// first), whether its upstream has finished (Closed) and its routing state as an input
// channel of the receiving router (Input: the table of reserved outputs, the current
// output, the auxiliary data buffer and pending re-injection of 000 §4). A message's
// source is an input channel too (its Input lives in Msg). Outputs are virtual channels
// (Out >= 0) or Eject, the local delivery channel. States are immutable values; Encode
// gives the canonical bytes (Decode inverts it) and Format a multi-line rendering. The
// bytes are COLLAPSE-compressed: one index per worm into the model's table of that
// worm's local states (see Encode), so a state costs a few bytes in a search's store.
// Each table entry also keeps, built once, its decoded form and its worm's candidate
// moves with what each does: DecodeInto (system.FrontierDecoder) rebuilds a state from
// its word by copying its worms' entries, so a search keeps its frontier as words, and
// EncodeSuccessors yields a successor's word as its parent's with one index replaced,
// after checking the few conditions a move has on the other worms (see wormMoves).
//
// Buffers, delivery counts and output tables are pointer-free handles (Bytes, Outs):
// short runs are packed into the handle, other sequences are interned in the model's
// own Table (Model.Table), freed with the model and reported by Model.AuxBytes. A handle
// is read with its model's table; a table that runs out of indices sets Model.Err
// (ErrTableFull) instead of panicking, and runners report that search inconclusive.
//
// # Progress
//
// Progress is a rank vector (model/system.Progressive) that strictly increases on every
// transition of a minimal relation under every pruning policy, so the explorer certifies
// that the reachable graph is acyclic and "deadlock-free" means "every message is
// delivered"; EncodeSuccessorsProgress yields the ranks beside the encodings. Under a
// relation that misroutes it may break, and the explorer's liveness check decides.
//
// # Flit positions (message formats)
//
// A unicast of Length L has flits 0..L-1: 0 is the header (its address flit), L-1 the
// tail. A multicast (000 Fig. 1) of Length D data flits and n destinations has flits
// 0..n+D-1: 0 is the address flit of Dests[0], 1..D the data, and D+i the address flit of
// Dests[i] for i >= 1. A branch carries the same format: an address flit, the data (from
// the upstream buffer, or re-injected from the auxiliary buffer), then later addresses.
//
// # Transitions (all interleavings)
//
// Each transition moves at most one flit, at one input channel (Kind):
//   - KindAlloc: the address flit at the head of an input finds no reserved output among
//     those the relation permits and takes a free one (any free model VC of any permitted
//     (channel, VC), one transition per free choice, so every selection function is
//     explored; or the ejection channel at its destination, which under OnePort must be
//     free), moving into it. With none free the flit waits. For a multicast
//     whose data has already passed this input this opens a new branch (000 §2.1 case
//     (a)) and the data is then re-injected from the auxiliary buffer.
//   - KindFollow: an address flit for which the relation permits an output its message
//     reserved here moves into it (000 §2.1 case (b); 000 §4: the router "checks first if
//     there is a reserved output channel among those supplied by the routing function";
//     with several, the relation's most preferred); no data follows it.
//   - KindMove: a data/body flit (or a re-injected one) moves to the current output if its
//     buffer has room; into Eject it is delivered. A multicast's data flits crossing an
//     input are copied into its auxiliary buffer.
//   - KindPrune (multicasts only): the policy's branches at this input are released.
//
// A message's injection is its header's first KindAlloc (enabled at any time, so every
// relative timing of injections is explored; OnePort also needs the source's injection
// channel free). Allocating a virtual channel and moving the header into it are one
// transition (the VC is empty, so the move is always possible and delaying it only adds
// states); the release of a virtual channel happens in the transition that empties it
// once it is Closed (its tail has left, or its upstream finished), and closes its own
// outputs in turn, so a release travels down a pruned branch at once. Neither reduction
// hides a deadlock: the states they skip always have the skipped step enabled.
//
// Terminal: every source Done and every virtual channel free. A deadlock is a reachable
// non-terminal state with no enabled transition; Waits explains one.
//
// # Tree multicast and pruning (000 §2-§4)
//
// Each input keeps the table of outputs reserved by its message (Input.Outs). An input is
// released when its upstream has finished, its buffer is empty and no re-injection is
// pending ("when the last address flit has passed"); its outputs are then closed. Pruning
// releases outputs early: PruneOnNoFree at an address flit that finds no free output
// (every reserved output is released), PruneOnStop also when the next flit's output buffer
// is full (every output but the blocked one), PrunePartial like PruneOnNoFree but keeping
// the local ejection branch. A pruned branch keeps its flits: they drain to the
// destinations whose address flits they carry, and a later address flit that needs the
// pruned direction opens a new branch and gets the data from the auxiliary buffer. So a
// pruned branch never loses a destination in this model (every address flit is routed
// exactly once at every router on its path), and exactly-once delivery is an invariant
// (ExpectedFlits per destination, checked by the "exactly-once" invariant) rather than a
// re-send protocol.
//
// # Invariants
//
// Invariants returns buffers (no buffer over Buffer flits), ownership (a VC is held by at
// most one worm and reserved by one input), order (flits of a worm in stream order,
// unicasts contiguous), routes (every reserved VC permitted by the relation where it was
// reserved) and exactly-once.
//
// # Misroutes
//
// For a routing.Budgeted relation each message counts the misroutes its headers took
// (Msg.Mis, saturating at the budget) and the relation reads it in Header.Misroutes;
// for any other relation Misroutes is always 0, so the state space stays finite and a
// livelocking relation shows as a cycle of the state graph.
//
// # Actions
//
// MakeAction/SplitAction pack (Kind, input, argument) into a system.Action: input i <
// len(Messages) is message i's source, input len(Messages)+o is virtual channel o; the
// argument of KindAlloc is the output+1. Describe renders "m1 flit 2 (0,0)->(1,0).vc0",
// "m0 flit 0 takes (0)->(1).vc1", "m2 addr d3=(2,2) takes ...", "m0 flit 1 delivered at
// (2)", "m1 prunes branches at (1,1) (...)".
//
// Reference: 000 §2.1 (format, branching, auxiliary buffer), §3 (pruning, Lemma 1), §4
// (router: table of reserved outputs per input channel), §5.1 (two-flit queues, one-flit
// auxiliary queue, single injection/delivery channel in §5.3-5.4); Dally & Seitz (000
// [4]) for dateline virtual channels.
package flit
