package render

import (
	"os"
	"path/filepath"
	"testing"
)

// waitLabelOverlaps returns the wait-for labels of svg that overlap a circle (a node, a
// cycle number) or another text, each with what it covers.
func waitLabelOverlaps(svg []byte) []string {
	circles, texts := svgBoxes(svg)
	var bad []string
	for i, t := range texts {
		if t.class != "wait-label" {
			continue
		}
		for _, c := range circles {
			if t.overlaps(c) {
				bad = append(bad, t.text+" covers a node or cycle number")
				break
			}
		}
		for j, o := range texts {
			if j != i && t.overlaps(o.box) {
				bad = append(bad, t.text+" covers "+o.text)
			}
		}
	}
	return bad
}

// TestWaitLabelsCoverNothing: in every flit picture of the golden files (the witnesses
// the render tests draw, which the golden tests compare with fresh drawings), no
// wait-for label covers a node, a cycle number or another label ("m3 blocks m2.d1" sat
// on a node, and on the lane label "m2:1" in prove AN2's picture).
func TestWaitLabelsCoverNothing(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	labels := 0
	for _, f := range files {
		svg, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, texts := svgBoxes(svg)
		for _, x := range texts {
			if x.class == "wait-label" {
				labels++
			}
		}
		for _, b := range waitLabelOverlaps(svg) {
			t.Errorf("%s: %s", f, b)
		}
	}
	if labels == 0 {
		t.Fatal("no golden picture has a wait-for label to check")
	}
}

// TestPlacerMovesOffWhatIsDrawn: a label wanted on a node moves along the normal to the
// first free place, and the next label avoids the first.
func TestPlacerMovesOffWhatIsDrawn(t *testing.T) {
	p := newPlacer([]byte(`<circle cx="100" cy="100" r="13"/>`))
	x, y := p.place(100, 103, 0, -1, 9, "m3 blocks m2.d1")
	b := textBox(x, y, 9, true, "m3 blocks m2.d1")
	if b.overlaps(box{87, 87, 113, 113}) {
		t.Fatalf("label at (%v, %v) still covers the node", x, y)
	}
	x2, y2 := p.place(100, 103, 0, -1, 9, "m2 blocks m1.d1")
	if textBox(x2, y2, 9, true, "m2 blocks m1.d1").overlaps(b) {
		t.Fatalf("second label at (%v, %v) covers the first at (%v, %v)", x2, y2, x, y)
	}
}
