// Schedule pictures: unicast schedules on 1-D and 2-D meshes and tori, drawn one panel
// per step, and a contending pair of unicasts (props.ScheduleWitness kind "channel")
// drawn apart on the region they cross, beside a channel-occupancy timeline of the timed
// semantics that shows the two overlapping holding intervals.

package render

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// stepPalette gives the steps of a schedule distinct colours (step t has colour t-1 mod 8).
var stepPalette = []string{"#0072b2", "#009e73", "#e69f00", "#cc79a7", "#56b4e9", "#8c564b", "#7f7f7f", "#bcbd22"}

const (
	colourA = "#0072b2"
	colourB = "#e69f00"
)

// StepColor returns the colour of step t (1-based) in schedule pictures.
func StepColor(t int) string {
	return stepPalette[((t-1)%len(stepPalette)+len(stepPalette))%len(stepPalette)]
}

// Schedule draws s: with a channel witness w (two unicasts on one channel) the pair and
// its timeline; otherwise one panel per step, with w's unicasts (if any) in red. Only 1-D
// and 2-D meshes and tori can be drawn. Output is deterministic.
func Schedule(s *model.Schedule, w *props.ScheduleWitness) ([]byte, error) {
	return ScheduleTitled(s, w, "")
}

// ScheduleTitled is Schedule with a title naming the algorithm and instance ("EDN on
// torus:16x16 from (0,0)"); empty means a title built from the schedule alone.
func ScheduleTitled(s *model.Schedule, w *props.ScheduleWitness, title string) ([]byte, error) {
	g, err := s.Grid()
	if err != nil {
		return nil, err
	}
	if err := drawable(g); err != nil {
		return nil, err
	}
	for i, u := range s.Unicasts {
		for _, c := range u.Path {
			if c < 0 || int(c) >= g.Channels() {
				return nil, fmt.Errorf("render: unicast %d has channel %d, not a channel of %s", i, c, g.Spec())
			}
		}
	}
	if title == "" {
		title = fmt.Sprintf("schedule on %s", g.Spec())
	}
	ref := func(r *props.UnicastRef) bool { return r != nil && r.Index >= 0 && r.Index < len(s.Unicasts) }
	if w != nil && w.Kind == "channel" && ref(w.A) && ref(w.B) {
		return contention(s, g, w, title)
	}
	return steps(s, g, w, title)
}

// unicastName is how pictures and witness text name unicast i: "#3 (0,0)->(0,3)".
func unicastName(g *topology.Network, s *model.Schedule, i int) string {
	u := s.Unicasts[i]
	return fmt.Sprintf("#%d %s->%s", i, g.NodeName(u.From), g.NodeName(u.To))
}

func portName(p model.PortModel) string {
	if p == model.OnePort {
		return "one-port"
	}
	return "all-port"
}

