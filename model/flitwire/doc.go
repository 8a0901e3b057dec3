// Package flitwire gives the message and flit formats of tree-based multicast with pruning
// (000 §2.1, Fig. 1) a wire form, as gopacket layers, and writes flit-level traces as pcap
// files that tshark and Wireshark can open.
//
// A multicast message is the worm (d1, data, d2, ..., dn): the first destination address
// flit, the data flits, then the remaining destination address flits (000 Fig. 1). Each
// flit on the wire is a Flit layer; the message as a whole (source, destinations, data
// length) is a Message layer; a pcap record is a Crossing layer (which channel the flit
// crossed) followed by a Flit layer, or followed by a Message layer for the records that
// announce each message at the start of a trace.
//
// Layer type numbers are in gopacket's custom range 1000-1999: LayerTypeCrossing (1000),
// LayerTypeFlit (1001), LayerTypeMessage (1002). All integers are big-endian.
//
// Reference: 000 §2.1 (message format), §4 (one auxiliary buffer per input channel holds
// the data flits while address flits d2..dn are routed).
package flitwire

import "github.com/google/gopacket"

// The layer types of this package, registered with gopacket at init.
var (
	LayerTypeCrossing = gopacket.RegisterLayerType(1000, gopacket.LayerTypeMetadata{
		Name: "WormcheckCrossing", Decoder: gopacket.DecodeFunc(decodeCrossing)})
	LayerTypeFlit = gopacket.RegisterLayerType(1001, gopacket.LayerTypeMetadata{
		Name: "WormcheckFlit", Decoder: gopacket.DecodeFunc(decodeFlit)})
	LayerTypeMessage = gopacket.RegisterLayerType(1002, gopacket.LayerTypeMetadata{
		Name: "WormcheckMessage", Decoder: gopacket.DecodeFunc(decodeMessage)})
)

// decodingLayer is what the package's three layers share.
type decodingLayer interface {
	gopacket.DecodingLayer
	gopacket.Layer
}

func decodeWith(l decodingLayer, data []byte, p gopacket.PacketBuilder) error {
	if err := l.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(l)
	next := l.NextLayerType()
	if next == gopacket.LayerTypeZero {
		return nil
	}
	return p.NextDecoder(next)
}
