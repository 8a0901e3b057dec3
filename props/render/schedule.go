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
	a, bi := w.A.Index, w.B.Index
	ua, ub := s.Unicasts[a], s.Unicasts[bi]
	var nodes []topology.NodeID
	for _, u := range []model.Unicast{ua, ub} {
		nodes = append(nodes, u.From, u.To)
		for _, c := range u.Path {
			ch := g.Channel(c)
			nodes = append(nodes, ch.From, ch.To)
		}
	}
	v := newView(g, nodes, 1, 64, 9)
	nameA, nameB := unicastName(g, s, a), unicastName(g, s, bi)
	shared := topology.ChannelID(w.ChannelID)
	what := "stepwise"
	if w.Params != nil {
		what = "timed, " + w.Params.String()
	} else if len(w.Interleaving) > 0 {
		what = "any-delay"
	}
	head := fmt.Sprintf("contention: %s and %s both hold %s", nameA, nameB, w.Channel)
	if w.Time != nil {
		head += fmt.Sprintf(" at t=%d", *w.Time)
	}
	sub := fmt.Sprintf("%s; %s semantics; %d unicasts in %d steps, %s", title, what, len(s.Unicasts), s.Steps(), portName(s.Ports))

	var tim *schedule.Timing
	if w.Params != nil {
		t, err := schedule.Simulate(s, *w.Params)
		if err != nil {
			return nil, fmt.Errorf("render: timeline: %v", err)
		}
		tim = t
	}
	describe := func(i int, u model.Unicast) string {
		t := fmt.Sprintf("%s: step %d, order %d, %d hops", unicastName(g, s, i), u.Step, u.Order, len(u.Path))
		if tim != nil {
			t += fmt.Sprintf(", starts t=%d, delivered t=%d", tim.Start[i], tim.Deliver[i])
		}
		return t
	}
	legend := []legendLine{
		{swatch: "msg", colour: colourA, text: describe(a, ua)},
		{swatch: "msg", colour: colourB, text: describe(bi, ub)},
		{swatch: "band", colour: hotRed, text: "the channel both hold: " + w.Channel},
		{swatch: "route", text: "the other unicasts of the schedule (grey)"},
		{swatch: "dot", colour: "#ffd24d", text: "source of the schedule"},
	}
	if g.Kind() == topology.Torus {
		legend = append(legend, legendLine{text: "the torus is cut where the picture leaves the largest gap; a stub is a wrap-around hop"})
	}
	if w.Note != "" {
		legend = append(legend, legendLine{text: w.Note})
	}
	for _, l := range w.Interleaving {
		legend = append(legend, legendLine{text: "  " + l})
	}

	// The timeline: one row per hop of A, then of B.
	type bar struct {
		label    string
		colour   string
		from, to int64
		hot      bool
	}
	var bars []bar
	var tmax int64
	if tim != nil {
		p := *w.Params
		for _, x := range []struct {
			i      int
			u      model.Unicast
			colour string
			tag    string
		}{{a, ua, colourA, fmt.Sprintf("#%d", a)}, {bi, ub, colourB, fmt.Sprintf("#%d", bi)}} {
			for k, c := range x.u.Path {
				f := tim.Start[x.i] + int64(k)*p.Tc
				bars = append(bars, bar{fmt.Sprintf("%s hop %d %s", x.tag, k+1, g.ChannelName(c)), x.colour, f, f + p.L*p.Tc, c == shared})
				tmax = max(tmax, f+p.L*p.Tc)
			}
			tmax = max(tmax, tim.Deliver[x.i])
		}
	}

	top := 56.0
	v.ox, v.oy = 40, top+20
	mapW := v.width() + 70
	ganttX := mapW + 20
	labelW := 0.0
	for _, br := range bars {
		labelW = max(labelW, textWidth(br.label, 10))
	}
	scale := 0.0
	ganttW := 0.0
	if tmax > 0 {
		scale = max(4, min(40, 420/float64(tmax)))
		ganttW = labelW + 10 + float64(tmax)*scale + 30
	}
	rowH := 18.0
	W := max(ganttX+ganttW+10, 20+legendWidth(legend), 20+textWidth(head, 14), 20+textWidth(sub, 11))
	body := max(v.bottom()-top, float64(len(bars))*rowH+90)
	H := top + body + float64(len(legend))*legendRow + 10
	var b bytes.Buffer
	svgOpen(&b, W, H, []string{colourA, colourB, "#999"})
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", html.EscapeString(head))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"38\">%s</text>\n", html.EscapeString(sub))
	if v.cropped() {
		fmt.Fprintf(&b, "<text x=\"10\" y=\"%s\" fill=\"#888\" font-size=\"9\">%s</text>\n", f1(top+2), html.EscapeString(v.cropNote()))
	}
	// The map.
	b.WriteString("<g id=\"map\">\n")
	v.links(&b)
	for _, sg := range v.hop(shared, 0) {
		fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"16\" opacity=\"0.25\" stroke-linecap=\"round\"/>\n", f1(sg[0]), f1(sg[1]), f1(sg[2]), f1(sg[3]), hotRed)
	}
	for i, u := range s.Unicasts {
		if i != a && i != bi {
			drawPath(&b, v, u, "#999", 2, 1.2, 0, unicastName(g, s, i), "3 2")
		}
	}
	src := map[topology.NodeID]bool{}
	for _, x := range s.Sources {
		src[x] = true
	}
	v.nodes(&b, func(n topology.NodeID) string {
		if src[n] {
			return "#ffd24d"
		}
		return "#fff"
	}, true)
	drawPath(&b, v, ua, colourA, 0, 3, 4, nameA, "")
	drawPath(&b, v, ub, colourB, 1, 3, -4, nameB, "")
	// Name each end once: "#3 from", "#3 to", stacked where several fall on one node.
	count := map[topology.NodeID]int{}
	for _, e := range []struct {
		n      topology.NodeID
		text   string
		colour string
	}{{ua.From, fmt.Sprintf("#%d sends", a), colourA}, {ua.To, fmt.Sprintf("#%d to", a), colourA}, {ub.From, fmt.Sprintf("#%d sends", bi), colourB}, {ub.To, fmt.Sprintf("#%d to", bi), colourB}} {
		x, y, ok := v.xy(e.n)
		if !ok {
			continue
		}
		// Senders are named under their node, receivers above and right of it.
		k := count[e.n]
		count[e.n]++
		if strings.HasSuffix(e.text, "sends") {
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\">%s</text>\n", f1(x), f1(y+v.r+12+float64(11*k)), e.colour, e.text)
		} else {
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"10\" font-weight=\"bold\">%s</text>\n", f1(x+v.r+3), f1(y-v.r-2-float64(11*k)), e.colour, e.text)
		}
	}
	b.WriteString("</g>\n")

	// The timeline.
	if tim != nil {
		p := *w.Params
		gx := ganttX + labelW + 10
		gy := top + 20
		fmt.Fprintf(&b, "<g id=\"timeline\">\n<text x=\"%s\" y=\"%s\" font-weight=\"bold\">channel occupancy (timed semantics): hop k holds its channel [start+(k-1)tc, +L*tc)</text>\n", f1(ganttX), f1(gy-6))
		// Time axis with ticks every tc.
		axisY := gy + float64(len(bars))*rowH + 6
		fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#333\"/>\n", f1(gx), f1(axisY), f1(gx+float64(tmax)*scale), f1(axisY))
		step := p.Tc
		for float64(step)*scale < 24 {
			step += p.Tc
		}
		for t := int64(0); t <= tmax; t += step {
			x := gx + float64(t)*scale
			fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#eee\"/>\n", f1(x), f1(gy), f1(x), f1(axisY))
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"9\" text-anchor=\"middle\">%d</text>\n", f1(x), f1(axisY+11), t)
		}
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"9\">time (ts=%d, tr=%d, tc=%d, L=%d)</text>\n", f1(gx), f1(axisY+24), p.Ts, p.Tr, p.Tc, p.L)
		for k, br := range bars {
			y := gy + float64(k)*rowH
			fill := "#333"
			if br.hot {
				fill = hotRed
			}
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"10\" fill=\"%s\">%s</text>\n", f1(ganttX), f1(y+12), fill, html.EscapeString(br.label))
			fmt.Fprintf(&b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"><title>%s: [%d, %d)</title></rect>\n", f1(gx+float64(br.from)*scale), f1(y+3), f1(float64(br.to-br.from)*scale), f1(rowH-6), br.colour, html.EscapeString(br.label), br.from, br.to)
		}
		if w.HoldA != nil && w.HoldB != nil {
			lo, hi := max(w.HoldA.From, w.HoldB.From), min(w.HoldA.To, w.HoldB.To)
			if hi > lo {
				x := gx + float64(lo)*scale
				fmt.Fprintf(&b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" opacity=\"0.18\" stroke=\"%s\"><title>both hold %s during [%d, %d)</title></rect>\n", f1(x), f1(gy), f1(float64(hi-lo)*scale), f1(axisY-gy), hotRed, hotRed, html.EscapeString(w.Channel), lo, hi)
				fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"10\" fill=\"%s\" font-weight=\"bold\">overlap [%d, %d) on %s</text>\n", f1(gx), f1(axisY+38), hotRed, lo, hi, html.EscapeString(w.Channel))
			}
		}
		b.WriteString("</g>\n")
	}

	b.WriteString("<g id=\"legend\">\n")
	for k, l := range legend {
		l.draw(&b, top+body+float64(k)*legendRow)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
}
