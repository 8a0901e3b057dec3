package unicast

import (
	"fmt"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
)

// Witness draws a violation r found on spec sp: its last state as SVG and its trace as a
// pcap capture (one record per flit crossing a channel, LINKTYPE_USER0). It reuses tree
// multicast's witness drawing, since a unicast worm is a message with one destination.
func Witness(sp Spec, r *Result) (svg, pcap []byte, err error) {
	g, err := sp.Grid()
	if err != nil {
		return nil, nil, err
	}
	m, err := BuildOn(g, sp)
	if err != nil {
		return nil, nil, err
	}
	tr, err := checker.Replay[flit.State](m, 0, r.Actions)
	if err != nil {
		return nil, nil, fmt.Errorf("witness: %v", err)
	}
	in := treemcast.Instance{Grid: g, Params: treemcast.Params{Length: sp.Length, Buffer: sp.Buffer, Ports: sp.Ports}}
	for _, p := range sp.Pairs {
		in.Msgs = append(in.Msgs, treemcast.Multicast{Source: p.Src, Dests: []model.NodeID{p.Dst}})
	}
	title := fmt.Sprintf("%s, %d worms, L=%d, B=%d: deadlock after %d steps", g.Spec(), len(sp.Pairs), sp.Length, sp.Buffer, len(r.Actions))
	if svg, err = treemcast.SVG(in, m, tr, title); err != nil {
		return nil, nil, err
	}
	if pcap, err = treemcast.PCAP(in, m, tr); err != nil {
		return nil, nil, err
	}
	return svg, pcap, nil
}
