package main

import (
	"strings"
	"testing"
)

// TestAnyNetworkCommands runs check and routing on networks from files, generators,
// grids with failed links and a BookSim2 configuration, with their verdicts and exit
// codes.
func TestAnyNetworkCommands(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		// BookSim2's own anynet example, as its users write it, through its configuration
		{[]string{"routing", "--booksim", "testdata/booksim/anynet_config"}, 0,
			"routing booksim:min,vcs=1 on file:testdata/booksim/anynet_file (1 VC): holds", ""},
		{[]string{"check", "--algo", "unicast", "--booksim", "testdata/booksim/anynet_config", "--msgs", "n0->n3,n3->n6,n6->n0"}, 0,
			"unicast on file:testdata/booksim/anynet_file: deadlock (flit semantics): HOLDS", ""},
		// --booksim implies --algo unicast; numbers are BookSim's terminal numbers, printed by name
		{[]string{"check", "--booksim", "testdata/booksim/anynet_config", "--msgs", "0->3,3->6,6->0", "--json"}, 0,
			`"msgs": "n0->n3,n3->n6,n6->n0"`, ""},
		{[]string{"routing", "--booksim", "../../model/booksim/testdata/examples/cmeshconfig"}, 0,
			"routing booksim:dor_no_express,vcs=16 on cmesh:k=4 (16 VCs): holds", ""},
		// a routing file that names its topology needs no --topo
		{[]string{"check", "--algo", "unicast", "--routing", "../../model/routing/testdata/ring-table.json", "--msgs", "0->3"}, 0,
			"unicast on mesh:2x2: deadlock (flit semantics): HOLDS", ""},
		// a ring of routers: shortest paths deadlock, up*/down* does not
		{[]string{"check", "--algo", "unicast", "--topo", "file:../../model/topology/testdata/topo/ring4.dot", "--routing", "shortest-path", "--msgs", "a->c,b->d,c->a,d->b"}, 1,
			"deadlock (flit semantics): VIOLATED", ""},
		{[]string{"routing", "--topo", "mesh:8x8", "--faults", "(1,1)-(2,1),(3,3)-(3,4),(5,5)-(5,6)", "--routing", "updown"}, 0, "holds", ""},
		{[]string{"routing", "--topo", "mesh:8x8", "--faults", "(1,1)-(2,1),(3,3)-(3,4),(5,5)-(5,6)", "--routing", "dor"}, 1,
			"stranded at its source", ""},
		{[]string{"routing", "--topo", "dragonfly:a=2,p=1,h=1", "--routing", "dragonfly-min-1vc"}, 1, "3 worms holding 6 channels", ""},
		{[]string{"routing", "--topo", "fattree:4,3", "--routing", "fattree-nca"}, 0, "holds", ""},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, out, errOut, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestAnyNetworkBadInput checks that bad network files and flags exit 2 with one line
// naming the line and field.
func TestAnyNetworkBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"routing", "--topo", "file:testdata/booksim/bad.anynet", "--routing", "updown"}, `anynet line 1, field 5: "rooter"`},
		{[]string{"routing", "--topo", "file:testdata/booksim/missing", "--routing", "updown"}, "no such file"},
		{[]string{"routing", "--faults", "0-1", "--routing", "updown"}, "--faults needs --topo"},
		{[]string{"routing", "--topo", "mesh:4x4", "--faults", "(0,0)-(3,3)", "--routing", "updown"}, "has no channel (0,0)->(3,3)"},
		{[]string{"routing", "--topo", "mesh:4x4", "--booksim", "testdata/booksim/anynet_config", "--routing", "updown"}, "--topo and --booksim"},
		{[]string{"routing", "--topo", "random:6,8,1", "--routing", "west-first"}, "needs a mesh, torus or hypercube"},
		{[]string{"check", "--algo", "unicast", "--topo", "fattree:2,2", "--routing", "fattree-nca", "--msgs", "s0.0->1"}, "s0.0 is a router of fattree:2,2; messages go between its terminals, p00..p11 (numbers 0..3)"},
		{[]string{"check", "--algo", "unicast", "--topo", "fattree:2,2", "--routing", "fattree-nca", "--msgs", "0->4"}, `"4" is not a node of fattree:2,2: give a name or a terminal's number, terminals p00..p11 (numbers 0..3)`},
		{[]string{"check", "--algo", "unicast", "--topo", "random:6,8,1", "--msgs", "0->1"}, "--routing is missing"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		msg := strings.TrimSpace(errOut)
		if code != 2 || out != "" || !strings.Contains(msg, tc.want) || strings.Count(msg, "\n") > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
