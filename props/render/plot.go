package render

import "github.com/wormcheck/wormcheck/props"

// LatencyPlot draws mean latency against offered load as one panel of LatencyPanels:
// 1-2-5 ticks, one line with markers per curve (broken at gaps, in its dash pattern),
// confidence bars where CI is given, and a legend. xs are the offered loads
// (flits/node/cycle) shared by every curve. Pure: the same data give the same bytes.
func LatencyPlot(title string, xs []float64, curves []props.Curve) []byte {
	return LatencyPanels(title, xs, []props.Panel{{Curves: curves}})
}
