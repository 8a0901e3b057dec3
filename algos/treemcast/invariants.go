package treemcast

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Invariants returns this package's statement of TM3 (000 §2: every destination gets
// the data exactly once, and every branch of the multicast tree follows the base routing
// path), checked in every reachable state. It is written independently of model/flit's
// own invariants, from the instance and topology.DOR only, as a twin that cross-checks them:
//
//   - xy-branch: every virtual channel a message holds is on the DOR path (channel and
//     dateline class) from its source to one of its destinations, and every address flit
//     in a buffer is on the DOR path to its own destination;
//   - delivered-once: no destination has received more than its address flit and the
//     data (1+L flits), and when every message is done each has received exactly that.
//
// xy-branch states the default routing: for an instance with its own Routing only
// delivered-once is returned (model/flit's "routes" invariant checks every relation).
func Invariants(in Instance, m *flit.Model) []checker.Invariant[flit.State] {
	tab := m.Table()
	cfg := in.Config()
	vcs := cfg.VCs
	r := topology.NewDOR(in.Grid)
	r.Dateline = vcs == 2
	classes := 1
	if r.Dateline {
		classes = 2
	}
	per := vcs / classes
	L := in.Params.Length
	// onPath[i][di] is the set of virtual-channel classes (channel*classes+class) on the
	// route of message i to destination di.
	onPath := make([][]map[int]bool, len(in.Msgs))
	for i, mc := range in.Msgs {
		for _, d := range mc.Dests {
			set := map[int]bool{}
			for _, h := range r.Hops(mc.Source, d) {
				set[int(h.Channel)*classes+int(h.Class)] = true
			}
			onPath[i] = append(onPath[i], set)
		}
	}
	vcClass := func(o int) int { return (o/vcs)*classes + (o%vcs)/per }
	name := func(o int) string {
		return fmt.Sprintf("%s.vc%d", in.Grid.ChannelName(topology.ChannelID(o/vcs)), o%vcs)
	}
	branch := func(s flit.State) error {
		for o, v := range s.VCs {
			if v.Owner < 0 {
				continue
			}
			i := int(v.Owner)
			if i >= len(in.Msgs) {
				return fmt.Errorf("%s held by unknown message %d", name(o), i)
			}
			ok := false
			for _, set := range onPath[i] {
				ok = ok || set[vcClass(o)]
			}
			if !ok {
				return fmt.Errorf("m%d holds %s, off the XY paths to its destinations", i, name(o))
			}
			for _, f := range v.Flits.Slice(tab) {
				// Flit positions: 0 is d1, 1..L the data, L+1.. are d2, d3, ...
				di := -1
				if f == 0 {
					di = 0
				} else if int(f) > L {
					di = int(f) - L
				}
				if di >= len(in.Msgs[i].Dests) {
					return fmt.Errorf("m%d: flit %d in %s is beyond its format", i, f, name(o))
				}
				if di >= 0 && !onPath[i][di][vcClass(o)] {
					return fmt.Errorf("m%d: address flit of %s in %s, off its XY path", i, in.Grid.NodeName(in.Msgs[i].Dests[di]), name(o))
				}
			}
		}
		return nil
	}
	once := func(s flit.State) error {
		done := true
		for i := range s.Msgs {
			done = done && s.Msgs[i].Done
		}
		for o := range s.VCs {
			done = done && s.VCs[o].Owner < 0
		}
		for i, g := range s.Msgs {
			for di, n := range g.Got.Slice(tab) {
				if int(n) > 1+L {
					return fmt.Errorf("m%d: %s received %d flits; the address and data are %d", i, in.Grid.NodeName(in.Msgs[i].Dests[di]), n, 1+L)
				}
				if done && int(n) != 1+L {
					return fmt.Errorf("m%d: every message is done but %s received %d of %d flits", i, in.Grid.NodeName(in.Msgs[i].Dests[di]), n, 1+L)
				}
			}
		}
		return nil
	}
	if in.Routing != nil {
		return []checker.Invariant[flit.State]{{Name: "delivered-once", Check: once}}
	}
	return []checker.Invariant[flit.State]{{Name: "xy-branch", Check: branch}, {Name: "delivered-once", Check: once}}
}
