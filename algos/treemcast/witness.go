package treemcast

import (
	"bytes"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/flitsvg"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/routing"
)

// msgName names message i as 000 Fig. 3 does: A, B, C, ...
func msgName(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("M%d", i)
}

// Picture draws state s of instance in: which message holds which virtual channel, the
// headers at the head of an input that have no usable output (in a deadlocked state,
// every header still to route), and each message's XY tree.
func Picture(in Instance, m *flit.Model, s flit.State, title string) flitsvg.Picture {
	g := in.Grid
	cfg := m.Config()
	tab := m.Table()
	vcs := cfg.VCs
	L := in.Params.Length
	p := flitsvg.Picture{Title: title, Grid: g, VCs: vcs}
	for i, mc := range in.Msgs {
		seen := map[model.ChannelID]bool{}
		var path []model.ChannelID
		for _, d := range mc.Dests {
			for _, c := range preferredPath(cfg.Routing, mc.Source, d) {
				if !seen[c] {
					seen[c] = true
					path = append(path, c)
				}
			}
		}
		p.Messages = append(p.Messages, flitsvg.Message{Name: msgName(i), Source: mc.Source, Destinations: mc.Dests, Path: path, Note: fmt.Sprintf("m%d", i)})
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 {
			p.Holds = append(p.Holds, flitsvg.Hold{Channel: model.ChannelID(o / vcs), VC: o % vcs, Message: int(v.Owner), Flits: v.Flits.Len(tab)})
		}
	}
	// Headers at the head of an input that no reserved output serves.
	header := func(i int, f uint8, at model.NodeID, from routing.Input, in0 flit.Input) {
		di := -1
		if f == 0 {
			di = 0
		} else if int(f) > L {
			di = int(f) - L
		}
		if di < 0 || di >= len(in.Msgs[i].Dests) {
			return
		}
		d := in.Msgs[i].Dests[di]
		want := model.ChannelID(model.None)
		if d != at {
			h := routing.Header{At: at, In: from, Src: in.Msgs[i].Source, Dst: d}
			if outs := cfg.Routing.Route(h, nil); len(outs) > 0 {
				want = outs[0].Channel
			}
		}
		for _, o := range in0.Outs.Slice(tab) {
			if (o == flit.Eject && want == model.None) || (o >= 0 && model.ChannelID(int(o)/vcs) == want) {
				if o == flit.Eject || s.VCs[o].Flits.Len(tab) < cfg.Buffer {
					return // it has a usable branch
				}
			}
		}
		p.Blocked = append(p.Blocked, flitsvg.Blocked{Message: i, At: at, Wants: want, Label: fmt.Sprintf("%c%d", 'a'+rune(i%26), di+1)})
	}
	for i, g := range s.Msgs {
		if !g.Done && g.In.Reinj == 0 && int(g.Sent) < m.Config().Messages[i].Flits() {
			header(i, g.Sent, in.Msgs[i].Source, routing.Input{Channel: routing.Injection}, g.In)
		}
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 && v.Flits.Len(tab) > 0 && v.In.Reinj == 0 {
			_, to := cfg.Net.Ends(model.ChannelID(o / vcs))
			rvc := o % vcs / (vcs / cfg.Routing.VCs())
			header(int(v.Owner), v.Flits.At(tab, 0), to, routing.Input{Channel: model.ChannelID(o / vcs), VC: rvc}, v.In)
		}
	}
	return p
}

// preferredPath returns the channels a header from src to dst takes when it always takes
// the relation's most preferred output: the XY path under dimension-order routing, one
// of the permitted paths under an adaptive relation. It stops after as many hops as the
// grid has channels (a relation that loops) or where the relation permits nothing.
func preferredPath(rel routing.Relation, src, dst model.NodeID) []model.ChannelID {
	var path []model.ChannelID
	h := routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
	var outs []routing.Output
	for h.At != dst && len(path) < rel.Grid().Channels() {
		outs = rel.Route(h, outs[:0])
		if len(outs) == 0 || outs[0].Channel < 0 || int(outs[0].Channel) >= rel.Grid().Channels() {
			break
		}
		path = append(path, outs[0].Channel)
		h.In = routing.Input{Channel: outs[0].Channel, VC: outs[0].VC}
		h.At = rel.Grid().Channel(outs[0].Channel).To
	}
	return path
}

