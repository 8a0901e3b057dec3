// Label placement: a label drawn late in a picture (a wait-for edge's "m3 blocks m2.d1")
// is moved off the nodes, cycle numbers and labels drawn before it.

package render

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// box is an axis-aligned rectangle of a picture, in its coordinates (y down).
type box struct{ x0, y0, x1, y1 float64 }

// overlaps says whether a and o share more than an edge.
func (a box) overlaps(o box) bool {
	return a.x0 < o.x1 && o.x0 < a.x1 && a.y0 < o.y1 && o.y0 < a.y1
}

// charWidth is the advance of one character as a share of the font size: generous for
// the sans-serif fonts browsers pick, so that a box covers its text.
const charWidth = 0.62

// textBox is the box of text of font size fs with its baseline at y, starting at x or
// centred on it (middle).
func textBox(x, y, fs float64, middle bool, text string) box {
	w := charWidth * fs * float64(len([]rune(text)))
	if middle {
		x -= w / 2
	}
	return box{x, y - 0.8*fs, x + w, y + 0.25*fs}
}

// svgElement matches the circles and texts wormcheck writes (attributes in any order;
// a text's content has no markup).
var (
	svgCircle = regexp.MustCompile(`<circle ([^>]*)>`)
	svgText   = regexp.MustCompile(`<text ([^>]*)>([^<]*)</text>`)
	svgAttr   = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
)

// attrs reads the attributes of one element's opening tag.
func attrs(s string) map[string]string {
	m := map[string]string{}
	for _, a := range svgAttr.FindAllStringSubmatch(s, -1) {
		m[a[1]] = a[2]
	}
	return m
}

// num reads attribute name of m as a number, def when absent.
func num(m map[string]string, name string, def float64) float64 {
	if v, err := strconv.ParseFloat(m[name], 64); err == nil {
		return v
	}
	return def
}

// drawnText is a text of a picture: its box, its words and its class attribute.
type drawnText struct {
	box
	text, class string
}

// svgBoxes reads the boxes of the circles and of the texts (font size 12 where none is
// given, as the pictures' style sets it) of an SVG wormcheck wrote.
func svgBoxes(svg []byte) (circles []box, texts []drawnText) {
	for _, c := range svgCircle.FindAllSubmatch(svg, -1) {
		m := attrs(string(c[1]))
		x, y, r := num(m, "cx", 0), num(m, "cy", 0), num(m, "r", 0)
		circles = append(circles, box{x - r, y - r, x + r, y + r})
	}
	for _, t := range svgText.FindAllSubmatch(svg, -1) {
		m := attrs(string(t[1]))
		text := unescape(string(t[2]))
		b := textBox(num(m, "x", 0), num(m, "y", 0), num(m, "font-size", 12), m["text-anchor"] == "middle", text)
		texts = append(texts, drawnText{b, text, m["class"]})
	}
	return circles, texts
}

// unescape undoes html.EscapeString for measuring a text's length.
func unescape(s string) string {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] == '&' {
			for _, e := range []struct{ ent, r string }{{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&#34;", `"`}, {"&#39;", "'"}, {"&quot;", `"`}} {
				if len(s)-i >= len(e.ent) && s[i:i+len(e.ent)] == e.ent {
					out = append(out, []rune(e.r)...)
					i += len(e.ent)
					goto next
				}
			}
		}
		out = append(out, rune(s[i]))
		i++
	next:
	}
	return string(out)
}

// placer puts labels where they overlap nothing already drawn.
type placer struct{ taken []box }

// newPlacer starts a placer with everything svg (the picture so far) draws taken.
func newPlacer(svg []byte) *placer {
	circles, texts := svgBoxes(svg)
	p := &placer{taken: circles}
	for _, t := range texts {
		p.taken = append(p.taken, t.box)
	}
	return p
}

