package flitwire

import (
	"encoding/binary"
	"fmt"

	"github.com/google/gopacket"
)

// MessageHeaderLen is the length of a Message layer's fixed part; four bytes per
// destination follow it.
const MessageHeaderLen = 10

// MaxDestinations bounds the destination list of one message (the count is a uint16 on
// the wire; the bound also keeps a decoder from trusting a huge count).
const MaxDestinations = 4096

// Message describes a whole multicast message as its source injects it: the worm (d1,
// data, d2, ..., dn) of 000 Fig. 1. Wire form (big-endian):
//
//	0  message id (uint16)
//	2  source node (uint32)
//	6  number of data flits L (uint16)
//	8  number of destinations n (uint16), 1..MaxDestinations
//	10 n destination nodes (uint32 each), in worm order d1..dn
//
// A Message layer has no payload; NextLayerType is LayerTypeZero.
type Message struct {
	BaseLayer
	ID           uint16
	Source       uint32
	DataFlits    uint16
	Destinations []uint32
}

// LayerType returns LayerTypeMessage.
func (m *Message) LayerType() gopacket.LayerType { return LayerTypeMessage }

// CanDecode returns LayerTypeMessage.
func (m *Message) CanDecode() gopacket.LayerClass { return LayerTypeMessage }

// NextLayerType returns LayerTypeZero: nothing follows a message descriptor.
func (m *Message) NextLayerType() gopacket.LayerType { return gopacket.LayerTypeZero }

// Flits returns the number of flits of the message's worm: n address flits and L data
// flits.
func (m *Message) Flits() int { return len(m.Destinations) + int(m.DataFlits) }

// DecodeFromBytes fills m from data in place, reusing m.Destinations' storage. It reports
// truncation to df.
func (m *Message) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < MessageHeaderLen {
		df.SetTruncated()
		return fmt.Errorf("message: %d bytes; the header needs %d", len(data), MessageHeaderLen)
	}
	n := int(binary.BigEndian.Uint16(data[8:10]))
	if n < 1 || n > MaxDestinations {
		return fmt.Errorf("message: %d destinations; want 1..%d", n, MaxDestinations)
	}
	end := MessageHeaderLen + 4*n
	if len(data) < end {
		df.SetTruncated()
		return fmt.Errorf("message: %d bytes; %d destinations need %d", len(data), n, end)
	}
	if len(data) > end {
		return fmt.Errorf("message: %d bytes after the %d destinations; a message has no payload", len(data)-end, n)
	}
	m.ID = binary.BigEndian.Uint16(data[0:2])
	m.Source = binary.BigEndian.Uint32(data[2:6])
	m.DataFlits = binary.BigEndian.Uint16(data[6:8])
	m.Destinations = m.Destinations[:0]
	for i := 0; i < n; i++ {
		m.Destinations = append(m.Destinations, binary.BigEndian.Uint32(data[MessageHeaderLen+4*i:]))
	}
	m.BaseLayer = BaseLayer{Contents: data[:end], Payload: nil}
	return nil
}

// SerializeTo prepends the message descriptor to b.
func (m *Message) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	n := len(m.Destinations)
	if n < 1 || n > MaxDestinations {
		return fmt.Errorf("message %d: %d destinations; want 1..%d", m.ID, n, MaxDestinations)
	}
	h, err := b.PrependBytes(MessageHeaderLen + 4*n)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint16(h[0:2], m.ID)
	binary.BigEndian.PutUint32(h[2:6], m.Source)
	binary.BigEndian.PutUint16(h[6:8], m.DataFlits)
	binary.BigEndian.PutUint16(h[8:10], uint16(n))
	for i, d := range m.Destinations {
		binary.BigEndian.PutUint32(h[MessageHeaderLen+4*i:], d)
	}
	return nil
}

func decodeMessage(data []byte, p gopacket.PacketBuilder) error {
	return decodeWith(&Message{}, data, p)
}