// steps draws one panel per step: the unicasts of that step as arrows in the step's
// colour, the nodes informed before it in grey and those it informs in its colour.
func steps(s *model.Schedule, g *topology.Network, w *props.ScheduleWitness, title string) ([]byte, error) {
	nsteps := s.Steps()
	if nsteps < 1 {
		nsteps = 1
	}
	kx, ky := g.Size(0), 1
	if g.Dims() == 2 {
		ky = g.Size(1)
	}
	cell := min(44.0, 300.0/float64(max(kx-1, ky-1, 1)))
	r := max(min(cell*0.22, 7), 2.5)
	// As many panels per row as fit in 1400 units, then balanced over the rows.
	cols := max(1, min(nsteps, int(1400/(float64(kx-1)*cell+60))))
	cols = (nsteps + (nsteps+cols-1)/cols - 1) / ((nsteps + cols - 1) / cols)
	panelW, panelH := float64(kx-1)*cell+60, float64(ky-1)*cell+60
	hot := map[int]bool{}
	if w != nil {
		for _, x := range []*props.UnicastRef{w.A, w.B} {
			if x != nil {
				hot[x.Index] = true
			}
		}
	}
	// when[v]: the first step that informs v (0 for a source, -1 never).
	when := make([]int, g.Nodes())
	for v := range when {
		when[v] = -1
	}
	for _, src := range s.Sources {
		when[src] = 0
	}
	for _, u := range s.Unicasts {
		if when[u.To] < 0 || u.Step < when[u.To] {
			when[u.To] = u.Step
		}
	}
	perStep := make([]int, nsteps+1)
	for _, u := range s.Unicasts {
		if u.Step >= 1 && u.Step <= nsteps {
			perStep[u.Step]++
		}
	}
	var legend []legendLine
	for t := 1; t <= nsteps; t++ {
		legend = append(legend, legendLine{swatch: "msg", colour: StepColor(t), text: fmt.Sprintf("step %d: %d unicasts (arrows), nodes they inform (filled)", t, perStep[t])})
	}
	legend = append(legend,
		legendLine{swatch: "dot", colour: "#ffd24d", text: "source"},
		legendLine{swatch: "dot", colour: "#bbb", text: "informed in an earlier step"},
		legendLine{swatch: "dot", colour: "#fff", text: "not informed yet"})
	if g.Kind() == topology.Torus {
		legend = append(legend, legendLine{text: "a hop that leaves the picture at one edge re-enters at the opposite edge (wrap-around)"})
	}
	if len(hot) > 0 {
		legend = append(legend, legendLine{swatch: "msg", colour: hotRed, text: "the witness: " + w.String()})
	}
	rows := (nsteps + cols - 1) / cols
	top := 52.0
	W := max(float64(cols)*panelW+20, 20+legendWidth(legend))
	gridBottom := top + float64(rows)*(panelH+18)
	H := gridBottom + float64(len(legend))*legendRow + 16
	var b bytes.Buffer
	svgOpen(&b, W, H, append(append([]string(nil), stepPalette...), hotRed))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", html.EscapeString(title))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"38\">%s</text>\n", html.EscapeString(fmt.Sprintf("%d unicasts in %d steps, %s, sources %s, %d destinations; y grows upwards", len(s.Unicasts), s.Steps(), portName(s.Ports), nodeList(g, s.Sources), len(s.Destinations))))
	for t := 1; t <= nsteps; t++ {
		col, row := (t-1)%cols, (t-1)/cols
		px, py := 10+float64(col)*panelW, top+float64(row)*(panelH+18)
		v := newView(g, nil, 0, cell, r)
		v.ox, v.oy = px+30, py+26
		fmt.Fprintf(&b, "<g id=\"step%d\">\n", t)
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-weight=\"bold\" fill=\"%s\">step %d</text>\n", f1(px+10), f1(py+12), StepColor(t), t)
		v.links(&b)
		v.nodes(&b, func(n topology.NodeID) string {
			switch {
			case when[n] == 0:
				return "#ffd24d"
			case when[n] > 0 && when[n] < t:
				return "#bbb"
			case when[n] == t:
				return StepColor(t)
			}
			return "#fff"
		}, cell >= 16)
		for pass := 0; pass < 2; pass++ {
			for i, u := range s.Unicasts {
				if u.Step != t || hot[i] != (pass == 1) {
					continue
				}
				colour, mark := StepColor(t), (t-1)%len(stepPalette)
				if hot[i] {
					colour, mark = hotRed, len(stepPalette)
				}
				drawPath(&b, v, u, colour, mark, max(1.2, cell/18), 0, unicastName(g, s, i)+fmt.Sprintf(" step %d order %d", u.Step, u.Order), "")
			}
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("<g id=\"legend\">\n")
	for k, l := range legend {
		l.draw(&b, gridBottom+float64(k)*legendRow)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
}

// drawPath draws unicast u's hops off units right of their direction, with an arrow
// head on the last one.
func drawPath(b *bytes.Buffer, v gridView, u model.Unicast, colour string, mark int, width, off float64, title, dash string) {
	if dash != "" {
		dash = " stroke-dasharray=\"" + dash + "\""
	}
	fmt.Fprintf(b, "<g stroke=\"%s\" stroke-width=\"%s\" fill=\"none\" stroke-linecap=\"round\"%s><title>%s</title>", colour, f1(width), dash, html.EscapeString(title))
	for k, c := range u.Path {
		segs := v.hop(c, off)
		for j, sg := range segs {
			marker := ""
			if k == len(u.Path)-1 && j == len(segs)-1 {
				marker = fmt.Sprintf(" marker-end=\"url(#a%d)\"", mark)
			}
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"%s/>", f1(sg[0]), f1(sg[1]), f1(sg[2]), f1(sg[3]), marker)
		}
	}
	b.WriteString("</g>\n")
}

