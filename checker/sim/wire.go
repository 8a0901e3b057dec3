package sim

import (
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Record is the flit move as a pcap record's fields (flitwire.SimMove): a delivery, a
// move with no channel, is flagged SimDelivery, and the header and tail flits SimHead
// and SimTail, so that `wormcheck dissector` and Wireshark can decode a --trace file.
func (ev TraceEvent) Record() flitwire.SimMove {
	m := flitwire.SimMove{VC: uint8(ev.VC), Cycle: uint64(ev.Cycle), Channel: int32(ev.Channel), Node: uint32(ev.Node), Worm: uint32(ev.Worm), Msg: uint32(ev.Msg)}
	if ev.Head {
		m.Flags |= flitwire.SimHead
	}
	if ev.Tail {
		m.Flags |= flitwire.SimTail
	}
	if ev.Channel == topology.None {
		m.Flags |= flitwire.SimDelivery
	}
	return m
}
