package sim

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestTraceEventRecord checks that a move survives the pcap encoding with its flags: a
// header flit on a channel, and a tail flit delivered (no channel).
func TestTraceEventRecord(t *testing.T) {
	for _, ev := range []TraceEvent{
		{Cycle: 7, Channel: 3, VC: 1, Node: 2, Worm: 5, Msg: 9, Head: true},
		{Cycle: 8, Channel: topology.None, Node: 4, Worm: 5, Msg: 9, Tail: true},
	} {
		m, err := flitwire.DecodeSimMove(flitwire.AppendSimMove(nil, ev.Record()))
		if err != nil {
			t.Fatal(err)
		}
		if m.Cycle != uint64(ev.Cycle) || m.Node != uint32(ev.Node) || m.Msg != uint32(ev.Msg) ||
			(m.Flags&flitwire.SimHead != 0) != ev.Head || (m.Flags&flitwire.SimTail != 0) != ev.Tail ||
			(m.Flags&flitwire.SimDelivery != 0) != (ev.Channel == topology.None) {
			t.Fatalf("%+v became %+v", ev, m)
		}
	}
}
