package pathbased

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/model/topology"
)

// validate checks the worms of one multicast and returns a reason or "".
func validate(g *topology.Network, name string, src topology.NodeID, dests []topology.NodeID, worms []Worm) string {
	got := map[topology.NodeID]int{}
	for wi, w := range worms {
		used := map[topology.ChannelID]bool{}
		u := src
		nodeAt := []topology.NodeID{src}
		west := true
		for i, c := range w.Channels {
			ch := g.Channel(c)
			if ch.From != u {
				return fmt.Sprintf("%s worm %d hop %d does not leave %s", name, wi, i+1, g.NodeName(u))
			}
			if used[c] {
				return fmt.Sprintf("%s worm %d uses %s twice", name, wi, g.ChannelName(c))
			}
			used[c] = true
			if i > 0 {
				prev := g.Channel(w.Channels[i-1])
				if prev.Dim == ch.Dim && prev.Dir != ch.Dir {
					return fmt.Sprintf("%s worm %d makes a 180-degree turn at %s", name, wi, g.NodeName(ch.From))
				}
			}
			switch name {
			case "dual-path", "multipath":
				if (Label(g, ch.To) > Label(g, ch.From)) != (Label(g, w.endNode(g, src)) > Label(g, src)) {
					return fmt.Sprintf("%s worm %d is not monotone in the labelling at %s", name, wi, g.ChannelName(c))
				}
			case "pm":
				isWest := ch.Dim == 0 && ch.Dir == topology.Minus
				if isWest && !west {
					return fmt.Sprintf("pm worm turns west again at %s", g.ChannelName(c))
				}
				if !isWest {
					west = false
				}
			}
			u = ch.To
			nodeAt = append(nodeAt, u)
		}
		prev := 0
		for _, d := range w.Drops {
			if d <= prev || d > len(w.Channels) {
				return fmt.Sprintf("%s worm %d drops %v not increasing within its length", name, wi, w.Drops)
			}
			prev = d
			got[nodeAt[d]]++
		}
		if len(w.Drops) == 0 || w.Drops[len(w.Drops)-1] != len(w.Channels) {
			return fmt.Sprintf("%s worm %d does not end at a destination", name, wi)
		}
	}
	if len(got) != len(dests) {
		return fmt.Sprintf("%s reaches %d nodes; want %d", name, len(got), len(dests))
	}
	for _, d := range dests {
		if got[d] != 1 {
			return fmt.Sprintf("%s reaches %s %d times", name, g.NodeName(d), got[d])
		}
	}
	return ""
}

func (w Worm) endNode(g *topology.Network, src topology.NodeID) topology.NodeID {
	if len(w.Channels) == 0 {
		return src
	}
	return g.Channel(w.Channels[len(w.Channels)-1]).To
}

func TestPropWormsDeliverOnceAlongLegalPaths(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(1994)
	params.MinSuccessfulTests = 300
	p := gopter.NewProperties(params)
	p.Property("worms are legal and deliver each destination once", prop.ForAll(func(w, h, src int, picks []int) string {
		g, err := topology.NewMesh(w, h)
		if err != nil {
			return err.Error()
		}
		s := topology.NodeID(src % g.Nodes())
		seen := map[topology.NodeID]bool{s: true}
		var dests []topology.NodeID
		for _, x := range picks {
			d := topology.NodeID(x % g.Nodes())
			if !seen[d] {
				seen[d] = true
				dests = append(dests, d)
			}
		}
		for _, name := range []string{"dual-path", "multipath", "pm"} {
			f, _ := ByName(name)
			worms, err := f(g, s, dests)
			if err != nil {
				return err.Error()
			}
			if r := validate(g, name, s, dests, worms); r != "" {
				return r
			}
		}
		return ""
	}, gen.IntRange(2, 9), gen.IntRange(2, 9), gen.IntRange(0, 1000), gen.SliceOf(gen.IntRange(0, 1000))))
	p.TestingRun(t)
}

// The checker must be able to fail: a worm that reuses a channel is caught.
func TestValidateCatchesBrokenWorms(t *testing.T) {
	g, _ := topology.NewMesh(4, 4)
	c0, _ := g.Neighbor(0, 0, topology.Plus)
	c1, _ := g.Neighbor(1, 0, topology.Minus)
	bad := []Worm{{Channels: []topology.ChannelID{c0, c1, c0}, Drops: []int{1, 3}}}
	if validate(g, "pm", 0, []topology.NodeID{1}, bad) == "" {
		t.Fatal("a worm using a channel twice passed")
	}
	uturn := []Worm{{Channels: []topology.ChannelID{c0, c1}, Drops: []int{1, 2}}}
	if r := validate(g, "pm", 0, []topology.NodeID{1, 0}, uturn); r == "" {
		t.Fatal("a 180-degree turn passed")
	}
}

func TestDualPathOn4x4(t *testing.T) {
	g, _ := topology.NewMesh(4, 4)
	// Source (1,1) has label 6; destinations (3,0) label 3, (0,3) label 15, (2,2) label 10.
	worms, err := DualPath(g, g.Node(1, 1), []topology.NodeID{g.Node(3, 0), g.Node(0, 3), g.Node(2, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(worms) != 2 || len(worms[0].Drops) != 2 || len(worms[1].Drops) != 1 {
		t.Fatalf("worms %+v", worms)
	}
	if _, err := DualPath(g, 0, []topology.NodeID{0}); err == nil {
		t.Error("source as destination accepted")
	}
	tor, _ := topology.NewTorus(4, 4)
	if _, err := PM(tor, 0, []topology.NodeID{1}); err == nil {
		t.Error("torus accepted")
	}
}

func ExampleDualPath() {
	g, _ := topology.NewMesh(4, 4)
	worms, _ := DualPath(g, g.Node(1, 1), []topology.NodeID{g.Node(3, 0), g.Node(0, 3), g.Node(2, 2)})
	for _, w := range worms {
		fmt.Println(len(w.Channels), "channels, deliveries after hops", w.Drops)
	}
	// Output:
	// 5 channels, deliveries after hops [2 5]
	// 3 channels, deliveries after hops [3]
}
