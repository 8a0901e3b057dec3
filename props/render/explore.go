// The trace explorer's data: a Scene is everything the browser page (explorer/) needs
// to step through a witness forward and backward — the topology, and per step every
// flit's position, the channels and virtual channels held, the blocked headers and the
// wait-for cycle; for a schedule, every unicast's holding intervals under the timed
// semantics. Frames are computed here, by replaying the trace on the model, so the page
// only draws.

package render

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// SceneFormat is the version tag of a Scene's JSON.
const SceneFormat = "wormcheck-scene/1"

// Scene is the explorer page's data (JSON).
type Scene struct {
	Format    string    `json:"format"`
	Kind      string    `json:"kind"` // "flit" (a trace or lasso) or "schedule"
	Title     string    `json:"title"`
	Subtitle  string    `json:"subtitle"`
	Violation string    `json:"violation,omitempty"`
	Grid      SceneGrid `json:"grid"`
	VCs       int       `json:"vcs,omitempty"`
	// Messages and Frames describe a flit-level trace: Frames[0] is the initial state,
	// Frames[k] the state after step k.
	Messages []SceneMessage `json:"messages,omitempty"`
	Frames   []Frame        `json:"frames,omitempty"`
	// LassoStart is, for a lasso, the frame the repeated cycle returns to (-1 otherwise).
	LassoStart int `json:"lasso_start"`
	// Unicasts, Pair, Params and TMax describe a schedule under the timed semantics.
	Unicasts []SceneUnicast `json:"unicasts,omitempty"`
	Pair     []int          `json:"pair,omitempty"`
	Shared   int            `json:"shared"`
	Params   *props.Params  `json:"params,omitempty"`
	TMax     int64          `json:"tmax,omitempty"`
	Steps    int            `json:"steps,omitempty"`
}

// SceneGrid is the drawn topology: nodes at positions in cell units (x right, y up,
// within Width x Height) and the directed channels between them. A 1-D or 2-D mesh or
// torus is drawn on its own grid; any other network (LaidOut) where the SVG pictures
// draw it (graphLayout), its channels as straight lines.
type SceneGrid struct {
	Spec     string         `json:"spec"`
	Width    float64        `json:"width"`
	Height   float64        `json:"height"`
	LaidOut  bool           `json:"laid_out,omitempty"`
	Nodes    []SceneNode    `json:"nodes"`
	Channels []SceneChannel `json:"channels"`
}

