package render

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/vct"
)

// FabricScene builds the explorer's data for a run of the vct model on its fabric: the
// fabric's nodes where DrawFabric puts them, one channel per linked port, every packet a
// message of one flit from its source to its destination, and per step the buffers'
// packets (a hold on the channel whose buffer it is, the VL as the lane, the packets
// in FIFO order), the blocked heads with the channel each wants, and the wait-for cycle.
// Cost O(steps x packets^2).
func FabricScene(m *vct.Model, tr checker.Trace[vct.State], violation, title, subtitle string) (*Scene, error) {
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("render: empty trace")
	}
	cfg := m.Config()
	f := cfg.Fabric
	var nodes []int32
	for i := range f.Nodes {
		nodes = append(nodes, int32(i))
	}
	at := layout(f, nodes)
	sc := &Scene{Format: SceneFormat, Kind: "flit", Title: title, Subtitle: subtitle, Violation: violation, LassoStart: -1, Shared: -1, VCs: int(f.MaxVL()) + 1}
	sc.Grid = SceneGrid{Spec: f.Name, LaidOut: true}
	for i, n := range f.Nodes {
		q := at[int32(i)]
		sc.Grid.Nodes = append(sc.Grid.Nodes, SceneNode{Name: n.Desc, X: q.x, Y: q.y})
		sc.Grid.Width, sc.Grid.Height = max(sc.Grid.Width, q.x+1), max(sc.Grid.Height, q.y+1)
	}
	index := map[[2]int]int{} // (node, port) -> scene channel
	for i, n := range f.Nodes {
		for p := 1; p < len(n.Ports); p++ {
			if r := n.Ports[p].Remote; r.Valid() {
				index[[2]int{i, p}] = len(sc.Grid.Channels)
				sc.Grid.Channels = append(sc.Grid.Channels, SceneChannel{Name: fmt.Sprintf("%s/P%d", n.Desc, p), From: i, To: int(r.Node)})
			}
		}
	}
	chans := m.Channels()
	sceneChan := func(c int32) int {
		if c < 0 {
			return -1
		}
		return index[[2]int{int(chans[c].Node), int(chans[c].Port)}]
	}
	for p := range m.Packets() {
		fl := cfg.Flows[flowOf(m, p)]
		dst := f.Owner(fl.DLID)
		sm := SceneMessage{Name: fmt.Sprintf("p%d", p), Colour: MessageColor(flowOf(m, p)), Source: int(fl.Src.Node), Flits: 1}
		if dst.Valid() {
			sm.Dests = []int{int(dst.Node)}
		}
		sc.Messages = append(sc.Messages, sm)
	}
	for k, st := range tr.Steps {
		fr := Frame{Label: st.Label, Holds: []SceneHold{}, Blocked: []SceneBlocked{}}
		if k == 0 {
			fr.Label = "initial state"
		}
		pos := m.Positions(st.State)
		order := make([]int, 0, len(pos))
		for p, q := range pos {
			if q.Channel >= 0 {
				order = append(order, p)
			}
		}
		slices.SortFunc(order, func(a, b int) int { return pos[a].Index - pos[b].Index })
		for _, p := range order {
			c := pos[p].Channel
			fr.Holds = append(fr.Holds, SceneHold{Channel: sceneChan(c), VC: int(chans[c].VL), Message: p, Flits: []int{0}})
		}
		g := m.WaitFor(st.State)
		blockedAt := map[int]int{}
		for _, w := range g.Waits {
			if w.At < 0 || pos[w.Waiter].Channel < 0 || len(w.Needs) == 0 {
				continue
			}
			wants := -1
			if n := w.Needs[0].ID; n >= 0 && int32(n) != pos[w.Waiter].Channel {
				wants = sceneChan(int32(n))
			}
			h := chans[pos[w.Waiter].Channel]
			far := f.Nodes[h.Node].Ports[h.Port].Remote.Node
			blockedAt[w.Waiter] = len(fr.Blocked)
			fr.Blocked = append(fr.Blocked, SceneBlocked{Message: w.Waiter, At: int(far), Wants: wants, Label: fmt.Sprintf("p%d", w.Waiter)})
		}
		for _, e := range g.Cycle(g.LocalDeadlock()) {
			i, ok := blockedAt[e.Waiter]
			if !ok {
				continue
			}
			need := g.Waits[e.Wait].Needs[e.Need]
			fr.Cycle = append(fr.Cycle, SceneLink{Header: i, VC: int(chans[need.ID].VL), Holder: e.Holder,
				Text: fmt.Sprintf("p%d waits for room in %s, whose head p%d never leaves", e.Waiter, f.HopName(chans[need.ID]), e.Holder)})
		}
		for _, q := range pos {
			sent, got := 0, 0
			if q.Channel >= 0 || q.Delivered {
				sent = 1
			}
			if q.Delivered {
				got = 1
			}
			fr.Sent, fr.Got = append(fr.Sent, sent), append(fr.Got, got)
		}
		sc.Frames = append(sc.Frames, fr)
	}
	return sc, nil
}

// flowOf is the flow of message id p.
func flowOf(m *vct.Model, p int) int {
	f, _ := m.PacketFlow(p)
	return f
}
