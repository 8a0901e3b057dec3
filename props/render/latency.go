// Latency plots: mean latency against offered load, with 95% confidence-interval bars,
// in panels side by side (unicast beside broadcast) that share the load axis.

package render

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"

	"github.com/wormcheck/wormcheck/props"
)

// curve is one line of a latency panel (props.Curve): Y[i] is the mean latency at load
// xs[i] and CI[i] the half-width of its 95% confidence interval (nil, NaN or 0: no bar).
// NaN or infinite means are gaps (a saturated load).
//
// A curve's style is its colour, its dash pattern and its marker: Dash, when set, is an
// SVG stroke-dasharray ("6 4"), else Dashed draws the default dash; Marker is one of
// markers ("" or "circle" is a disc). Plots with more curves than colours tell them
// apart by the other two (props.Curve.Style).
type curve struct {
	Name   string
	Y      []float64
	CI     []float64
	Colour string
	Dashed bool
	Dash   string
	Marker string
}

// markers are the point markers a curve can have, in the order styles assign them.
var markers = []string{"circle", "square", "triangle", "diamond"}

// dashes are stroke-dasharray patterns that stay apart at 2 px, solid first, in the order
// styles assign them.
var dashes = []string{"", "7 4", "2 3", "9 3 2 3"}

// curveOf is the curve of c: its Style k > 0 picks the dash pattern and marker, so that
// the first len(dashes)*len(markers) styles are pairwise different pairs.
func curveOf(c props.Curve) curve {
	out := curve{Name: c.Name, Y: c.Y, CI: c.CI, Colour: c.Colour, Dashed: c.Dashed}
	if k := c.Style - 1; k >= 0 {
		d := k % len(dashes)
		out.Dash, out.Marker = dashes[d], markers[(d+k/len(dashes))%len(markers)]
	}
	return out
}

// dash returns c's stroke-dasharray attribute, or "" for a solid line.
func (c curve) dash() string {
	switch {
	case c.Dash != "":
		return " stroke-dasharray=\"" + c.Dash + "\""
	case c.Dashed:
		return " stroke-dasharray=\"6 4\""
	}
	return ""
}

// marker draws c's point marker centred at (x, y): a data point (class "point", with
// a tooltip) or, with tooltip "", the legend's sample.
func (c curve) marker(b *bytes.Buffer, x, y float64, tooltip string) {
	title := ""
	if tooltip != "" {
		title = "<title>" + html.EscapeString(tooltip) + "</title>"
		fmt.Fprint(b, "<g class=\"point\">")
		defer fmt.Fprint(b, "</g>\n")
	}
	switch c.Marker {
	case "square":
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"6\" height=\"6\" fill=\"%s\">%s</rect>\n", f1(x-3), f1(y-3), c.Colour, title)
	case "triangle":
		fmt.Fprintf(b, "<path d=\"M%s,%sL%s,%sL%s,%sz\" fill=\"%s\">%s</path>\n", f1(x), f1(y-4.5), f1(x+4), f1(y+3), f1(x-4), f1(y+3), c.Colour, title)
	case "diamond":
		fmt.Fprintf(b, "<path d=\"M%s,%sL%s,%sL%s,%sL%s,%sz\" fill=\"%s\">%s</path>\n", f1(x), f1(y-4.5), f1(x+4.5), f1(y), f1(x), f1(y+4.5), f1(x-4.5), f1(y), c.Colour, title)
	default:
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\">%s</circle>\n", f1(x), f1(y), c.Colour, title)
	}
}

// legendRowsPerColumn is how many curves a legend column lists before the next begins.
const legendRowsPerColumn = 8

