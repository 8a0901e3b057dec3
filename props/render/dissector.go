// The Wireshark dissector: a Lua script, embedded so that `wormcheck dissector` can
// write it, that decodes every field of every record wormcheck captures.

package render

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

//go:embed wormcheck.lua
var dissector []byte

// Dissector returns the Wireshark/tshark Lua dissector of wormcheck's captures: flit-level
// traces (LINKTYPE_USER0: crossing, flit, message records; model/flitwire), banyan captures
// (LINKTYPE_USER1: region header, packet, channel; model/banyanwire) and simulator flit
// moves (LINKTYPE_USER2; flitwire.SimMove). Use it as
// `tshark -X lua_script:wormcheck.lua -r trace.pcap -V`.
func Dissector() []byte { return bytes.Clone(dissector) }

// DissectorFor is Dissector with spec (a mesh, torus or hypercube such as "mesh:8x8") as
// the default of its wormcheck.topology preference, so that it shows nodes by their
// coordinates without a -o option. The canonical spec is written into a Lua string
// literal, quoted with %q. A spec that does not parse, or names a network without
// coordinates, is an error that says so.
func DissectorFor(spec string) ([]byte, error) {
	g, err := topology.Parse(spec)
	if err != nil {
		return nil, err
	}
	if g.IsGraph() {
		return nil, fmt.Errorf("%s: the dissector names nodes by coordinates on meshes, tori and hypercubes only", spec)
	}
	return bytes.Replace(dissector, []byte(`local TOPOLOGY = ""`), fmt.Appendf(nil, "local TOPOLOGY = %q", g.Spec()), 1), nil
}
