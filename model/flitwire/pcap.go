package flitwire

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// The link types of wormcheck's captures, one per record layout, so that tshark and
// Wireshark (with the dissector `wormcheck dissector` writes) tell the records apart:
// flit-level traces use LINKTYPE_USER0, banyan captures (model/banyanwire) LINKTYPE_USER1
// and the simulator's flit moves (SimMove) LINKTYPE_USER2. Within a flit-level trace the
// Crossing's next-layer byte tags each record as a flit or a message announcement.
const (
	LinkTypeFlitTrace = layers.LinkType(147) // LINKTYPE_USER0
	LinkTypeBanyan    = layers.LinkType(148) // LINKTYPE_USER1
	LinkTypeSimMoves  = layers.LinkType(149) // LINKTYPE_USER2
)

// LinkTypeUser0 is LinkTypeFlitTrace under its pcap name.
const LinkTypeUser0 = LinkTypeFlitTrace

// Epoch returns the timestamp of step 0 of every trace; step s is stamped Epoch + s µs. A
// fixed epoch keeps trace files byte-for-byte reproducible (pcapgo replaces a zero
// timestamp with the wall clock).
func Epoch() time.Time { return time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC) }

// StepDuration is the time between two steps of a trace.
const StepDuration = time.Microsecond

// snapLen bounds a record; the largest is a message announcement.
const snapLen = 65535

// Record is one flit crossing one channel during one step of a flit-level trace.
type Record struct {
	Step     int
	Channel  uint32 // the model's channel id
	From, To uint32 // the nodes the channel joins
	Kind     Kind
	Flags    Flags
	VC       uint8
	Message  uint16
	Word     uint32 // destination of an address flit, index of a data flit
	Data     []byte // the data word of a data flit (may be empty)
}

// Trace is a flit-level trace: the messages (announced at step 0) and the flit crossings
// in nondecreasing step order.
type Trace struct {
	// Topology is the network's spec ("mesh:3x2"), written first so that a reader (the
	// dissector) names nodes by coordinates without being told the network; "" for none.
	Topology string
	Messages []Message
	Records  []Record
}

// WriteTrace writes t to w as a pcap file with link type LINKTYPE_USER0: the network
// record (Crossing with next layer 3, Channel NoChannel, then the spec's bytes) when t
// names its topology, one record per
// message announcement (Crossing with Channel NoChannel, then a Message layer), stamped
// Epoch, then one record per flit crossing (Crossing, Flit, data payload) stamped Epoch +
// Step µs. Output depends only on t.
func WriteTrace(w io.Writer, t Trace) error {
	pw := pcapgo.NewWriter(w)
	if err := pw.WriteFileHeader(snapLen, LinkTypeUser0); err != nil {
		return fmt.Errorf("pcap header: %w", err)
	}
	buf := gopacket.NewSerializeBuffer()
	put := func(step int, ls ...gopacket.SerializableLayer) error {
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, ls...); err != nil {
			return err
		}
		data := buf.Bytes()
		ci := gopacket.CaptureInfo{
			Timestamp:     Epoch().Add(time.Duration(step) * StepDuration),
			CaptureLength: len(data),
			Length:        len(data),
		}
		return pw.WritePacket(ci, data)
	}
	if t.Topology != "" {
		c := &Crossing{Next: gopacket.LayerTypePayload, Channel: NoChannel}
		if err := put(0, c, gopacket.Payload(t.Topology)); err != nil {
			return fmt.Errorf("pcap network record: %w", err)
		}
	}
	for i := range t.Messages {
		m := t.Messages[i]
		c := &Crossing{Next: LayerTypeMessage, Channel: NoChannel, From: m.Source, To: m.Source}
		if err := put(0, c, &m); err != nil {
			return fmt.Errorf("pcap message %d: %w", m.ID, err)
		}
	}
	last := 0
	for i, r := range t.Records {
		if r.Step < last {
			return fmt.Errorf("pcap record %d: step %d comes after step %d; records must be in step order", i, r.Step, last)
		}
		last = r.Step
		c := &Crossing{Next: LayerTypeFlit, Channel: r.Channel, From: r.From, To: r.To}
		f := &Flit{Kind: r.Kind, Flags: r.Flags, VC: r.VC, Message: r.Message, Word: r.Word}
		ls := []gopacket.SerializableLayer{c, f}
		if len(r.Data) > 0 {
			ls = append(ls, gopacket.Payload(r.Data))
		}
		if err := put(r.Step, ls...); err != nil {
			return fmt.Errorf("pcap record %d: %w", i, err)
		}
	}
	return nil
}

// ReadTrace reads a trace written by WriteTrace. It checks the link type, decodes every
// record with this package's layers, and recovers each record's step from its timestamp.
func ReadTrace(r io.Reader) (Trace, error) {
	var t Trace
	pr, err := pcapgo.NewReader(r)
	if err != nil {
		return t, fmt.Errorf("pcap: %w", err)
	}
	if pr.LinkType() != LinkTypeUser0 {
		return t, fmt.Errorf("pcap: link type %d; want %d (LINKTYPE_USER0)", pr.LinkType(), LinkTypeUser0)
	}
	if pr.Snaplen() > snapLen {
		// A record longer than any this package writes is refused before it is allocated.
		pr.SetSnaplen(snapLen)
	}
	var (
		cr  Crossing
		fl  Flit
		msg Message
		pay gopacket.Payload
	)
	parser := gopacket.NewDecodingLayerParser(LayerTypeCrossing, &cr, &fl, &msg, &pay)
	decoded := make([]gopacket.LayerType, 0, 4)
	for n := 0; ; n++ {
		data, ci, err := pr.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return t, fmt.Errorf("pcap record %d: %w", n, err)
		}
		d := ci.Timestamp.Sub(Epoch())
		if d < 0 || d%StepDuration != 0 {
			return t, fmt.Errorf("pcap record %d: timestamp %v is not a whole step after the epoch", n, ci.Timestamp.UTC())
		}
		step := int(d / StepDuration)
		if err := parser.DecodeLayers(data, &decoded); err != nil {
			return t, fmt.Errorf("pcap record %d: %w", n, err)
		}
		if len(decoded) < 2 || decoded[1] != cr.Next {
			return t, fmt.Errorf("pcap record %d: the crossing announces a %v layer but none follows", n, cr.Next)
		}
		switch cr.Next {
		case gopacket.LayerTypePayload:
			t.Topology = string(pay)
		case LayerTypeMessage:
			m := msg
			m.Destinations = append([]uint32(nil), msg.Destinations...)
			m.BaseLayer = BaseLayer{}
			t.Messages = append(t.Messages, m)
		case LayerTypeFlit:
			rec := Record{Step: step, Channel: cr.Channel, From: cr.From, To: cr.To,
				Kind: fl.Kind, Flags: fl.Flags, VC: fl.VC, Message: fl.Message, Word: fl.Word}
			if fl.Kind == KindData && len(fl.Payload) > 0 {
				rec.Data = append([]byte(nil), fl.Payload...)
			}
			t.Records = append(t.Records, rec)
		}
	}
}
