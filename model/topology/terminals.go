package topology

import (
	"fmt"
	"strconv"
)

// Terminal numbers. On a network with terminals, BookSim numbers its terminals 0..N-1
// and a user writes them so: a number on the command line is a terminal's number, and
// terminals are printed by name. The number is the terminal's rank among the
// terminals in node-id order (anynet files: BookSim's node id, which BookSim requires
// to run 0..N-1; generated networks: their terminals in BookSim's order), unless the
// network's shape numbers them itself (a fat-tree: terminalNumberer).

// terminalNumberer is implemented by shapes whose terminals BookSim numbers otherwise
// than in node-id order.
type terminalNumberer interface {
	terminalNumber(v NodeID) int
}

// numberTerminals fills gr's terminal numbers (after its nodes are known).
func (gr *graph) numberTerminals() error {
	n := len(gr.names)
	gr.termNo = make([]int32, n)
	var count int
	for v := range gr.termNo {
		gr.termNo[v] = -1
		if gr.terminal[v] {
			count++
		}
	}
	gr.byTermNo = make([]NodeID, count)
	for i := range gr.byTermNo {
		gr.byTermNo[i] = None
	}
	num, custom := gr.shape.(terminalNumberer)
	t := 0
	for v := 0; v < n; v++ {
		if !gr.terminal[v] {
			continue
		}
		x := t
		if custom {
			x = num.terminalNumber(NodeID(v))
		}
		t++
		if x < 0 || x >= count || gr.byTermNo[x] != None {
			return fmt.Errorf("terminal %s: number %d is not free in 0..%d", gr.names[v], x, count-1)
		}
		gr.termNo[v], gr.byTermNo[x] = int32(x), NodeID(v)
	}
	return nil
}

// TerminalNumber returns BookSim's number of terminal v (false for a router or a grid
// node).
func (g *Network) TerminalNumber(v NodeID) (int, bool) {
	if g.net == nil || g.net.termNo[v] < 0 {
		return 0, false
	}
	return int(g.net.termNo[v]), true
}

// TerminalByNumber returns the terminal BookSim numbers t.
func (g *Network) TerminalByNumber(t int) (NodeID, bool) {
	if g.net == nil || t < 0 || t >= len(g.net.byTermNo) {
		return 0, false
	}
	return g.net.byTermNo[t], true
}

// TerminalRange says for people what g's terminals are called: "n0..n8 (numbers 0..8)".
func (g *Network) TerminalRange() string {
	if g.net == nil || len(g.net.byTermNo) == 0 {
		return ""
	}
	last := len(g.net.byTermNo) - 1
	return g.net.names[g.net.byTermNo[0]] + ".." + g.net.names[g.net.byTermNo[last]] + " (numbers 0.." + strconv.Itoa(last) + ")"
}

// parseGraphNode reads a node of a network of routers: its name, or a number — a
// terminal's number where the network has terminals, else a node id.
func (g *Network) parseGraphNode(s string) (NodeID, error) {
	if v, ok := g.net.byName[s]; ok {
		return v, nil
	}
	x, err := strconv.Atoi(s)
	if len(g.net.byTermNo) > 0 {
		if v, ok := g.TerminalByNumber(x); err == nil && ok {
			return v, nil
		}
		return 0, fmt.Errorf("%q is not a node of %s: give a name or a terminal's number, terminals %s", s, g.Spec(), g.TerminalRange())
	}
	if err != nil || x < 0 || x >= g.Nodes() {
		return 0, fmt.Errorf("%q is not a node of %s: give its name (like %q) or a number 0..%d", s, g.Spec(), g.net.names[0], g.Nodes()-1)
	}
	return NodeID(x), nil
}

// terminalNumber is BookSim's number of fat-tree terminal v: its word's digits read
// first to last (BookSim's fat-tree covers terminals by their high digits where this
// one's ancestors share the low ones), so that "p012" is terminal 0*K^2 + 1*K + 2.
func (t *FatTree) terminalNumber(v NodeID) int {
	w := t.Word(v)
	x := 0
	for i := 0; i < t.N; i++ {
		x = x*t.K + t.Digit(w, i)
	}
	return x
}
