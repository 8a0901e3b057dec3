package render

// Series is one line of a latency plot; NaN and infinite points are gaps. CI, when set,
// holds the half-width of each point's 95% confidence interval (drawn as a bar).
type Series struct {
	Name   string
	Y      []float64
	Color  string
	Dashed bool
	Dash   string // an SVG stroke-dasharray (Dashes); overrides Dashed
	Marker string // one of Markers; "" is a disc
	CI     []float64
}

// LatencyPlot draws mean latency against offered load as one panel of LatencyPanels:
// 1-2-5 ticks, one line with markers per series (broken at gaps, in its dash pattern),
// confidence bars where CI is given, and a legend. xs are the offered loads
// (flits/node/cycle) shared by every series. Pure: the same data give the same bytes.
func LatencyPlot(title string, xs []float64, ss []Series) []byte {
	return LatencyPanels(title, xs, []Panel{{Curves: Curves(ss)}})
}

// Curves converts series into the curves of a Panel.
func Curves(ss []Series) []Curve {
	out := make([]Curve, len(ss))
	for i, s := range ss {
		out[i] = Curve{Name: s.Name, Y: s.Y, CI: s.CI, Colour: s.Color, Dashed: s.Dashed, Dash: s.Dash, Marker: s.Marker}
	}
	return out
}
