// The Wireshark dissector: a Lua script, embedded so that `wormcheck dissector` can
// write it, that decodes every field of every record wormcheck captures.

package render

import (
	"bytes"
	_ "embed"
)

//go:embed wormcheck.lua
var dissector []byte

// Dissector returns the Wireshark/tshark Lua dissector of wormcheck's captures: flit-level
// traces (LINKTYPE_USER0: crossing, flit, message records; model/flitwire), banyan captures
// (LINKTYPE_USER1: region header, packet, channel; model/banyanwire) and simulator flit
// moves (LINKTYPE_USER2; flitwire.SimMove). Use it as
// `tshark -X lua_script:wormcheck.lua -r trace.pcap -V`.
func Dissector() []byte { return bytes.Clone(dissector) }
