package render

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"maps"
	"math"
	"slices"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
)

// FabricPicture is what a picture of an InfiniBand fabric shows: the fabric, one credit
// loop's cycle of channels (in order), and, when the loop deadlocks, the model and the
// deadlocked state, whose full buffers are drawn with their packets.
type FabricPicture struct {
	Fabric          *fabric.Fabric
	Cycle           []fabric.Hop
	Model           *vct.Model
	State           *vct.State
	Title, Subtitle string
}

// maxDrawnNodes bounds the nodes drawn: a larger fabric is drawn around its loop (the
// nodes the cycle passes and their neighbours).
const maxDrawnNodes = 160

// DrawFabric draws a fabric in layers: CAs at the bottom, each switch as high as its
// distance from the nearest CA (leaf switches lowest), each layer ordered by the mean
// place of its neighbours below; links are lines, the loop's channels numbered red arrows
// along the links that carry them, and a deadlock's full buffers are marked at their
// far ends with the packets waiting in them. Output is deterministic.
func DrawFabric(p FabricPicture) ([]byte, error) {
	f := p.Fabric
	if f == nil || len(f.Nodes) == 0 {
		return nil, fmt.Errorf("render: no fabric to draw")
	}
	nodes := drawnNodes(f, p.Cycle)
	at := layout(f, nodes)
	const cellX, cellY, margin = 70.0, 80.0, 40.0
	var maxX, maxY float64
	for _, q := range at {
		maxX, maxY = max(maxX, q.x), max(maxY, q.y)
	}
	top := 60.0
	for _, l := range f.Links() {
		a, okA := at[l.A.Node]
		c, okC := at[l.B.Node]
		if okA && okC && a.y == c.y && math.Abs(a.x-c.x)*cellX > bowFrom {
			top += maxBow // room above the top row for the links bowed over it
			break
		}
	}
	full := fullBuffers(p)
	legend := []string{fmt.Sprintf("red arrows: the credit loop's %d channels, in order (node, port, VL)", len(p.Cycle))}
	if len(full) > 0 {
		legend = append(legend, "red boxes: full buffers at the far end of a channel, with the packets standing still in them")
	}
	if len(nodes) < len(f.Nodes) {
		legend = append(legend, fmt.Sprintf("%d of %d nodes drawn: the loop's switches and their neighbours", len(nodes), len(f.Nodes)))
	}
	for k, c := range p.Cycle {
		legend = append(legend, fmt.Sprintf("%d: %s", k+1, f.HopName(c)))
		if k == 7 && len(p.Cycle) > 9 {
			legend = append(legend, fmt.Sprintf("... and %d more", len(p.Cycle)-8))
			break
		}
	}
	legendTop := top + 20 + maxY*cellY + 40
	w, h := max(margin*2+maxX*cellX+60, 420), legendTop+15*float64(len(legend))+10
	pos := func(i int32) (float64, float64) {
		q := at[i]
		return margin + 30 + q.x*cellX, top + 20 + (maxY-q.y)*cellY
	}
	var b bytes.Buffer
	svgOpen(&b, w, h, []string{"#d62728"})
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"13\" font-weight=\"bold\">%s</text>\n", html.EscapeString(p.Title))
	if p.Subtitle != "" {
		fmt.Fprintf(&b, "<text x=\"10\" y=\"37\">%s</text>\n", html.EscapeString(p.Subtitle))
	}
	for _, l := range f.Links() {
		if _, ok := at[l.A.Node]; !ok {
			continue
		}
		if _, ok := at[l.B.Node]; !ok {
			continue
		}
		x1, y1 := pos(l.A.Node)
		x2, y2 := pos(l.B.Node)
		dash := ""
		if f.Port(l.A).Down {
			dash = " stroke-dasharray=\"4 3\""
		}
		cx, cy := bow(x1, y1, x2, y2)
		fmt.Fprintf(&b, "<path d=\"M%s %s Q%s %s %s %s\" fill=\"none\" stroke=\"#bbb\"%s/>\n", f1(x1), f1(y1), f1(cx), f1(cy), f1(x2), f1(y2), dash)
	}
	drawCycle(&b, f, p.Cycle, pos)
	for _, i := range slices.Sorted(maps.Keys(at)) {
		drawNode(&b, f, i, pos)
	}
	for k, c := range p.Cycle {
		if n, ok := full[chanKey{f.Nodes[c.Node].GUID, c.Port, c.VL}]; ok {
			far := f.Nodes[c.Node].Ports[c.Port].Remote
			x1, y1 := pos(c.Node)
			x2, y2 := pos(far.Node)
			cx, cy := bow(x1, y1, x2, y2)
			x, y := quad(0.78, x1, y1, cx, cy, x2, y2)
			fmt.Fprintf(&b, "<rect x=\"%s\" y=\"%s\" width=\"14\" height=\"12\" fill=\"#d62728\" opacity=\"0.85\"><title>buffer %d full: %d packets</title></rect>\n", f1(x-7), f1(y-6), k+1, n)
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-size=\"9\" fill=\"white\" text-anchor=\"middle\">%d</text>\n", f1(x), f1(y+3), n)
		}
	}
	y := legendTop
	for _, l := range legend {
		fmt.Fprintf(&b, "<text x=\"10\" y=\"%s\">%s</text>\n", f1(y), html.EscapeString(l))
		y += 15
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// drawnNodes returns the nodes to draw: all of them, or for a large fabric those the
// cycle passes and their neighbours.
func drawnNodes(f *fabric.Fabric, cycle []fabric.Hop) []int32 {
	var out []int32
	if len(f.Nodes) <= maxDrawnNodes || len(cycle) == 0 {
		for i := range f.Nodes {
			out = append(out, int32(i))
		}
		return out
	}
	keep := map[int32]bool{}
	for _, h := range cycle {
		keep[h.Node] = true
		keep[f.Nodes[h.Node].Ports[h.Port].Remote.Node] = true
	}
	core := slices.Sorted(maps.Keys(keep))
	for _, i := range core {
		for _, p := range f.Nodes[i].Ports {
			if p.Remote.Valid() && len(keep) < maxDrawnNodes {
				keep[p.Remote.Node] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(keep))
}

// place is a node's layer (y, 0 for CAs) and its place in the layer (x).
type place struct{ x, y float64 }

// layout places the given nodes: a switch's layer is its distance from the nearest CA
// (over switch links), CAs are layer 0; within a layer nodes are ordered by the mean
// place of their neighbours in the layer below (switches of layer 1 first by GUID, CAs
// under their switch), then spread evenly across the widest layer.
func layout(f *fabric.Fabric, nodes []int32) map[int32]place {
	in := map[int32]bool{}
	for _, i := range nodes {
		in[i] = true
	}
	level := map[int32]int{}
	var queue []int32
	for _, i := range nodes {
		if f.Nodes[i].Kind != fabric.Switch {
			level[i] = 0
			queue = append(queue, i)
		}
	}
	if len(queue) == 0 && len(nodes) > 0 {
		level[nodes[0]] = 1
		queue = append(queue, nodes[0])
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, p := range f.Nodes[u].Ports {
			if v := p.Remote.Node; p.Remote.Valid() && in[v] {
				if _, seen := level[v]; !seen {
					level[v] = level[u] + 1
					queue = append(queue, v)
				}
			}
		}
	}
	byLevel := map[int][]int32{}
	for _, i := range nodes {
		l, ok := level[i]
		if !ok {
			l = 1
		}
		byLevel[l] = append(byLevel[l], i)
	}
	at := map[int32]place{}
	levels := slices.Sorted(maps.Keys(byLevel))
	order := func(l int) {
		row := byLevel[l]
		key := map[int32]float64{}
		for _, i := range row {
			sum, n := 0.0, 0
			for _, p := range f.Nodes[i].Ports {
				if q, ok := at[p.Remote.Node]; ok && p.Remote.Valid() {
					sum += q.x
					n++
				}
			}
			key[i] = math.Inf(1)
			if n > 0 {
				key[i] = sum / float64(n)
			}
		}
		slices.SortStableFunc(row, func(a, b int32) int {
			if c := cmp.Compare(key[a], key[b]); c != 0 {
				return c
			}
			return cmp.Compare(f.Nodes[a].GUID, f.Nodes[b].GUID)
		})
		for k, i := range row {
			at[i] = place{x: float64(k), y: float64(l)}
		}
	}
	// Switches nearest the CAs first (by GUID), then the CAs under them, then upwards.
	for _, l := range levels {
		if l > 0 {
			order(l)
		}
	}
	if len(byLevel[0]) > 0 {
		order(0)
	}
	widest := 0
	for _, row := range byLevel {
		widest = max(widest, len(row))
	}
	for i, q := range at {
		n := len(byLevel[int(q.y)])
		q.x = (q.x + 0.5) * float64(widest) / float64(n)
		at[i] = q
	}
	return at
}

// drawCycle draws the loop's channels as numbered arrows, a little beside their links so
// that both directions of a link stay apart, along the link's curve (bow).
func drawCycle(b *bytes.Buffer, f *fabric.Fabric, cycle []fabric.Hop, pos func(int32) (float64, float64)) {
	for k, c := range cycle {
		far := f.Nodes[c.Node].Ports[c.Port].Remote
		x1, y1 := pos(c.Node)
		x2, y2 := pos(far.Node)
		dx, dy := x2-x1, y2-y1
		d := math.Max(math.Hypot(dx, dy), 1e-6)
		nx, ny := -dy/d*5, dx/d*5 // the right-hand side of the direction of travel
		cx, cy := bow(x1, y1, x2, y2)
		// The part of the curve from t = 0.18 to 0.82: its ends and its control point
		// (the quadratic's polar form at (0.18, 0.82)), shifted to the side of travel.
		sx, sy := quad(0.18, x1, y1, cx, cy, x2, y2)
		ex, ey := quad(0.82, x1, y1, cx, cy, x2, y2)
		const t0, t1 = 0.18, 0.82
		mx := x1*(1-t0)*(1-t1) + cx*(t0*(1-t1)+t1*(1-t0)) + x2*t0*t1
		my := y1*(1-t0)*(1-t1) + cy*(t0*(1-t1)+t1*(1-t0)) + y2*t0*t1
		sx, sy, ex, ey, mx, my = sx+nx, sy+ny, ex+nx, ey+ny, mx+nx, my+ny
		fmt.Fprintf(b, "<path d=\"M%s %s Q%s %s %s %s\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2.5\" marker-end=\"url(#a0)\"><title>%s</title></path>\n",
			f1(sx), f1(sy), f1(mx), f1(my), f1(ex), f1(ey), html.EscapeString(f.HopName(c)))
		lx, ly := quad(0.5, sx, sy, mx, my, ex, ey)
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"10\" fill=\"#d62728\" text-anchor=\"middle\">%d</text>\n", f1(lx+nx*1.6), f1(ly+ny*1.6+3), k+1)
	}
}

// bowFrom and maxBow: a link between two nodes of one layer more than bowFrom apart
// passes others of the layer (a ring's wrap-around link) and is drawn bowed up to
// maxBow above the row, so that it does not run over them.
const bowFrom, maxBow = 105.0, 45.0

// bow is the control point of the quadratic curve a link from (x1, y1) to (x2, y2) is
// drawn along: its midpoint (a straight line), or, for a long link within a layer, a
// point above the row.
func bow(x1, y1, x2, y2 float64) (float64, float64) {
	mx, my := (x1+x2)/2, (y1+y2)/2
	if math.Abs(y1-y2) < 1 && math.Abs(x2-x1) > bowFrom {
		my -= 2 * math.Min(math.Abs(x2-x1)*0.2, maxBow) // the curve's peak is half the control's height
	}
	return mx, my
}

// quad is the point at t of the quadratic Bézier curve from (x0, y0) by control point
// (cx, cy) to (x2, y2).
func quad(t, x0, y0, cx, cy, x2, y2 float64) (float64, float64) {
	u := 1 - t
	return u*u*x0 + 2*u*t*cx + t*t*x2, u*u*y0 + 2*u*t*cy + t*t*y2
}

// drawNode draws a switch as a box, a CA as a circle, labelled by its description.
func drawNode(b *bytes.Buffer, f *fabric.Fabric, i int32, pos func(int32) (float64, float64)) {
	n := &f.Nodes[i]
	x, y := pos(i)
	label := n.Desc
	if len(label) > 12 {
		label = fmt.Sprintf("%04x", n.GUID&0xFFFF)
	}
	tip := html.EscapeString(f.NodeName(i))
	if n.Kind == fabric.Switch {
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"44\" height=\"18\" rx=\"3\" fill=\"#e8eef7\" stroke=\"#4a6fa5\"><title>%s</title></rect>\n", f1(x-22), f1(y-9), tip)
	} else {
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"8\" fill=\"#f3f3f3\" stroke=\"#777\"><title>%s</title></circle>\n", f1(x), f1(y), tip)
	}
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"9\" text-anchor=\"middle\">%s</text>\n", f1(x), f1(y+3), html.EscapeString(label))
}

// chanKey names a channel by its node's GUID, so that a model built on part of a
// fabric (a saved trace's) and the whole fabric agree on it.
type chanKey struct {
	guid     uint64
	port, vl uint8
}

// fullBuffers returns, for a deadlock picture, how many packets stand in each full
// buffer in the state drawn.
func fullBuffers(p FabricPicture) map[chanKey]int {
	out := map[chanKey]int{}
	if p.Model == nil || p.State == nil {
		return out
	}
	chans := p.Model.Channels()
	mf := p.Model.Config().Fabric
	for _, q := range p.Model.Positions(*p.State) {
		if q.Channel >= 0 && !q.Delivered {
			h := chans[q.Channel]
			out[chanKey{mf.Nodes[h.Node].GUID, h.Port, h.VL}]++
		}
	}
	for h, n := range out {
		if n < p.Model.Capacity() {
			delete(out, h)
		}
	}
	return out
}
