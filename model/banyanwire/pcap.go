package banyanwire

import (
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// LinkType is the link type of banyan captures: pcap's LINKTYPE_USER1 (148), apart from
// the flit-level traces' LINKTYPE_USER0 (model/flitwire), whose records have another
// layout; the Wireshark dissector (`wormcheck dissector`) decodes both.
const LinkType = layers.LinkType(148)

// Epoch returns the time that stamps cycle 0; cycle c is stamped Epoch + c µs, so captures are reproducible
// byte for byte (pcapgo would replace a zero time with the wall clock).
func Epoch() time.Time { return time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC) }

// Record is one header crossing one link: at Cycle, packet Packet acquires channel
// Channel carrying header Header. Its pcap record is the RegionHeader layer followed by
// a 6-byte payload: the packet number (uint16) and the channel id (uint32), big endian.
type Record struct {
	Cycle   int
	Packet  uint16
	Channel uint32
	Header  RegionHeader
}

// WriteCapture writes records as a pcap file with link type LINKTYPE_USER1 (decode the
// records with LayerTypeRegionHeader). Output depends only on records.
func WriteCapture(w io.Writer, records []Record) error {
	pw := pcapgo.NewWriter(w)
	if err := pw.WriteFileHeader(65535, LinkType); err != nil {
		return fmt.Errorf("pcap header: %w", err)
	}
	buf := gopacket.NewSerializeBuffer()
	for i := range records {
		r := &records[i]
		var tail [6]byte
		binary.BigEndian.PutUint16(tail[0:2], r.Packet)
		binary.BigEndian.PutUint32(tail[2:6], r.Channel)
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, &r.Header, gopacket.Payload(tail[:])); err != nil {
			return fmt.Errorf("pcap record %d: %w", i, err)
		}
		data := buf.Bytes()
		ci := gopacket.CaptureInfo{Timestamp: Epoch().Add(time.Duration(r.Cycle) * time.Microsecond), CaptureLength: len(data), Length: len(data)}
		if err := pw.WritePacket(ci, data); err != nil {
			return fmt.Errorf("pcap record %d: %w", i, err)
		}
	}
	return nil
}