func nodeList(g *topology.Network, vs []topology.NodeID) string {
	var parts []string
	for i, v := range vs {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("... (%d)", len(vs)))
			break
		}
		parts = append(parts, g.NodeName(v))
	}
	return strings.Join(parts, " ")
}

func legendWidth(ls []legendLine) float64 {
	w := 0.0
	for _, l := range ls {
		w = max(w, 44+textWidth(l.text, 11))
	}
	return w
}

// contention draws the two unicasts of a channel witness apart on the region they cross,
// the other unicasts faintly behind them, and (for the timed semantics) the occupancy
// timeline of every channel of both paths with the overlapping intervals in red.
func contention(s *model.Schedule, g *topology.Network, w *props.ScheduleWitness, title string) ([]byte, error) {
	c := pairPicture{s: s, g: g, w: w, a: w.A.Index, b: w.B.Index}
	c.ua, c.ub = s.Unicasts[c.a], s.Unicasts[c.b]
	var nodes []topology.NodeID
	for _, u := range []model.Unicast{c.ua, c.ub} {
		nodes = append(nodes, u.From, u.To)
		for _, ch := range u.Path {
			e := g.Channel(ch)
			nodes = append(nodes, e.From, e.To)
		}
	}
	c.v = newView(g, nodes, 1, 64, 9)
	if w.Params != nil {
		t, err := schedule.Simulate(s, *w.Params)
		if err != nil {
			return nil, fmt.Errorf("render: timeline: %v", err)
		}
		c.tim = t
	}
	what := "stepwise"
	if w.Params != nil {
		what = "timed, " + w.Params.String()
	} else if len(w.Interleaving) > 0 {
		what = "any-delay"
	}
	head := fmt.Sprintf("contention: %s and %s both hold %s", unicastName(g, s, c.a), unicastName(g, s, c.b), w.Channel)
	if w.Time != nil {
		head += fmt.Sprintf(" at t=%d", *w.Time)
	}
	sub := fmt.Sprintf("%s; %s semantics; %d unicasts in %d steps, %s", title, what, len(s.Unicasts), s.Steps(), portName(s.Ports))
	legend := c.legend()
	c.timelineBars()

	top := 56.0
	c.v.ox, c.v.oy = 40, top+20
	ganttX := c.v.width() + 70 + 20
	labelW := 0.0
	for _, br := range c.bars {
		labelW = max(labelW, textWidth(br.label, 10))
	}
	scale, ganttW := 0.0, 0.0
	if c.tmax > 0 {
		scale = max(4, min(40, 420/float64(c.tmax)))
		ganttW = labelW + 10 + float64(c.tmax)*scale + 30
	}
	W := max(ganttX+ganttW+10, 20+legendWidth(legend), 20+textWidth(head, 14), 20+textWidth(sub, 11))
	body := max(c.v.bottom()-top, float64(len(c.bars))*pairRowH+90)
	H := top + body + float64(len(legend))*legendRow + 10
	var b bytes.Buffer
	svgOpen(&b, W, H, []string{colourA, colourB, "#999"})
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", html.EscapeString(head))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"38\">%s</text>\n", html.EscapeString(sub))
	if c.v.cropped() {
		fmt.Fprintf(&b, "<text x=\"10\" y=\"%s\" fill=\"#888\" font-size=\"9\">%s</text>\n", f1(top+2), html.EscapeString(c.v.cropNote()))
	}
	c.drawMap(&b)
	if c.tim != nil {
		c.drawTimeline(&b, ganttX, labelW, scale, top+20)
	}
	b.WriteString("<g id=\"legend\">\n")
	for k, l := range legend {
		l.draw(&b, top+body+float64(k)*legendRow)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
}

// pairRowH is the height of one row of a contention picture's timeline.
const pairRowH = 18.0