// SVG draws the last state of a trace.
func SVG(in Instance, m *flit.Model, tr checker.Trace[flit.State], title string) ([]byte, error) {
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("svg: empty trace")
	}
	return flitsvg.Draw(Picture(in, m, tr.Steps[len(tr.Steps)-1].State, title))
}

// PcapTrace turns a trace into flit crossings: step k of the trace is stamped k. A flit
// entering a virtual channel is a record on that channel; a delivery is a record on the
// ejection channel of the node, numbered Channels()+node (From = To = the node); a prune
// is a tail flit (KindTail, FlagLast) on every branch it cuts. Data flits carry one byte,
// the message id.
func PcapTrace(in Instance, m *flit.Model, tr checker.Trace[flit.State]) (flitwire.Trace, error) {
	cfg := m.Config()
	tab := m.Table()
	vcs := cfg.VCs
	L := in.Params.Length
	nch := cfg.Net.Channels()
	var out flitwire.Trace
	for i, mc := range in.Msgs {
		wm := flitwire.Message{ID: uint16(i), Source: uint32(mc.Source), DataFlits: uint16(L)}
		for _, d := range mc.Dests {
			wm.Destinations = append(wm.Destinations, uint32(d))
		}
		out.Messages = append(out.Messages, wm)
	}
	nm := len(in.Msgs)
	for k := 1; k < len(tr.Steps); k++ {
		before, after := tr.Steps[k-1].State, tr.Steps[k].State
		kind, input, arg := flit.SplitAction(tr.Steps[k].Action)
		var bin, ain flit.Input
		var msg int
		var at model.NodeID
		var f uint8
		switch {
		case input < nm:
			msg, at = input, in.Msgs[input].Source
			bin, ain = before.Msgs[input].In, after.Msgs[input].In
			f = before.Msgs[input].Sent
		case input-nm < len(before.VCs):
			v := before.VCs[input-nm]
			msg = int(v.Owner)
			_, at = cfg.Net.Ends(model.ChannelID((input - nm) / vcs))
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
		if bin.Reinj > 0 {
			f = uint8(L - int(bin.Reinj) + 1)
		}
		if kind == flit.KindPrune {
			kept := map[flit.Out]bool{}
			for _, o := range ain.Outs.Slice(tab) {
				kept[o] = true
			}
			for _, o := range bin.Outs.Slice(tab) {
				if o != flit.Eject && !kept[o] {
					out.Records = append(out.Records, crossing(cfg, k, int(o), msg, flitwire.KindTail, flitwire.FlagLast, 0))
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
		wk, word, flags := flitwire.KindData, uint32(0), flitwire.Flags(0)
		switch {
		case f == 0:
			wk, word, flags = flitwire.KindAddress, uint32(in.Msgs[msg].Dests[0]), flitwire.FlagFirst
		case int(f) > L:
			wk, word = flitwire.KindAddress, uint32(in.Msgs[msg].Dests[int(f)-L])
		default:
			word = uint32(f - 1)
		}
		if int(f) == L+len(in.Msgs[msg].Dests)-1 && bin.Reinj == 0 {
			flags |= flitwire.FlagLast
		}
		if o == flit.Eject {
			r := flitwire.Record{Step: k, Channel: uint32(nch + int(at)), From: uint32(at), To: uint32(at), Kind: wk, Flags: flags, Message: uint16(msg), Word: word}
			if wk == flitwire.KindData {
				r.Data = []byte{byte(msg)}
			}
			out.Records = append(out.Records, r)
			continue
		}
		out.Records = append(out.Records, crossing(cfg, k, int(o), msg, wk, flags, word))
	}
	return out, nil
}

func crossing(cfg flit.Config, step, o, msg int, k flitwire.Kind, fl flitwire.Flags, word uint32) flitwire.Record {
	c := model.ChannelID(o / cfg.VCs)
	from, to := cfg.Net.Ends(c)
	r := flitwire.Record{Step: step, Channel: uint32(c), From: uint32(from), To: uint32(to), Kind: k, Flags: fl, VC: uint8(o % cfg.VCs), Message: uint16(msg), Word: word}
	if k == flitwire.KindData {
		r.Data = []byte{byte(msg)}
	}
	return r
}

// PCAP writes the trace as a pcap file (flitwire.WriteTrace).
func PCAP(in Instance, m *flit.Model, tr checker.Trace[flit.State]) ([]byte, error) {
	t, err := PcapTrace(in, m, tr)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := flitwire.WriteTrace(&b, t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
