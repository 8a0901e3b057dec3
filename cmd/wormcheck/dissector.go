package main

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/props/render"
)

const dissectorHelp = `wormcheck dissector [-o wormcheck.lua]

Writes the Wireshark/tshark Lua dissector of wormcheck's captures (to standard output
without -o). It decodes every field of every record: flit-level traces (check --pcap,
replay, prove --witness-dir; LINKTYPE_USER0: crossing, flit and message records), banyan
captures (LINKTYPE_USER1: region header, packet, channel) and simulator flit moves
(sim --trace; LINKTYPE_USER2).

Example:
  wormcheck dissector -o wormcheck.lua
  tshark -X lua_script:wormcheck.lua -r tm1.pcap -V
`

func init() {
	registerCommand(&command{Name: "dissector", Summary: "write the Wireshark Lua dissector of wormcheck's pcap captures", Help: dissectorHelp, Run: runDissector})
}

func runDissector(_ context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("dissector")
	out := fs.String("o", "", "output file (default: standard output)")
	if code, done, err := parseOrHelp(e, fs, args, dissectorHelp, false); done {
		return code, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("dissector takes no arguments; got %q", fs.Arg(0))
	}
	lua := render.Dissector()
	if *out == "" {
		_, err := e.Stdout.Write(lua)
		return exitHolds, err
	}
	if err := writeOutput(*out, lua, 0o644); err != nil {
		return 0, fmt.Errorf("writing the dissector: %v", err)
	}
	return exitHolds, nil
}
