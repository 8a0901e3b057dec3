package flitwire

import (
	"encoding/binary"
	"fmt"

	"github.com/google/gopacket"
)

// CrossingHeaderLen is the length of a Crossing layer in bytes.
const CrossingHeaderLen = 16

// NoChannel is the Channel of a Crossing that announces a message rather than a flit
// crossing a channel.
const NoChannel = 0xFFFFFFFF

// crossing version byte: bumps when the record format changes.
const crossingVersion = 1

// Crossing is the first layer of every record of a flit-level pcap trace: which channel a
// flit crossed, between which nodes, in which step of the trace. Wire form (big-endian):
//
//	0  version (1)
//	1  next layer: 1 flit, 2 message, 3 network (the rest of the record is the
//	   topology spec the trace runs on, as wormcheck names it: "mesh:3x2")
//	2  reserved, 0 (2 bytes)
//	4  channel id (uint32), NoChannel for a message announcement
//	8  from node (uint32)
//	12 to node (uint32)
//
// The step is not repeated here: the record's timestamp carries it (see WriteTrace).
type Crossing struct {
	BaseLayer
	Next     gopacket.LayerType // LayerTypeFlit, LayerTypeMessage, or gopacket.LayerTypePayload for the network record
	Channel  uint32
	From, To uint32
}

// LayerType returns LayerTypeCrossing.
func (c *Crossing) LayerType() gopacket.LayerType { return LayerTypeCrossing }

// CanDecode returns LayerTypeCrossing.
func (c *Crossing) CanDecode() gopacket.LayerClass { return LayerTypeCrossing }

// NextLayerType returns LayerTypeFlit, LayerTypeMessage or gopacket.LayerTypePayload.
func (c *Crossing) NextLayerType() gopacket.LayerType { return c.Next }

// DecodeFromBytes fills c from data in place and reports truncation to df.
func (c *Crossing) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < CrossingHeaderLen {
		df.SetTruncated()
		return fmt.Errorf("crossing: %d bytes; the header needs %d", len(data), CrossingHeaderLen)
	}
	if data[0] != crossingVersion {
		return fmt.Errorf("crossing: version %d; want %d", data[0], crossingVersion)
	}
	switch data[1] {
	case 1:
		c.Next = LayerTypeFlit
	case 2:
		c.Next = LayerTypeMessage
	case 3:
		c.Next = gopacket.LayerTypePayload
	default:
		return fmt.Errorf("crossing: next layer %d is unknown; want 1 (flit), 2 (message) or 3 (network)", data[1])
	}
	if data[2] != 0 || data[3] != 0 {
		return fmt.Errorf("crossing: reserved bytes are not 0")
	}
	c.Channel = binary.BigEndian.Uint32(data[4:8])
	c.From = binary.BigEndian.Uint32(data[8:12])
	c.To = binary.BigEndian.Uint32(data[12:16])
	c.BaseLayer = BaseLayer{Contents: data[:CrossingHeaderLen], Payload: data[CrossingHeaderLen:]}
	return nil
}

// SerializeTo prepends the crossing header to b.
func (c *Crossing) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	var next byte
	switch c.Next {
	case LayerTypeFlit:
		next = 1
	case LayerTypeMessage:
		next = 2
	case gopacket.LayerTypePayload:
		next = 3
	default:
		return fmt.Errorf("crossing: next layer %v cannot follow a crossing", c.Next)
	}
	h, err := b.PrependBytes(CrossingHeaderLen)
	if err != nil {
		return err
	}
	h[0] = crossingVersion
	h[1] = next
	h[2], h[3] = 0, 0
	binary.BigEndian.PutUint32(h[4:8], c.Channel)
	binary.BigEndian.PutUint32(h[8:12], c.From)
	binary.BigEndian.PutUint32(h[12:16], c.To)
	return nil
}

func decodeCrossing(data []byte, p gopacket.PacketBuilder) error {
	return decodeWith(&Crossing{}, data, p)
}
