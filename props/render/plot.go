package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Series is one line of a latency plot; NaN and infinite points are gaps.
type Series struct {
	Name   string
	Y      []float64
	Color  string
	Dashed bool
}

// LatencyPlot draws mean latency against offered load as an SVG picture: axes with
// 1-2-5 ticks, one polyline with markers per series (broken at gaps, dashed where
// Dashed), and a legend. xs are the offered loads (flits/node/cycle) shared by every
// series. Pure: the same data give the same bytes.
func LatencyPlot(title string, xs []float64, ss []Series) []byte {
	const W, H, left, right, top, bottom = 640.0, 420.0, 70.0, 20.0, 40.0, 50.0
	xmax, ymax := 0.0, 0.0
	for _, x := range xs {
		xmax = math.Max(xmax, x)
	}
	for _, s := range ss {
		for _, y := range s.Y {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				ymax = math.Max(ymax, y)
			}
		}
	}
	if xmax <= 0 {
		xmax = 1
	}
	if ymax <= 0 {
		ymax = 1
	}
	xstep, ystep := plotStep(xmax), plotStep(ymax)
	xmax = math.Ceil(xmax/xstep) * xstep
	ymax = math.Ceil(ymax/ystep) * ystep
	px := func(x float64) float64 { return left + x/xmax*(W-left-right) }
	py := func(y float64) float64 { return H - bottom - y/ymax*(H-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", W, H)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" text-anchor="middle" font-size="14">%s</text>`+"\n", W/2, plotEscape(title))
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, H-bottom, W-right, H-bottom)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, top, left, H-bottom)
	for x := 0.0; x <= xmax+xstep/2; x += xstep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n",
			px(x), H-bottom, px(x), H-bottom+5, px(x), H-bottom+18, plotTick(x))
	}
	for y := 0.0; y <= ymax+ystep/2; y += ystep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
			left, py(y), W-right, py(y), left-6, py(y)+4, plotTick(y))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">offered load (flits/node/cycle)</text>`+"\n", (left+W-right)/2, H-12)
	fmt.Fprintf(&b, `<text x="16" y="%.0f" text-anchor="middle" transform="rotate(-90 16 %.0f)">mean latency (cycles)</text>`+"\n", (top+H-bottom)/2, (top+H-bottom)/2)
	for i, s := range ss {
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		var pts []string
		flush := func() {
			if len(pts) > 1 {
				fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", s.Color, dash, strings.Join(pts, " "))
			}
			pts = pts[:0]
		}
		for j, y := range s.Y {
			if j >= len(xs) || math.IsNaN(y) || math.IsInf(y, 0) {
				flush()
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[j]), py(y)))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(xs[j]), py(y), s.Color)
		}
		flush()
		ly := top + 8 + float64(i)*18
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			left+12, ly, left+40, ly, s.Color, dash, left+46, ly+4, plotEscape(s.Name))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// plotStep returns a 1, 2 or 5 times a power of ten that cuts [0, max] into 4..10 ticks.
func plotStep(max float64) float64 {
	raw := max / 6
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func plotTick(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func plotEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}
