package main

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/props/render"
)

const dissectorHelp = `wormcheck dissector [-o wormcheck.lua] [--topo T]

Writes the Wireshark/tshark Lua dissector of wormcheck's captures (to standard output
without -o). It decodes every field of every record: flit-level traces (check --pcap,
replay, prove --witness-dir; LINKTYPE_USER0: crossing, flit and message records), banyan
captures (LINKTYPE_USER1: region header, packet, channel) and simulator flit moves
(sim --trace; LINKTYPE_USER2).

Nodes are shown by their coordinates, as the text output names them ((3,4) on a mesh
or torus, 0110 on a hypercube): flit-level and simulator captures name their network
in their first record, so tshark needs no option. For banyan captures and captures
written before that record, or to override it, give the topology as a preference
(-o wormcheck.topology:mesh:8x8), or write the dissector with --topo T to make T its
default. Other networks are shown by node number.

Example:
  wormcheck dissector -o wormcheck.lua
  tshark -X lua_script:wormcheck.lua -r tm1.pcap -V
  wormcheck dissector --topo torus:4 -o torus4.lua
`

func init() {
	registerCommand(&command{Name: "dissector", Summary: "write the Wireshark Lua dissector of wormcheck's pcap captures", Help: dissectorHelp, Run: runDissector})
}

func runDissector(_ context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("dissector")
	out := fs.String("o", "", "output file (default: standard output)")
	topo := fs.String("topo", "", "the captures' topology (mesh:AxB, torus:..., hypercube:N): the default of the wormcheck.topology preference")
	if code, done, err := parseOrHelp(e, fs, args, dissectorHelp, false); done {
		return code, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("dissector takes no arguments; got %q", fs.Arg(0))
	}
	lua := render.Dissector()
	if *topo != "" {
		var err error
		if lua, err = render.DissectorFor(*topo); err != nil {
			return 0, usagef("--topo %v", err)
		}
	}
	if *out == "" {
		_, err := e.Stdout.Write(lua)
		return exitHolds, err
	}
	if err := writeOutput(*out, lua, 0o644); err != nil {
		return 0, fmt.Errorf("writing the dissector: %v", err)
	}
	return exitHolds, nil
}
