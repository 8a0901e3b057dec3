package flitwire

import (
	"io"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"
)

// SimMoveWriter writes the simulator's flit moves as a pcap file with link type
// LinkTypeSimMoves (`wormcheck sim --trace F.pcap`), at most a limit of records. Each
// record is stamped 1 s + its cycle in microseconds: never zero, so pcapgo keeps it and
// a trace is reproducible byte for byte. The first write error is kept (Err) and later
// moves are dropped, so that a simulator's trace callback need not return an error.
type SimMoveWriter struct {
	w     *pcapgo.Writer
	n     int
	limit int
	err   error
	buf   []byte
}

// NewSimMoveWriter writes the pcap file header to w and returns a writer of at most
// limit records.
func NewSimMoveWriter(w io.Writer, limit int) (*SimMoveWriter, error) {
	pw := pcapgo.NewWriter(w)
	if err := pw.WriteFileHeader(snapLen, LinkTypeSimMoves); err != nil {
		return nil, err
	}
	return &SimMoveWriter{w: pw, limit: limit}, nil
}

// AddNetwork writes the network record naming topology spec (AppendSimNetwork): the
// capture's first record, before any move; it does not count towards the limit.
func (t *SimMoveWriter) AddNetwork(spec string) {
	if t.err != nil {
		return
	}
	t.buf = AppendSimNetwork(t.buf[:0], spec)
	ts := time.Unix(1, 0).UTC()
	t.err = t.w.WritePacket(gopacket.CaptureInfo{Timestamp: ts, CaptureLength: len(t.buf), Length: len(t.buf)}, t.buf)
}

// Add writes one move, unless the limit is reached or a write failed before.
func (t *SimMoveWriter) Add(m SimMove) {
	if t.err != nil || t.n >= t.limit {
		return
	}
	t.n++
	t.buf = AppendSimMove(t.buf[:0], m)
	b := t.buf
	ts := time.Unix(1, 0).Add(time.Duration(m.Cycle) * time.Microsecond).UTC()
	t.err = t.w.WritePacket(gopacket.CaptureInfo{Timestamp: ts, CaptureLength: len(b), Length: len(b)}, b)
}

// Err is the first write error, or nil.
func (t *SimMoveWriter) Err() error { return t.err }
