package flitwire

import (
	"encoding/binary"
	"fmt"

	"github.com/google/gopacket"
)

// Kind says what a flit carries.
type Kind uint8

// The flit kinds. An address flit carries one destination (d1 is the header of a worm,
// d2..dn follow the data, 000 Fig. 1); a data flit carries one word of the message's data;
// a tail flit carries nothing and only ends a worm: a router sends it on a branch it prunes
// (000 §3), so that the branch's channels are released downstream.
const (
	KindAddress Kind = 1
	KindData    Kind = 2
	KindTail    Kind = 3
)

var kindNames = [...]string{"", "address", "data", "tail"}

// String names the kind.
func (k Kind) String() string {
	if k >= KindAddress && k <= KindTail {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Valid reports whether k is one of the defined kinds.
func (k Kind) Valid() bool { return k >= KindAddress && k <= KindTail }

// Flags qualify a flit's place in its worm.
type Flags uint8

// The flags. First marks the header flit of a worm (the flit that allocates channels);
// Last marks the flit whose passage releases them (dn, or a tail flit after a prune).
const (
	FlagFirst Flags = 1 << 0
	FlagLast  Flags = 1 << 1
	flagsMask       = FlagFirst | FlagLast
)

// FlitHeaderLen is the length of a Flit layer's header in bytes.
const FlitHeaderLen = 10

// Flit is one flit on a channel. Wire form (big-endian):
//
//	0  kind (1 address, 2 data, 3 tail)
//	1  flags (bit 0 first, bit 1 last; other bits must be 0)
//	2  virtual channel
//	3  reserved, 0
//	4  message id (uint16)
//	6  word (uint32): the destination node of an address flit, the index of a data
//	   flit within the message's data, 0 for a tail flit
//
// A data flit's payload (the data word itself) follows as the layer's Payload; the other
// kinds have none.
type Flit struct {
	BaseLayer
	Kind    Kind
	Flags   Flags
	VC      uint8
	Message uint16
	// Word is the destination address (KindAddress) or the data index (KindData).
	Word uint32
}

// BaseLayer is gopacket's BaseLayer, re-exported so that users need not import layers.
type BaseLayer struct {
	Contents []byte
	Payload  []byte
}

// LayerContents returns the bytes of the layer's header.
func (b *BaseLayer) LayerContents() []byte { return b.Contents }

// LayerPayload returns the bytes that follow the header.
func (b *BaseLayer) LayerPayload() []byte { return b.Payload }

// LayerType returns LayerTypeFlit.
func (f *Flit) LayerType() gopacket.LayerType { return LayerTypeFlit }

// CanDecode returns LayerTypeFlit.
func (f *Flit) CanDecode() gopacket.LayerClass { return LayerTypeFlit }

// NextLayerType returns gopacket.LayerTypePayload for a data flit with payload bytes and
// LayerTypeZero otherwise.
func (f *Flit) NextLayerType() gopacket.LayerType {
	if f.Kind == KindData && len(f.Payload) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}

// DecodeFromBytes fills f from data in place. It reports truncation to df and rejects
// unknown kinds, unknown flag bits and payload after a non-data flit.
func (f *Flit) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < FlitHeaderLen {
		df.SetTruncated()
		return fmt.Errorf("flit: %d bytes; the header needs %d", len(data), FlitHeaderLen)
	}
	k := Kind(data[0])
	if !k.Valid() {
		return fmt.Errorf("flit: kind %d is unknown; want 1 (address), 2 (data) or 3 (tail)", data[0])
	}
	fl := Flags(data[1])
	if fl&^flagsMask != 0 {
		return fmt.Errorf("flit: flags %#02x has unknown bits", data[1])
	}
	if data[3] != 0 {
		return fmt.Errorf("flit: reserved byte is %d; want 0", data[3])
	}
	if k != KindData && len(data) > FlitHeaderLen {
		return fmt.Errorf("flit: %v flit has %d payload bytes; only data flits carry payload", k, len(data)-FlitHeaderLen)
	}
	f.Kind = k
	f.Flags = fl
	f.VC = data[2]
	f.Message = binary.BigEndian.Uint16(data[4:6])
	f.Word = binary.BigEndian.Uint32(data[6:10])
	f.BaseLayer = BaseLayer{Contents: data[:FlitHeaderLen], Payload: data[FlitHeaderLen:]}
	return nil
}

// SerializeTo prepends the flit's header to b (the payload, if any, must already be in b).
func (f *Flit) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if !f.Kind.Valid() {
		return fmt.Errorf("flit: kind %d is unknown", uint8(f.Kind))
	}
	if f.Flags&^flagsMask != 0 {
		return fmt.Errorf("flit: flags %#02x has unknown bits", uint8(f.Flags))
	}
	if f.Kind != KindData && len(b.Bytes()) > 0 {
		return fmt.Errorf("flit: %v flit cannot carry %d payload bytes", f.Kind, len(b.Bytes()))
	}
	h, err := b.PrependBytes(FlitHeaderLen)
	if err != nil {
		return err
	}
	h[0] = byte(f.Kind)
	h[1] = byte(f.Flags)
	h[2] = f.VC
	h[3] = 0
	binary.BigEndian.PutUint16(h[4:6], f.Message)
	binary.BigEndian.PutUint32(h[6:10], f.Word)
	return nil
}

// String renders the flit for people, e.g. "m1 address d=(5) vc0 first".
func (f *Flit) String() string {
	s := fmt.Sprintf("m%d %v", f.Message, f.Kind)
	switch f.Kind {
	case KindAddress:
		s += fmt.Sprintf(" dst=%d", f.Word)
	case KindData:
		s += fmt.Sprintf(" #%d", f.Word)
	}
	s += fmt.Sprintf(" vc%d", f.VC)
	if f.Flags&FlagFirst != 0 {
		s += " first"
	}
	if f.Flags&FlagLast != 0 {
		s += " last"
	}
	return s
}

func decodeFlit(data []byte, p gopacket.PacketBuilder) error {
	return decodeWith(&Flit{}, data, p)
}
