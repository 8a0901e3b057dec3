package flit

import "github.com/wormcheck/wormcheck/model/topology"

// WaitLink is one edge of a state's wait-for cycle: message Waiter, at router At, waits
// for lane VC of channel Channel (topology.None and VC -1: the ejection or injection
// channel, Port says which), which message Holder holds.
type WaitLink struct {
	Waiter  int
	At      topology.NodeID
	Channel topology.ChannelID
	VC      int
	Port    string // "", "ejection" or "injection"
	Holder  int
}

// WaitCycle returns the wait-for cycle of state s, in order around it: the first cycle
// of the wait-for graph (WaitFor, system.WaitGraph.Cycle) among the waits its local
// deadlock explains, each edge naming the lane its waiter needs; nil when the state has
// none. The witness text, the pictures and the explorer all name this one cycle.
func (m *Model) WaitCycle(s State) []WaitLink {
	g := m.WaitFor(s)
	set := g.Explained()
	var out []WaitLink
	for _, e := range g.Cycle(set) {
		w := g.Waits[e.Wait]
		need := w.Needs[e.Need]
		l := WaitLink{Waiter: e.Waiter, At: topology.NodeID(w.At), Channel: topology.None, VC: -1, Holder: e.Holder}
		switch {
		case need.ID >= 0:
			l.Channel, l.VC = m.Channel(Out(need.ID)), m.VCOf(Out(need.ID))
		case w.Kind == WaitInject:
			l.Port = "injection"
		default:
			l.Port = "ejection"
		}
		if w.Kind == WaitEject {
			// A delivery-channel wait names the channel its holder arrived on; the
			// picture draws it at the router.
			l.Channel, l.VC, l.Port = topology.None, -1, "ejection"
		}
		out = append(out, l)
	}
	return out
}

// What names the kind of move for a witness step: "prune", "deliver" (into the ejection
// channel), "inject" (out of a source), "route" (a header allocating its next channel),
// "follow" or "advance".
func (mv Move) What() string {
	switch {
	case mv.Kind == KindPrune:
		return "prune"
	case mv.To == Eject:
		return "deliver"
	case mv.FromVC == None:
		return "inject"
	case mv.Kind == KindAlloc:
		return "route"
	case mv.Kind == KindFollow:
		return "follow"
	}
	return "advance"
}
