// The Wireshark dissector: a Lua script, embedded so that `wormcheck dissector` can
// write it, that decodes every field of every record wormcheck captures.

package render

import (
	"bytes"
	_ "embed"
	"fmt"
)

//go:embed wormcheck.lua
var dissector []byte

// Dissector returns the Wireshark/tshark Lua dissector of wormcheck's captures: flit-level
// traces (LINKTYPE_USER0: crossing, flit, message records; model/flitwire), banyan captures
// (LINKTYPE_USER1: region header, packet, channel; model/banyanwire) and simulator flit
// moves (LINKTYPE_USER2; flitwire.SimMove). Use it as
// `tshark -X lua_script:wormcheck.lua -r trace.pcap -V`.
func Dissector() []byte { return bytes.Clone(dissector) }

// DissectorFor is Dissector with topology (a spec such as "mesh:8x8", which the caller
// has validated) as the default of its wormcheck.topology preference, so that it shows
// nodes by their coordinates without a -o option. The spec is written into a Lua string
// literal, quoted with %q.
func DissectorFor(topology string) []byte {
	return bytes.Replace(dissector, []byte(`local TOPOLOGY = ""`), fmt.Appendf(nil, "local TOPOLOGY = %q", topology), 1)
}
