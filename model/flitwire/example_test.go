package flitwire_test

import (
	"bytes"
	"fmt"

	"github.com/wormcheck/wormcheck/model/flitwire"
)

// Example writes the first flits of a multicast worm (d1, data, d2) as a pcap trace and
// reads them back.
func Example() {
	tr := flitwire.Trace{
		Messages: []flitwire.Message{{ID: 0, Source: 0, DataFlits: 1, Destinations: []uint32{2, 6}}},
		Records: []flitwire.Record{
			{Step: 1, Channel: 0, From: 0, To: 1, Kind: flitwire.KindAddress, Flags: flitwire.FlagFirst, Word: 2},
			{Step: 2, Channel: 0, From: 0, To: 1, Kind: flitwire.KindData, Data: []byte{42}},
			{Step: 3, Channel: 0, From: 0, To: 1, Kind: flitwire.KindAddress, Flags: flitwire.FlagLast, Word: 6},
		},
	}
	var pcap bytes.Buffer
	if err := flitwire.WriteTrace(&pcap, tr); err != nil {
		fmt.Println(err)
		return
	}
	back, err := flitwire.ReadTrace(&pcap)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("messages:", len(back.Messages), "destinations:", back.Messages[0].Destinations)
	for _, r := range back.Records {
		f := flitwire.Flit{Kind: r.Kind, Flags: r.Flags, VC: r.VC, Message: r.Message, Word: r.Word}
		fmt.Printf("step %d channel %d: %v\n", r.Step, r.Channel, &f)
	}
	// Output:
	// messages: 1 destinations: [2 6]
	// step 1 channel 0: m0 address dst=2 vc0 first
	// step 2 channel 0: m0 data #0 vc0
	// step 3 channel 0: m0 address dst=6 vc0 last
}
