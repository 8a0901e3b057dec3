package flitwire

import (
	"bytes"
	"testing"
)

func TestSimMoveRoundTrip(t *testing.T) {
	m := SimMove{Flags: SimHead | SimDelivery, VC: 2, Cycle: 1 << 40, Channel: -1, Node: 7, Worm: 9, Msg: 3}
	b := AppendSimMove(nil, m)
	if len(b) != SimMoveLen || b[0] != 1 {
		t.Fatalf("wire form %x", b)
	}
	back, err := DecodeSimMove(b)
	if err != nil || back != m {
		t.Fatalf("round trip: %+v, %v; want %+v", back, err, m)
	}
	for name, bad := range map[string][]byte{
		"short":    b[:10],
		"version":  append([]byte{2}, b[1:]...),
		"flags":    append([]byte{1, 0x80}, b[2:]...),
		"reserved": append(append([]byte(nil), b[:3]...), append([]byte{1}, b[4:]...)...),
	} {
		if _, err := DecodeSimMove(bad); err == nil {
			t.Errorf("%s: accepted %x", name, bad)
		}
	}
}

func FuzzDecodeSimMove(f *testing.F) {
	f.Add(AppendSimMove(nil, SimMove{Flags: SimTail, Channel: 4, Node: 1}))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeSimMove(data)
		if err != nil {
			return
		}
		if again := AppendSimMove(nil, m); !bytes.Equal(again, data) {
			t.Fatalf("decode then encode changed %x into %x", data, again)
		}
	})
}

// TestSimNetworkRecord: the network record a simulator capture starts with round-trips
// its topology, is told apart from a move, and is refused when short, of another
// version, with reserved bytes set or a spec that is not UTF-8.
func TestSimNetworkRecord(t *testing.T) {
	b := AppendSimNetwork(nil, "torus:4x4")
	if !IsSimNetwork(b) || IsSimNetwork(AppendSimMove(nil, SimMove{})) {
		t.Fatalf("IsSimNetwork tells a network record %x from a move wrongly", b)
	}
	if spec, err := DecodeSimNetwork(b); err != nil || spec != "torus:4x4" {
		t.Fatalf("round trip: %q, %v", spec, err)
	}
	if _, err := DecodeSimMove(b); err == nil {
		t.Error("a network record decoded as a move")
	}
	for name, bad := range map[string][]byte{
		"empty":    b[:4],
		"version":  append([]byte{1}, b[1:]...),
		"reserved": append([]byte{2, 0, 1, 0}, b[4:]...),
		"utf8":     append([]byte{2, 0, 0, 0}, 0xff, 0xfe),
	} {
		if _, err := DecodeSimNetwork(bad); err == nil {
			t.Errorf("%s: accepted %x", name, bad)
		}
	}
}

func FuzzDecodeSimNetwork(f *testing.F) {
	f.Add(AppendSimNetwork(nil, "mesh:8x8"))
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := DecodeSimNetwork(data)
		if err != nil {
			return
		}
		if again := AppendSimNetwork(nil, spec); !bytes.Equal(again, data) {
			t.Fatalf("decode then encode changed %x into %x", data, again)
		}
	})
}
