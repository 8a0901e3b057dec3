package flitwire

import (
	"bytes"
	"fmt"

	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// FromFlit turns a run of model/flit into flit crossings: states[k] is the state after
// actions[k-1] (states[0] is the initial state, len(actions) == len(states)-1), and step
// k of the run is stamped k. A flit entering a virtual channel is a record on that
// channel; a delivery is a record on the ejection channel of the node, numbered
// Channels()+node (From = To = the node); a prune is a tail flit (KindTail, FlagLast) on
// every branch it cuts. Data flits carry one byte, the message id. Every message is
// announced first (its source, destinations and number of data flits, so that the
// announcement's Flits is the worm's length for unicast worms and multicasts alike).
func FromFlit(m *flit.Model, states []flit.State, actions []system.Action) (Trace, error) {
	cfg := m.Config()
	tab := m.Table()
	vcs := cfg.VCs
	nch := cfg.Net.Channels()
	if len(states) != len(actions)+1 {
		return Trace{}, fmt.Errorf("pcap: %d states and %d actions; want one state more than actions", len(states), len(actions))
	}
	out := Trace{Topology: cfg.Net.Spec()}
	for i, mc := range cfg.Messages {
		// A unicast worm's Length counts its address flit; a multicast's counts data
		// flits only (model/flit.Message): the announcement says how many data flits follow.
		wm := Message{ID: uint16(i), Source: uint32(mc.Source), DataFlits: uint16(mc.Flits() - len(mc.Dests))}
		for _, d := range mc.Dests {
			wm.Destinations = append(wm.Destinations, uint32(d))
		}
		out.Messages = append(out.Messages, wm)
	}
	nm := len(cfg.Messages)
	for k := 1; k < len(states); k++ {
		before, after := states[k-1], states[k]
		kind, input, arg := flit.SplitAction(actions[k-1])
		var bin, ain flit.Input
		var msg int
		var at topology.NodeID
		var f uint8
		switch {
		case input < nm:
			msg, at = input, cfg.Messages[input].Source
			bin, ain = before.Msgs[input].In, after.Msgs[input].In
			f = before.Msgs[input].Sent
		case input-nm < len(before.VCs):
			v := before.VCs[input-nm]
			msg = int(v.Owner)
			_, at = cfg.Net.Ends(topology.ChannelID((input - nm) / vcs))
			bin = v.In
			if after.VCs[input-nm].Owner == v.Owner {
				ain = after.VCs[input-nm].In
			}
			if v.Flits.Len(tab) > 0 {
				f = v.Flits.At(tab, 0)
			}
		default:
			return out, fmt.Errorf("pcap: step %d acts on unknown input %d", k, input)
		}
		if msg < 0 || msg >= nm {
			return out, fmt.Errorf("pcap: step %d acts on a free input %d", k, input)
		}
		mc := cfg.Messages[msg]
		if bin.Reinj > 0 {
			f = uint8(mc.Length - int(bin.Reinj) + 1)
		}
		if kind == flit.KindPrune {
			kept := map[flit.Out]bool{}
			for _, o := range ain.Outs.Slice(tab) {
				kept[o] = true
			}
			for _, o := range bin.Outs.Slice(tab) {
				if o != flit.Eject && !kept[o] {
					out.Records = append(out.Records, crossing(cfg, k, int(o), msg, KindTail, FlagLast, 0))
				}
			}
			continue
		}
		o := flit.Eject
		switch kind {
		case flit.KindAlloc:
			o = flit.Out(arg - 1)
		case flit.KindMove:
			o = bin.Outs.At(tab, int(bin.Cur))
		case flit.KindFollow:
			for _, x := range bin.Outs.Slice(tab) {
				if x != flit.Eject && after.VCs[x].Flits.Len(tab) == before.VCs[x].Flits.Len(tab)+1 {
					o = x
				}
			}
		}
		wk, word, flags := KindData, uint32(0), Flags(0)
		switch {
		case f == 0:
			wk, word, flags = KindAddress, uint32(mc.Dests[0]), FlagFirst
		case mc.Multicast && int(f) > mc.Length && int(f)-mc.Length < len(mc.Dests):
			wk, word = KindAddress, uint32(mc.Dests[int(f)-mc.Length])
		default:
			word = uint32(f - 1)
		}
		if int(f) == mc.Flits()-1 && bin.Reinj == 0 {
			flags |= FlagLast
		}
		if o == flit.Eject {
			r := Record{Step: k, Channel: uint32(nch + int(at)), From: uint32(at), To: uint32(at), Kind: wk, Flags: flags, Message: uint16(msg), Word: word}
			if wk == KindData {
				r.Data = []byte{byte(msg)}
			}
			out.Records = append(out.Records, r)
			continue
		}
		out.Records = append(out.Records, crossing(cfg, k, int(o), msg, wk, flags, word))
	}
	return out, nil
}

func crossing(cfg flit.Config, step, o, msg int, k Kind, fl Flags, word uint32) Record {
	c := topology.ChannelID(o / cfg.VCs)
	from, to := cfg.Net.Ends(c)
	r := Record{Step: step, Channel: uint32(c), From: uint32(from), To: uint32(to), Kind: k, Flags: fl, VC: uint8(o % cfg.VCs), Message: uint16(msg), Word: word}
	if k == KindData {
		r.Data = []byte{byte(msg)}
	}
	return r
}

// FlitPCAP writes a run of model/flit (see FromFlit) as a pcap file (WriteTrace).
func FlitPCAP(m *flit.Model, states []flit.State, actions []system.Action) ([]byte, error) {
	t, err := FromFlit(m, states, actions)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := WriteTrace(&b, t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
