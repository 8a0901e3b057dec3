package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/vct"
)

// LinkTypeFabric is the link type of fabric captures, LINKTYPE_USER3 (USER0..2 are
// wormcheck's own layouts, model/flitwire): each record is an InfiniBand packet from
// its Local Route Header on. Wireshark's InfiniBand dissector reads it once user DLT 150
// is mapped to it (FabricDissectorOption); pcap's own LINKTYPE_INFINIBAND (247) is not
// one Wireshark's file reader knows.
const LinkTypeFabric = layers.LinkType(150)

// FabricDissectorOption is the tshark/Wireshark preference that decodes fabric captures
// (tshark -o FabricDissectorOption -r F.pcap).
const FabricDissectorOption = `uat:user_dlts:"User 3 (DLT=150)","infiniband","0","","0",""`

// FabricCapture writes a run of the vct model as a pcap capture of InfiniBand packets,
// one record per step: the packet as it enters the buffer it moves to (an injection or
// a move), or leaves the network (a delivery), stamped with the step (flitwire.Epoch +
// step µs). Each record is a Local Route Header (the VL of the channel it is on, its SL,
// its DLID and the source port's LID), a Base Transport Header (a SEND Only to QP 1 with
// the packet's number as PSN) and a payload that says the step in words ("step 3:
// inject into RD1/P2 VL 0"), so that a capture reads in Wireshark both as IB traffic and
// as the trace.
func FabricCapture(m *vct.Model, tr checker.Trace[vct.State]) ([]byte, error) {
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	if err := w.WriteFileHeader(65535, LinkTypeFabric); err != nil {
		return nil, err
	}
	cfg := m.Config()
	chans := m.Channels()
	for i := 1; i < len(tr.Steps); i++ {
		x := m.Explain(tr.Steps[i-1].State, tr.Steps[i].Action)
		flow, seq := m.PacketFlow(x.Packet)
		fl := cfg.Flows[flow]
		on := x.To
		if x.What == "deliver" {
			on = x.From
		}
		h := chans[on]
		where := fmt.Sprintf("%s/P%d VL %d", cfg.Fabric.Nodes[h.Node].Desc, h.Port, h.VL)
		note := fmt.Sprintf("step %d: packet %d (flow %d) %s %s", i, x.Packet, flow, x.What, where)
		slid := uint16(0)
		if lids := cfg.Fabric.LIDs(fl.Src); len(lids) > 0 {
			slid = lids[0]
		}
		pkt := ibPacket(h.VL, fl.SL, fl.DLID, slid, uint32(seq), []byte(note))
		ci := gopacket.CaptureInfo{Timestamp: flitwire.Epoch().Add(time.Duration(i) * flitwire.StepDuration), CaptureLength: len(pkt), Length: len(pkt)}
		if err := w.WritePacket(ci, pkt); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// ibPacket is an InfiniBand packet: LRH (8 bytes: VL, LVer 0, SL, LNH = 2 for an IBA
// local packet with BTH, DLID, packet length in 4-byte words, SLID), BTH (12 bytes:
// opcode 0x04 RC SEND Only, P_Key 0xFFFF, destination QP 1, PSN), the payload padded to
// 4 bytes, and the ICRC and VCRC fields left zero.
func ibPacket(vl, sl uint8, dlid, slid uint16, psn uint32, payload []byte) []byte {
	pad := (4 - len(payload)%4) % 4
	body := 8 + 12 + len(payload) + pad + 4 // LRH .. ICRC, in bytes
	out := make([]byte, 0, body+2)
	out = append(out, vl<<4, sl<<4|0x02)
	out = binary.BigEndian.AppendUint16(out, dlid)
	out = binary.BigEndian.AppendUint16(out, uint16(body/4)&0x07FF)
	out = binary.BigEndian.AppendUint16(out, slid)
	out = append(out, 0x04, byte(pad)<<4, 0xFF, 0xFF) // opcode, SE/M/PadCnt/TVer, P_Key
	out = append(out, 0, 0, 0, 1)                     // reserved, destination QP 1
	out = binary.BigEndian.AppendUint32(out, psn&0x00FFFFFF)
	out = append(out, payload...)
	out = append(out, make([]byte, pad)...)
	out = append(out, 0, 0, 0, 0, 0, 0) // ICRC, VCRC
	return out
}
