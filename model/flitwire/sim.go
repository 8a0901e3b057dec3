package flitwire

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// SimMoveLen is the length of a simulator flit-move record.
const SimMoveLen = 28

// simMoveVersion is the first byte of a simulator flit-move record; it bumps when the
// layout changes. simNetworkVersion is the first byte of the network record a capture
// starts with.
const (
	simMoveVersion    = 1
	simNetworkVersion = 2
)

// The flags of a SimMove.
const (
	SimHead     = 1 << 0 // the worm's header flit
	SimTail     = 1 << 1 // the worm's tail flit
	SimDelivery = 1 << 2 // delivered at Node (Channel is -1)
)

// SimMove is one flit move of the timed simulator (checker/sim), the record of
// `wormcheck sim --trace F.pcap` (link type LinkTypeSimMoves). Wire form, big-endian:
//
//	0  version (1)
//	1  flags (bit 0 head, bit 1 tail, bit 2 delivery; other bits 0)
//	2  virtual channel
//	3  reserved, 0
//	4  cycle (uint64)
//	12 channel (int32, -1 for a delivery)
//	16 node (uint32): where the flit is after the move
//	20 worm (uint32)
//	24 message or unicast index (uint32)
type SimMove struct {
	Flags   uint8
	VC      uint8
	Cycle   uint64
	Channel int32
	Node    uint32
	Worm    uint32
	Msg     uint32
}

// AppendSimMove appends m's wire form to b.
func AppendSimMove(b []byte, m SimMove) []byte {
	var r [SimMoveLen]byte
	r[0], r[1], r[2] = simMoveVersion, m.Flags, m.VC
	binary.BigEndian.PutUint64(r[4:], m.Cycle)
	binary.BigEndian.PutUint32(r[12:], uint32(m.Channel))
	binary.BigEndian.PutUint32(r[16:], m.Node)
	binary.BigEndian.PutUint32(r[20:], m.Worm)
	binary.BigEndian.PutUint32(r[24:], m.Msg)
	return append(b, r[:]...)
}

// DecodeSimMove reads one simulator record; every error names the field.
func DecodeSimMove(data []byte) (SimMove, error) {
	if len(data) != SimMoveLen {
		return SimMove{}, fmt.Errorf("sim move: %d bytes; want %d", len(data), SimMoveLen)
	}
	if data[0] != simMoveVersion {
		return SimMove{}, fmt.Errorf("sim move: version %d; want %d", data[0], simMoveVersion)
	}
	if data[1]&^(SimHead|SimTail|SimDelivery) != 0 {
		return SimMove{}, fmt.Errorf("sim move: flags %#x has unknown bits", data[1])
	}
	if data[3] != 0 {
		return SimMove{}, fmt.Errorf("sim move: reserved byte is %d, not 0", data[3])
	}
	return SimMove{
		Flags: data[1], VC: data[2],
		Cycle:   binary.BigEndian.Uint64(data[4:]),
		Channel: int32(binary.BigEndian.Uint32(data[12:])),
		Node:    binary.BigEndian.Uint32(data[16:]),
		Worm:    binary.BigEndian.Uint32(data[20:]),
		Msg:     binary.BigEndian.Uint32(data[24:]),
	}, nil
}

// A capture of simulator moves starts with a network record naming the topology the
// moves' channel and node numbers refer to, so that a dissector names nodes by their
// coordinates without being told the network. Wire form: byte 0 is 2, bytes 1-3 are
// 0, then the topology spec (UTF-8, as wormcheck names it: torus:8x8) to the end of the
// record. A capture written before the record existed has none: its moves decode alike.

// AppendSimNetwork appends the network record of topology spec to b.
func AppendSimNetwork(b []byte, spec string) []byte {
	return append(append(b, simNetworkVersion, 0, 0, 0), spec...)
}

// IsSimNetwork says whether a simulator record is a network record (DecodeSimNetwork
// reads it) rather than a flit move (DecodeSimMove).
func IsSimNetwork(data []byte) bool { return len(data) > 0 && data[0] == simNetworkVersion }

// DecodeSimNetwork reads a network record: the topology spec it names.
func DecodeSimNetwork(data []byte) (string, error) {
	switch {
	case len(data) <= 4:
		return "", fmt.Errorf("sim network: %d bytes; a network record names its topology after 4 bytes", len(data))
	case data[0] != simNetworkVersion:
		return "", fmt.Errorf("sim network: version %d; want %d", data[0], simNetworkVersion)
	case data[1] != 0 || data[2] != 0 || data[3] != 0:
		return "", fmt.Errorf("sim network: reserved bytes are not 0")
	case !utf8.Valid(data[4:]):
		return "", fmt.Errorf("sim network: the topology is not UTF-8")
	}
	return string(data[4:]), nil
}
