package banyanwire

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"
	"github.com/wormcheck/wormcheck/model/topology"
)

func encode(t testing.TB, h *RegionHeader, payload []byte) []byte {
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, h, gopacket.Payload(payload)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	b, _ := topology.NewBanyan(16)
	for _, r := range []topology.Region{{Min: 4, Max: 8}, {Min: 0, Max: 15}, {Min: 9, Max: 9}} {
		h, err := NewRegionHeader(b, r)
		if err != nil {
			t.Fatal(err)
		}
		data := encode(t, h, []byte("flits"))
		pkt := gopacket.NewPacket(data, LayerTypeRegionHeader, gopacket.Default)
		if el := pkt.ErrorLayer(); el != nil {
			t.Fatal(el.Error())
		}
		got, ok := pkt.Layer(LayerTypeRegionHeader).(*RegionHeader)
		if !ok {
			t.Fatalf("%v: no region header in %v", r, pkt)
		}
		if got.Region() != r || got.Stages != 4 || got.Multicast != (r.Min != r.Max) {
			t.Fatalf("%v: decoded %+v", r, got)
		}
		if app := pkt.ApplicationLayer(); app == nil || !bytes.Equal(app.Payload(), []byte("flits")) {
			t.Fatalf("%v: payload lost", r)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	for name, data := range map[string][]byte{
		"short":       {0x11, 4, 0},
		"version":     {0x21, 4, 0, 1, 0, 2},
		"flags":       {0x13, 4, 0, 1, 0, 2},
		"stages":      {0x11, 17, 0, 1, 0, 2},
		"max too big": {0x11, 4, 0, 1, 0, 16},
		"min > max":   {0x11, 4, 0, 5, 0, 2},
		"unicast":     {0x10, 4, 0, 1, 0, 2},
	} {
		var h RegionHeader
		if err := h.DecodeFromBytes(data, gopacket.NilDecodeFeedback); err == nil {
			t.Errorf("%s: %v decoded as %+v", name, data, h)
		}
	}
}

func TestRouteFollowsModel(t *testing.T) {
	b, _ := topology.NewBanyan(16)
	h, _ := NewRegionHeader(b, topology.Region{Min: 4, Max: 8})
	ports, out := h.Route(3)
	if ports != 3 || out[0].Region() != (topology.Region{Min: 4, Max: 7}) || out[1].Region() != (topology.Region{Min: 8, Max: 8}) || out[1].Multicast {
		t.Fatalf("ports %d out %+v %+v", ports, out[0], out[1])
	}
}

func FuzzDecodeRegionHeader(f *testing.F) {
	for _, s := range [][]byte{{0x11, 4, 0, 4, 0, 8}, {0x10, 4, 0, 9, 0, 9}, {0x11, 16, 0xff, 0, 0xff, 0xff}, {}, {0x11}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var h RegionHeader
		if err := h.DecodeFromBytes(data, gopacket.NilDecodeFeedback); err != nil {
			return
		}
		// Whatever decodes must re-encode to the same bytes and route without panicking.
		again := encode(t, &h, nil)
		if !bytes.Equal(again, data[:HeaderLen]) {
			t.Fatalf("%x re-encodes as %x", data[:HeaderLen], again)
		}
		for i := 0; i < int(h.Stages); i++ {
			h.Route(i)
		}
		gopacket.NewPacket(data, LayerTypeRegionHeader, gopacket.Default)
	})
}

// ExampleRegionHeader encodes the region of 002 Fig. 2 and decodes it again.
func ExampleRegionHeader() {
	b, _ := topology.NewBanyan(16)
	h, _ := NewRegionHeader(b, topology.Region{Min: 0b0100, Max: 0b1000})
	buf := gopacket.NewSerializeBuffer()
	_ = gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, h)
	fmt.Printf("% x\n", buf.Bytes())
	pkt := gopacket.NewPacket(buf.Bytes(), LayerTypeRegionHeader, gopacket.Default)
	fmt.Println(pkt.Layer(LayerTypeRegionHeader).(*RegionHeader).Region())
	// Output:
	// 11 04 00 04 00 08
	// [4,8]
}

func TestWriteCaptureReadsBack(t *testing.T) {
	b, _ := topology.NewBanyan(8)
	h, _ := NewRegionHeader(b, topology.Region{Min: 3, Max: 4})
	var w bytes.Buffer
	recs := []Record{{Cycle: 1, Packet: 0, Channel: 5, Header: *h}, {Cycle: 2, Packet: 1, Channel: 9, Header: *h}}
	if err := WriteCapture(&w, recs); err != nil {
		t.Fatal(err)
	}
	r, err := pcapgo.NewReader(&w)
	if err != nil || r.LinkType() != LinkType {
		t.Fatalf("reader: %v %v", err, r.LinkType())
	}
	for i := range recs {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			t.Fatal(err)
		}
		if !ci.Timestamp.Equal(Epoch().Add(time.Duration(recs[i].Cycle) * time.Microsecond)) {
			t.Fatalf("record %d stamped %v", i, ci.Timestamp)
		}
		pkt := gopacket.NewPacket(data, LayerTypeRegionHeader, gopacket.Default)
		got, ok := pkt.Layer(LayerTypeRegionHeader).(*RegionHeader)
		if !ok || got.Region() != h.Region() || len(got.Payload) != 6 {
			t.Fatalf("record %d: %v", i, pkt)
		}
	}
}