// pairPicture is the picture of two contending unicasts A and B of schedule s
// (contention): the region they cross, their timing where the witness is timed (tim),
// and the timeline's bars, one per hop of A, then of B.
type pairPicture struct {
	s      *model.Schedule
	g      *topology.Network
	w      *props.ScheduleWitness
	a, b   int
	ua, ub model.Unicast
	v      gridView
	tim    *schedule.Timing
	bars   []pairBar
	tmax   int64
}

// pairBar is one hop of the timeline: the interval its channel is held; hot for the
// channel both hold.
type pairBar struct {
	label    string
	colour   string
	from, to int64
	hot      bool
}

// legend says what the picture shows: the two unicasts with their steps and timing,
// the channel both hold, the others, and the witness's note and interleaving.
func (c *pairPicture) legend() []legendLine {
	describe := func(i int, u model.Unicast) string {
		t := fmt.Sprintf("%s: step %d, order %d, %d hops", unicastName(c.g, c.s, i), u.Step, u.Order, len(u.Path))
		if c.tim != nil {
			t += fmt.Sprintf(", starts t=%d, delivered t=%d", c.tim.Start[i], c.tim.Deliver[i])
		}
		return t
	}
	legend := []legendLine{
		{swatch: "msg", colour: colourA, text: describe(c.a, c.ua)},
		{swatch: "msg", colour: colourB, text: describe(c.b, c.ub)},
		{swatch: "band", colour: hotRed, text: "the channel both hold: " + c.w.Channel},
		{swatch: "route", text: "the other unicasts of the schedule (grey)"},
		{swatch: "dot", colour: "#ffd24d", text: "source of the schedule"},
	}
	if c.g.Kind() == topology.Torus {
		legend = append(legend, legendLine{text: "the torus is cut where the picture leaves the largest gap; a stub is a wrap-around hop"})
	}
	if c.w.Note != "" {
		legend = append(legend, legendLine{text: c.w.Note})
	}
	for _, l := range c.w.Interleaving {
		legend = append(legend, legendLine{text: "  " + l})
	}
	return legend
}

// timelineBars fills the timeline's bars (one per hop of A, then of B) and its end, for
// a timed witness.
func (c *pairPicture) timelineBars() {
	if c.tim == nil {
		return
	}
	p := *c.w.Params
	shared := topology.ChannelID(c.w.ChannelID)
	for _, x := range []struct {
		i      int
		u      model.Unicast
		colour string
	}{{c.a, c.ua, colourA}, {c.b, c.ub, colourB}} {
		for k, ch := range x.u.Path {
			f := c.tim.Start[x.i] + int64(k)*p.Tc
			c.bars = append(c.bars, pairBar{fmt.Sprintf("#%d hop %d %s", x.i, k+1, c.g.ChannelName(ch)), x.colour, f, f + p.L*p.Tc, ch == shared})
			c.tmax = max(c.tmax, f+p.L*p.Tc)
		}
		c.tmax = max(c.tmax, c.tim.Deliver[x.i])
	}
}

