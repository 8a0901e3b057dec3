package render

import (
	"bytes"
	"encoding/xml"
	"math"
	"strings"
	"testing"
)

func TestLatencyPlotDeterministicWithGaps(t *testing.T) {
	xs := []float64{0.1, 0.2, 0.3}
	ss := []Series{{Name: "sim", Y: []float64{10, math.NaN(), 30}, Color: "#000"}, {Name: "model <x>", Y: []float64{9, 19, 29}, Color: "#f00", Dashed: true}}
	a, b := LatencyPlot("t", xs, ss), LatencyPlot("t", xs, ss)
	if !bytes.Equal(a, b) {
		t.Fatal("same data, different SVG")
	}
	if !strings.Contains(string(a), "model &lt;x&gt;") || strings.Count(string(a), "<polyline") != 1 {
		t.Errorf("legend escaping or gap handling wrong:\n%s", a)
	}
	if err := xml.Unmarshal(a, new(struct{})); err != nil {
		t.Errorf("the plot is not XML: %v", err)
	}
}
