package flitwire

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/gopacket/pcapgo"
)

// TestSimMoveWriterLimitAndTimestamps writes three moves with a limit of two and reads
// the file back: the link type, two records, each stamped 1 s + its cycle in µs and
// decoding to the move written.
func TestSimMoveWriterLimitAndTimestamps(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewSimMoveWriter(&buf, 2)
	if err != nil {
		t.Fatal(err)
	}
	moves := []SimMove{{Cycle: 0, Channel: 3, Node: 1}, {Flags: SimTail, Cycle: 7, Channel: -1, Node: 2, Worm: 1}, {Cycle: 9}}
	for _, m := range moves {
		w.Add(m)
	}
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	r, err := pcapgo.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if r.LinkType() != LinkTypeSimMoves {
		t.Fatalf("link type %d, want %d", r.LinkType(), LinkTypeSimMoves)
	}
	for i := 0; ; i++ {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			if i != 2 {
				t.Fatalf("%d records (%v); want 2, the limit", i, err)
			}
			return
		}
		if want := time.Unix(1, 0).Add(time.Duration(moves[i].Cycle) * time.Microsecond); !ci.Timestamp.Equal(want) {
			t.Errorf("record %d stamped %v, want %v", i, ci.Timestamp, want)
		}
		if m, err := DecodeSimMove(data); err != nil || m != moves[i] {
			t.Errorf("record %d: %+v, %v; want %+v", i, m, err, moves[i])
		}
	}
}

// TestSimMoveWriterNetwork: a capture's first record is its network record, stamped
// 1 s, outside the limit; the moves follow.
func TestSimMoveWriterNetwork(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewSimMoveWriter(&buf, 1)
	if err != nil {
		t.Fatal(err)
	}
	w.AddNetwork("mesh:3x2")
	w.Add(SimMove{Cycle: 4, Channel: 1, Node: 2})
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	r, err := pcapgo.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	data, ci, err := r.ReadPacketData()
	if spec, derr := DecodeSimNetwork(data); err != nil || derr != nil || spec != "mesh:3x2" || !ci.Timestamp.Equal(time.Unix(1, 0)) {
		t.Fatalf("first record %x at %v (%v, %v): want the network record of mesh:3x2", data, ci.Timestamp, err, derr)
	}
	if data, _, err = r.ReadPacketData(); err != nil {
		t.Fatal(err)
	}
	if m, err := DecodeSimMove(data); err != nil || m.Cycle != 4 {
		t.Errorf("second record: %+v, %v", m, err)
	}
}