// place returns where to centre text of font size fs, wanted at (x, y) (its baseline),
// and takes its box: the nearest place that overlaps nothing taken, among places moved
// along (nx, ny) (a unit vector: the normal of the edge it labels) and across it, or
// (x, y) itself when none within reach is free.
func (p *placer) place(x, y, nx, ny, fs float64, text string) (float64, float64) {
	const step, reach = 6.0, 12
	if nx == 0 && ny == 0 {
		nx, ny = 0, -1
	}
	tx, ty := -ny, nx
	type cand struct{ x, y, d float64 }
	var cands []cand
	for i := -reach; i <= reach; i++ {
		for j := -reach; j <= reach; j++ {
			a, b := float64(i)*step, float64(j)*step*2
			cands = append(cands, cand{x + nx*a + tx*b, y + ny*a + ty*b, a*a + b*b})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
	bx, by := x, y
	for _, c := range cands {
		b := textBox(c.x, c.y, fs, true, text)
		if !slices.ContainsFunc(p.taken, b.overlaps) {
			bx, by = c.x, c.y
			break
		}
	}
	p.taken = append(p.taken, textBox(bx, by, fs, true, text))
	return bx, by
}

// movable are the classes of the labels settleLabels may move: a flit picture's lane,
// destination and blocked-header labels ("lbl"), a lasso's step numbers and the
// wait-for labels, each drawn near what it names with no room of its own.
var movable = map[string]bool{"lbl": true, "loop-step": true, "wait-label": true}

// settleLabels moves each movable label of svg that covers a filled circle (a node, a
// cycle number) or a text settled before it to the nearest free place (placer.place,
// upwards first), and returns the picture. Texts of other classes (titles, node names,
// axes, legends) stay where they are and are avoided.
func settleLabels(svg []byte) []byte {
	type found struct {
		start, end int // the opening tag's attributes in svg
		m          map[string]string
		text       string
	}
	var labels []found
	p := &placer{}
	for _, c := range svgCircle.FindAllSubmatch(svg, -1) {
		m := attrs(string(c[1]))
		if f, ok := m["fill"]; !ok || f == "none" {
			continue
		}
		x, y, r := num(m, "cx", 0), num(m, "cy", 0), num(m, "r", 0)
		p.taken = append(p.taken, box{x - r, y - r, x + r, y + r})
	}
	for _, t := range svgText.FindAllSubmatchIndex(svg, -1) {
		m := attrs(string(svg[t[2]:t[3]]))
		text := unescape(string(svg[t[4]:t[5]]))
		if movable[m["class"]] {
			labels = append(labels, found{t[2], t[3], m, text})
			continue
		}
		p.taken = append(p.taken, textBox(num(m, "x", 0), num(m, "y", 0), num(m, "font-size", 12), m["text-anchor"] == "middle", text))
	}
	var out bytes.Buffer
	last := 0
	for _, l := range labels {
		fs, middle := num(l.m, "font-size", 12), l.m["text-anchor"] == "middle"
		x, y := num(l.m, "x", 0), num(l.m, "y", 0)
		b := textBox(x, y, fs, middle, l.text)
		if !slices.ContainsFunc(p.taken, b.overlaps) {
			p.taken = append(p.taken, b)
			continue
		}
		half := 0.0
		if !middle {
			half = (b.x1 - b.x0) / 2
		}
		nx, ny := p.place(x+half, y, 0, -1, fs, l.text)
		out.Write(svg[last:l.start])
		out.WriteString(svgXY.ReplaceAllStringFunc(string(svg[l.start:l.end]), func(a string) string {
			if strings.HasPrefix(a, "x=") {
				return "x=\"" + f1(nx-half) + "\""
			}
			return "y=\"" + f1(ny) + "\""
		}))
		last = l.end
	}
	if last == 0 {
		return svg
	}
	out.Write(svg[last:])
	return out.Bytes()
}

// svgXY matches the x and y attributes of a tag.
var svgXY = regexp.MustCompile(`\b[xy]="[^"]*"`)