// SceneNode is a node of the topology at (X, Y).
type SceneNode struct {
	Name string  `json:"name"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
}

// SceneChannel is a directed channel; Wrap marks a torus wrap-around channel, drawn as two
// stubs.
type SceneChannel struct {
	Name string `json:"name"`
	From int    `json:"from"`
	To   int    `json:"to"`
	Dim  int    `json:"dim"`
	Dir  int    `json:"dir"`
	Wrap bool   `json:"wrap,omitempty"`
}

// SceneMessage is a message of a flit-level trace.
type SceneMessage struct {
	Name   string `json:"name"`
	Colour string `json:"colour"`
	Source int    `json:"source"`
	Dests  []int  `json:"dests"`
	Flits  int    `json:"flits"`
}

// Frame is the network state after one step.
type Frame struct {
	Label   string         `json:"label"`
	Holds   []SceneHold    `json:"holds"`
	Blocked []SceneBlocked `json:"blocked"`
	Cycle   []SceneLink    `json:"cycle,omitempty"`
	// Sent and Got count, per message, the flits that left the source and the flits
	// delivered (summed over destinations).
	Sent []int `json:"sent"`
	Got  []int `json:"got"`
}

// SceneHold is a virtual channel held by a message with the flits in its buffer
// (positions in the message's format, oldest first).
type SceneHold struct {
	Channel int   `json:"channel"`
	VC      int   `json:"vc"`
	Message int   `json:"message"`
	Flits   []int `json:"flits"`
}

// SceneBlocked is a blocked header (Wants -1: it waits for delivery).
type SceneBlocked struct {
	Message int    `json:"message"`
	At      int    `json:"at"`
	Wants   int    `json:"wants"`
	Label   string `json:"label"`
}

// SceneLink is one link of a wait-for cycle: header Blocked[Header] waits for lane VC of
// its channel, held by Holder; Text says so in words.
type SceneLink struct {
	Header int    `json:"header"`
	VC     int    `json:"vc"`
	Holder int    `json:"holder"`
	Text   string `json:"text"`
}

// SceneUnicast is a unicast of a schedule with its timed holding intervals.
type SceneUnicast struct {
	Name    string     `json:"name"`
	From    int        `json:"from"`
	To      int        `json:"to"`
	Step    int        `json:"step"`
	Order   int        `json:"order"`
	Path    []int      `json:"path"`
	Colour  string     `json:"colour"`
	Start   int64      `json:"start"`
	Deliver int64      `json:"deliver"`
	Holds   [][2]int64 `json:"holds"` // per hop: [from, to)
}

func sceneGrid(g *topology.Network) SceneGrid {
	sg := SceneGrid{Spec: g.Spec(), LaidOut: laidOut(g)}
	var at []topology.Point
	if sg.LaidOut {
		var span topology.Point
		at, span = graphLayout(g) // y down: flipped below
		sg.Width, sg.Height = span.X+1, span.Y+1
	} else {
		sg.Width, sg.Height = float64(g.Size(0)), 1
		if g.Dims() == 2 {
			sg.Height = float64(g.Size(1))
		}
	}
	for v := 0; v < g.Nodes(); v++ {
		n := SceneNode{Name: g.NodeName(topology.NodeID(v))}
		switch {
		case sg.LaidOut:
			n.X, n.Y = at[v].X, sg.Height-1-at[v].Y
		case g.Dims() == 2:
			n.X, n.Y = float64(g.Coord(topology.NodeID(v), 0)), float64(g.Coord(topology.NodeID(v), 1))
		default:
			n.X = float64(g.Coord(topology.NodeID(v), 0))
		}
		sg.Nodes = append(sg.Nodes, n)
	}
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(topology.ChannelID(c))
		sc := SceneChannel{Name: g.ChannelName(topology.ChannelID(c)), From: int(ch.From), To: int(ch.To), Dim: ch.Dim, Dir: ch.Dir.Sign(), Wrap: ch.Wrap && !sg.LaidOut}
		sg.Channels = append(sg.Channels, sc)
	}
	return sg
}

// FlitScene builds the explorer's data for a flit-level run (a trace, or a lasso whose
// cycle starts at step ev.CycleStart): one frame per state, each with the lanes held and
// their flits, the blocked headers and the wait-for cycle among them. Cost: O(steps x
// (messages + virtual channels)).
func FlitScene(ev *props.FlitEvidence) (*Scene, error) {
	m, tr := ev.Model, ev.Trace
	g, err := gridOf(m)
	if err != nil {
		return nil, err
	}
	if err := drawableNetwork(g); err != nil {
		return nil, err
	}
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("render: empty trace")
	}
	cfg := m.Config()
	sc := &Scene{Format: SceneFormat, Kind: "flit", Title: ev.Title, Subtitle: ev.Subtitle, Grid: sceneGrid(g), VCs: cfg.VCs,
		LassoStart: -1, Shared: -1, Violation: ev.Violation}
	if ev.Lasso {
		sc.LassoStart = ev.CycleStart
	}
	for i, mc := range cfg.Messages {
		sm := SceneMessage{Name: MessageName(i), Colour: MessageColor(i), Source: int(mc.Source), Flits: mc.Flits()}
		for _, d := range mc.Dests {
			sm.Dests = append(sm.Dests, int(d))
		}
		sc.Messages = append(sc.Messages, sm)
	}
	for k, st := range tr.Steps {
		p, err := FlitState(m, st.State)
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", k, err)
		}
		f := Frame{Label: st.Label, Holds: []SceneHold{}, Blocked: []SceneBlocked{}}
		if k == 0 {
			f.Label = "initial state"
		}
		for o, v := range st.State.VCs {
			if v.Owner < 0 {
				continue
			}
			h := SceneHold{Channel: o / cfg.VCs, VC: o % cfg.VCs, Message: int(v.Owner), Flits: []int{}}
			for _, x := range v.Flits.Slice(m.Table()) {
				h.Flits = append(h.Flits, int(x))
			}
			f.Holds = append(f.Holds, h)
		}
		for _, bl := range p.Blocked {
			f.Blocked = append(f.Blocked, SceneBlocked{Message: bl.Message, At: int(bl.At), Wants: int(bl.Wants), Label: bl.Label})
		}
		for _, l := range p.Cycle {
			f.Cycle = append(f.Cycle, SceneLink{Header: l.Header, VC: l.VC, Holder: l.Holder, Text: p.cycleText(l)})
		}
		for _, gm := range st.State.Msgs {
			f.Sent = append(f.Sent, int(gm.Sent))
			got := 0
			for _, x := range gm.Got.Slice(m.Table()) {
				got += int(x)
			}
			f.Got = append(f.Got, got)
		}
		sc.Frames = append(sc.Frames, f)
	}
	return sc, nil
}

// ScheduleScene builds the explorer's data for a schedule: every unicast with its path
// and, under the timed semantics at the contention's parameters (or ts=1 tr=0 tc=1 L=1
// without a timed one), its holding interval on every hop, so that the page's time
// slider shows channel occupancy; a contending pair and its channel are marked.
func ScheduleScene(ev *props.ScheduleEvidence) (*Scene, error) {
	s, w, title := ev.Schedule, ev.Contention, ev.Title
	g, err := s.Grid()
	if err != nil {
		return nil, err
	}
	if err := drawableNetwork(g); err != nil {
		return nil, err
	}
	p := props.Params{Ts: 1, Tr: 0, Tc: 1, L: 1}
	if w != nil && w.Params != nil {
		p = *w.Params
	}
	tim, err := schedule.Simulate(s, p)
	if err != nil {
		return nil, fmt.Errorf("render: %v", err)
	}
	sc := &Scene{Format: SceneFormat, Kind: "schedule", Title: title, Grid: sceneGrid(g), LassoStart: -1, Shared: -1, Params: &p, Steps: s.Steps()}
	sc.Subtitle = fmt.Sprintf("%d unicasts in %d steps, %s; timed semantics at %s", len(s.Unicasts), s.Steps(), portName(s.Ports), p)
	if w != nil {
		sc.Violation = w.String()
		if w.A != nil && w.B != nil {
			sc.Pair = []int{w.A.Index, w.B.Index}
			sc.Shared = w.ChannelID
		}
	}
	for i, u := range s.Unicasts {
		su := SceneUnicast{Name: unicastName(g, s, i), From: int(u.From), To: int(u.To), Step: u.Step, Order: u.Order, Colour: StepColor(u.Step),
			Start: tim.Start[i], Deliver: tim.Deliver[i], Path: []int{}, Holds: [][2]int64{}}
		for k, c := range u.Path {
			su.Path = append(su.Path, int(c))
			f := tim.Start[i] + int64(k)*p.Tc
			su.Holds = append(su.Holds, [2]int64{f, f + p.L*p.Tc})
		}
		sc.TMax = max(sc.TMax, tim.Deliver[i])
		sc.Unicasts = append(sc.Unicasts, su)
	}
	return sc, nil
}
