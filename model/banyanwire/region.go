// Package banyanwire is the wire format of the broadcast banyan's routing header: the
// region-encoding header (min, max) of 002 §2.2 as a gopacket layer, so that headers in
// traces can be captured, decoded and shown by gopacket-based tools.
//
// Layout (6 bytes, big endian):
//
//	byte 0    version (high nibble, 1) | flags (low nibble; bit 0: region, i.e. multicast)
//	byte 1    n, the number of stages (1..16; N = 2^n)
//	bytes 2-3 min
//	bytes 4-5 max
//
// A unicast tag to node d is the region {d, d} with the region flag clear. The header is
// followed by the payload (gopacket.LayerTypePayload).
//
// Reference: 002 §2.2.
package banyanwire

import (
	"encoding/binary"
	"fmt"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/wormcheck/wormcheck/model/topology"
)

// LayerTypeRegionHeader is the gopacket layer type of RegionHeader (custom number 1700;
// wormcheck's flit layers use 1000-1002).
var LayerTypeRegionHeader = gopacket.RegisterLayerType(1700, gopacket.LayerTypeMetadata{
	Name:    "BanyanRegionHeader",
	Decoder: gopacket.DecodeFunc(decodeRegionHeader),
})

// HeaderLen is the length of an encoded RegionHeader.
const HeaderLen = 6

// Version is the header version this package writes and reads.
const Version = 1

// RegionHeader is the routing header of a packet in the broadcast banyan: the region
// [Min, Max] of destinations on a network of 2^Stages nodes. Multicast is the region
// flag; when it is clear, Min equals Max (a unicast tag).
type RegionHeader struct {
	layers.BaseLayer
	Stages    uint8
	Multicast bool
	Min, Max  uint16
}

// NewRegionHeader returns the header of region r on banyan b; a region of one node is
// encoded as a unicast tag.
func NewRegionHeader(b *topology.Banyan, r topology.Region) (*RegionHeader, error) {
	if err := b.CheckRegion(r); err != nil {
		return nil, err
	}
	return &RegionHeader{Stages: uint8(b.Stages()), Multicast: r.Min != r.Max, Min: uint16(r.Min), Max: uint16(r.Max)}, nil
}

// Region returns the header's region.
func (h *RegionHeader) Region() topology.Region {
	return topology.Region{Min: int(h.Min), Max: int(h.Max)}
}

// LayerType implements gopacket.Layer.
func (h *RegionHeader) LayerType() gopacket.LayerType { return LayerTypeRegionHeader }

// CanDecode implements gopacket.DecodingLayer.
func (h *RegionHeader) CanDecode() gopacket.LayerClass { return LayerTypeRegionHeader }

// NextLayerType implements gopacket.DecodingLayer: the payload follows.
func (h *RegionHeader) NextLayerType() gopacket.LayerType { return gopacket.LayerTypePayload }

// DecodeFromBytes fills h from data, reporting truncation and invalid fields (version,
// stages, min > max, a value outside 0..2^n-1, a unicast tag with min != max).
func (h *RegionHeader) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < HeaderLen {
		df.SetTruncated()
		return fmt.Errorf("banyan region header: %d bytes, want %d", len(data), HeaderLen)
	}
	if v := data[0] >> 4; v != Version {
		return fmt.Errorf("banyan region header: version %d, want %d", v, Version)
	}
	if f := data[0] & 0x0e; f != 0 {
		return fmt.Errorf("banyan region header: unknown flags %#x", f)
	}
	n := data[1]
	if n < 1 || n > 16 {
		return fmt.Errorf("banyan region header: stages %d, want 1..16", n)
	}
	h.Stages, h.Multicast = n, data[0]&1 == 1
	h.Min, h.Max = binary.BigEndian.Uint16(data[2:4]), binary.BigEndian.Uint16(data[4:6])
	limit := uint32(1) << n
	switch {
	case uint32(h.Max) >= limit:
		return fmt.Errorf("banyan region header: max %d is not a node of a %d-node banyan", h.Max, limit)
	case h.Min > h.Max:
		return fmt.Errorf("banyan region header: min %d exceeds max %d", h.Min, h.Max)
	case !h.Multicast && h.Min != h.Max:
		return fmt.Errorf("banyan region header: unicast tag with min %d != max %d", h.Min, h.Max)
	}
	h.BaseLayer = layers.BaseLayer{Contents: data[:HeaderLen], Payload: data[HeaderLen:]}
	return nil
}

// SerializeTo implements gopacket.SerializableLayer: it prepends the header.
func (h *RegionHeader) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if h.Stages < 1 || h.Stages > 16 {
		return fmt.Errorf("banyan region header: stages %d, want 1..16", h.Stages)
	}
	if h.Min > h.Max || uint32(h.Max) >= uint32(1)<<h.Stages {
		return fmt.Errorf("banyan region header: region [%d,%d] does not fit a %d-stage banyan", h.Min, h.Max, h.Stages)
	}
	buf, err := b.PrependBytes(HeaderLen)
	if err != nil {
		return err
	}
	buf[0] = Version << 4
	if h.Multicast {
		buf[0] |= 1
	}
	buf[1] = h.Stages
	binary.BigEndian.PutUint16(buf[2:4], h.Min)
	binary.BigEndian.PutUint16(buf[4:6], h.Max)
	return nil
}

// Route applies the SE rule of 002 §2.2 at stage i (topology.Banyan.RegionStep) and returns
// the ports used (bit p = port p) and the header of each copy.
func (h *RegionHeader) Route(i int) (ports int, out [2]RegionHeader) {
	b, err := topology.NewBanyan(1 << h.Stages)
	if err != nil {
		return 0, out
	}
	ports, rs := b.RegionStep(i, h.Region())
	for p := 0; p < 2; p++ {
		if ports&(1<<p) != 0 {
			out[p] = RegionHeader{Stages: h.Stages, Multicast: rs[p].Min != rs[p].Max, Min: uint16(rs[p].Min), Max: uint16(rs[p].Max)}
		}
	}
	return ports, out
}

func decodeRegionHeader(data []byte, p gopacket.PacketBuilder) error {
	h := &RegionHeader{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	return p.NextDecoder(h.NextLayerType())
}