// drawMap draws the region: the shared channel under a red band, the other unicasts
// grey, the nodes (sources marked), A and B in their colours with their ends named.
func (c *pairPicture) drawMap(b *bytes.Buffer) {
	g, s, v := c.g, c.s, c.v
	b.WriteString("<g id=\"map\">\n")
	v.links(b)
	for _, sg := range v.hop(topology.ChannelID(c.w.ChannelID), 0) {
		fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"16\" opacity=\"0.25\" stroke-linecap=\"round\"/>\n", f1(sg[0]), f1(sg[1]), f1(sg[2]), f1(sg[3]), hotRed)
	}
	for i, u := range s.Unicasts {
		if i != c.a && i != c.b {
			drawPath(b, v, u, "#999", 2, 1.2, 0, unicastName(g, s, i), "3 2")
		}
	}
	src := map[topology.NodeID]bool{}
	for _, x := range s.Sources {
		src[x] = true
	}
	v.nodes(b, func(n topology.NodeID) string {
		if src[n] {
			return "#ffd24d"
		}
		return "#fff"
	}, true)
	drawPath(b, v, c.ua, colourA, 0, 3, 4, unicastName(g, s, c.a), "")
	drawPath(b, v, c.ub, colourB, 1, 3, -4, unicastName(g, s, c.b), "")
	// Name each end once: "#3 from", "#3 to", stacked where several fall on one node.
	count := map[topology.NodeID]int{}
	for _, e := range []struct {
		n      topology.NodeID
		text   string
		colour string
	}{{c.ua.From, fmt.Sprintf("#%d sends", c.a), colourA}, {c.ua.To, fmt.Sprintf("#%d to", c.a), colourA}, {c.ub.From, fmt.Sprintf("#%d sends", c.b), colourB}, {c.ub.To, fmt.Sprintf("#%d to", c.b), colourB}} {
		x, y, ok := v.xy(e.n)
		if !ok {
			continue
		}
		// Senders are named under their node, receivers above and right of it.
		k := count[e.n]
		count[e.n]++
		if strings.HasSuffix(e.text, "sends") {
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\">%s</text>\n", f1(x), f1(y+v.r+12+float64(11*k)), e.colour, e.text)
		} else {
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"10\" font-weight=\"bold\">%s</text>\n", f1(x+v.r+3), f1(y-v.r-2-float64(11*k)), e.colour, e.text)
		}
	}
	b.WriteString("</g>\n")
}

// drawTimeline draws the channel occupancy of A's and B's hops from (ganttX, gy), the
// bars' labels labelW wide, scale pixels a time unit, with a time axis ticked every tc
// and the overlap on the shared channel marked.
func (c *pairPicture) drawTimeline(b *bytes.Buffer, ganttX, labelW, scale, gy float64) {
	p, w := *c.w.Params, c.w
	gx := ganttX + labelW + 10
	fmt.Fprintf(b, "<g id=\"timeline\">\n<text x=\"%s\" y=\"%s\" font-weight=\"bold\">channel occupancy (timed semantics): hop k holds its channel [start+(k-1)tc, +L*tc)</text>\n", f1(ganttX), f1(gy-6))
	axisY := gy + float64(len(c.bars))*pairRowH + 6
	fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#333\"/>\n", f1(gx), f1(axisY), f1(gx+float64(c.tmax)*scale), f1(axisY))
	step := p.Tc
	for float64(step)*scale < 24 {
		step += p.Tc
	}
	for t := int64(0); t <= c.tmax; t += step {
		x := gx + float64(t)*scale
		fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#eee\"/>\n", f1(x), f1(gy), f1(x), f1(axisY))
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"9\" text-anchor=\"middle\">%d</text>\n", f1(x), f1(axisY+11), t)
	}
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"9\">time (ts=%d, tr=%d, tc=%d, L=%d)</text>\n", f1(gx), f1(axisY+24), p.Ts, p.Tr, p.Tc, p.L)
	for k, br := range c.bars {
		y := gy + float64(k)*pairRowH
		fill := "#333"
		if br.hot {
			fill = hotRed
		}
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"10\" fill=\"%s\">%s</text>\n", f1(ganttX), f1(y+12), fill, html.EscapeString(br.label))
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"><title>%s: [%d, %d)</title></rect>\n", f1(gx+float64(br.from)*scale), f1(y+3), f1(float64(br.to-br.from)*scale), f1(pairRowH-6), br.colour, html.EscapeString(br.label), br.from, br.to)
	}
	if w.HoldA != nil && w.HoldB != nil {
		lo, hi := max(w.HoldA.From, w.HoldB.From), min(w.HoldA.To, w.HoldB.To)
		if hi > lo {
			x := gx + float64(lo)*scale
			fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" opacity=\"0.18\" stroke=\"%s\"><title>both hold %s during [%d, %d)</title></rect>\n", f1(x), f1(gy), f1(float64(hi-lo)*scale), f1(axisY-gy), hotRed, hotRed, html.EscapeString(w.Channel), lo, hi)
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"10\" fill=\"%s\" font-weight=\"bold\">overlap [%d, %d) on %s</text>\n", f1(gx), f1(axisY+38), hotRed, lo, hi, html.EscapeString(w.Channel))
		}
	}
	b.WriteString("</g>\n")
}