// LatencyPanels draws panels side by side over the same offered loads xs (flits per node
// per cycle): each panel has its own latency axis (1-2-5 ticks from 0), a line with
// markers per curve, broken at gaps, an error bar with caps for every finite confidence
// interval, and a legend naming every curve and saying what the bars are. Pure: the same
// data give the same bytes.
func LatencyPanels(title string, xs []float64, in []props.Panel) []byte {
	type panel struct {
		Title  string
		Curves []curve
	}
	panels := make([]panel, len(in))
	for i, p := range in {
		panels[i].Title = p.Title
		for _, c := range p.Curves {
			panels[i].Curves = append(panels[i].Curves, curveOf(c))
		}
	}
	const pw, ph, left, right, top, bottom = 460.0, 360.0, 64.0, 16.0, 72.0, 46.0
	n := max(len(panels), 1)
	const subtitle = "points: mean latency; bars: 95% confidence interval (batch means); a gap: the load saturates the network"
	legendRows := 0
	for _, p := range panels {
		legendRows = max(legendRows, min(len(p.Curves), legendRowsPerColumn))
	}
	W := float64(n) * (pw + left + right)
	H := top + ph + bottom + float64(legendRows+1)*legendRow + 10
	W = max(W, 20+textWidth(title, 14), 20+textWidth(subtitle, 11))
	xmax := 0.0
	for _, x := range xs {
		if finite(x) {
			xmax = math.Max(xmax, x)
		}
	}
	if xmax <= 0 {
		xmax = 1
	}
	xstep := niceStep(xmax)
	xmax = math.Ceil(xmax/xstep-1e-9) * xstep
	var b bytes.Buffer
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"sans-serif\" font-size=\"11\">\n", f1(W), f1(H), f1(W), f1(H))
	fmt.Fprintf(&b, "<rect width=\"%s\" height=\"%s\" fill=\"white\"/>\n", f1(W), f1(H))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", html.EscapeString(title))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"37\">%s</text>\n", subtitle)
	for k, p := range panels {
		ox := float64(k)*(pw+left+right) + left
		ymax := 0.0
		for _, c := range p.Curves {
			for i, y := range c.Y {
				if finite(y) {
					hi := y
					if i < len(c.CI) && finite(c.CI[i]) {
						hi += c.CI[i]
					}
					ymax = math.Max(ymax, hi)
				}
			}
		}
		if ymax <= 0 {
			ymax = 1
		}
		ystep := niceStep(ymax)
		ymax = math.Ceil(ymax/ystep-1e-9) * ystep
		px := func(x float64) float64 { return ox + x/xmax*pw }
		py := func(y float64) float64 { return top + ph - y/ymax*ph }
		fmt.Fprintf(&b, "<g id=\"panel%d\">\n", k)
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" font-weight=\"bold\" text-anchor=\"middle\">%s</text>\n", f1(ox+pw/2), f1(top-8), html.EscapeString(p.Title))
		for y := 0.0; y <= ymax+ystep/2; y += ystep {
			fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#e5e5e5\"/><text x=\"%s\" y=\"%s\" text-anchor=\"end\">%s</text>\n", f1(ox), f1(py(y)), f1(ox+pw), f1(py(y)), f1(ox-6), f1(py(y)+4), tick(y))
		}
		for x := 0.0; x <= xmax+xstep/2; x += xstep {
			fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#333\"/><text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n", f1(px(x)), f1(top+ph), f1(px(x)), f1(top+ph+5), f1(px(x)), f1(top+ph+18), tick(x))
		}
		fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#333\"/><line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#333\"/>\n", f1(ox), f1(top+ph), f1(ox+pw), f1(top+ph), f1(ox), f1(top), f1(ox), f1(top+ph))
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">offered load (flits/node/cycle)</text>\n", f1(ox+pw/2), f1(top+ph+36))
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" transform=\"rotate(-90 %s %s)\">mean latency (cycles)</text>\n", f1(ox-44), f1(top+ph/2), f1(ox-44), f1(top+ph/2))
		// Legend columns share the panel's width: a column per legendRowsPerColumn curves.
		cols := (len(p.Curves) + legendRowsPerColumn - 1) / legendRowsPerColumn
		colW := pw / float64(max(cols, 1))
		for j, c := range p.Curves {
			dash := c.dash()
			var pts []string
			flush := func() {
				if len(pts) > 1 {
					fmt.Fprintf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"%s\"/>\n", c.Colour, dash, joinSpace(pts))
				}
				pts = pts[:0]
			}
			for i, y := range c.Y {
				if i >= len(xs) || !finite(y) || !finite(xs[i]) {
					flush()
					continue
				}
				x := px(xs[i])
				pts = append(pts, f1(x)+","+f1(py(y)))
				if i < len(c.CI) && finite(c.CI[i]) && c.CI[i] > 0 {
					lo, hi := py(math.Max(y-c.CI[i], 0)), py(y+c.CI[i])
					fmt.Fprintf(&b, "<path d=\"M%s,%sV%sM%s,%sH%sM%s,%sH%s\" stroke=\"%s\" stroke-width=\"1.2\" class=\"ci\"/>\n", f1(x), f1(lo), f1(hi), f1(x-4), f1(lo), f1(x+4), f1(x-4), f1(hi), f1(x+4), c.Colour)
				}
				c.marker(&b, x, py(y), fmt.Sprintf("%s at load %s: %s", c.Name, tick(xs[i]), ciText(c, i)))
			}
			flush()
			ly := top + ph + bottom + float64(j%legendRowsPerColumn+1)*legendRow
			lx := ox + float64(j/legendRowsPerColumn)*colW
			fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\"%s/>", f1(lx), f1(ly-4), f1(lx+30), f1(ly-4), c.Colour, dash)
			c.marker(&b, lx+15, ly-4, "")
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" class=\"legend\">%s</text>\n", f1(lx+36), f1(ly), html.EscapeString(c.Name))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func ciText(c curve, i int) string {
	s := strconv.FormatFloat(c.Y[i], 'f', 2, 64)
	if i < len(c.CI) && finite(c.CI[i]) {
		s += " ± " + strconv.FormatFloat(c.CI[i], 'f', 2, 64)
	}
	return s
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// niceStep returns 1, 2 or 5 times a power of ten that cuts [0, max] into 4..10 ticks.
func niceStep(mx float64) float64 {
	raw := mx / 6
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func tick(v float64) string {
	if math.Abs(v) < 1e-12 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func joinSpace(xs []string) string {
	var b bytes.Buffer
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	return b.String()
}
