package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props"
)

func TestLatencyPlotDeterministicWithGaps(t *testing.T) {
	xs := []float64{0.1, 0.2, 0.3}
	ss := []props.Curve{{Name: "sim", Y: []float64{10, math.NaN(), 30}, Colour: "#000"}, {Name: "model <x>", Y: []float64{9, 19, 29}, Colour: "#f00", Dashed: true}}
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

// TestCurveStylesDistinct: the 16 curves of a comparison of four algorithms (colours) at
// four destination counts (styles 1-4, 000 §5.3's plot) have 16 different (colour, dash,
// marker) styles, and so do 4 algorithms at 16 counts.
func TestCurveStylesDistinct(t *testing.T) {
	colours := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	for _, shape := range [][2]int{{4, 4}, {4, 16}} {
		seen := map[[3]string]string{}
		for run := 0; run < shape[1]; run++ {
			for a := 0; a < shape[0]; a++ {
				c := curveOf(props.Curve{Colour: colours[a], Style: run + 1})
				key := [3]string{c.Colour, c.Dash, c.Marker}
				name := fmt.Sprintf("algorithm %d, count %d", a, run)
				if prev, ok := seen[key]; ok {
					t.Errorf("%d x %d: %s has the style of %s: %q", shape[0], shape[1], name, prev, key)
				}
				seen[key] = name
			}
		}
	}
}
