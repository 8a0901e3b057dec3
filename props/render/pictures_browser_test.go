package render_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// TestPicturesInBrowser renders every kind of picture wormcheck draws to PNG in headless
// chromium, as a reader opens them: the kinds the golden files pin (testdata/*.svg: flit
// deadlocks, a lasso, adaptive waits, static cycles, partitions, banyan conflicts and
// deadlocks, schedules, latency plots) and, drawn here, a cycle that Duato's condition
// proves harmless, a violated partition and a comparison's sixteen curves. Each must load
// as an SVG document of its stated size with something drawn on a good part of it. With
// WORMCHECK_ARTIFACTS set, the PNGs are kept there to look at.
func TestPicturesInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts chromium; skipped under -short")
	}
	pics := map[string][]byte{}
	files, err := filepath.Glob(filepath.Join("testdata", "*.svg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden pictures: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pics[filepath.Base(f)] = data
	}
	g, err := topology.Parse("mesh:8x8")
	if err != nil {
		t.Fatal(err)
	}
	proven, err := render.ProvenCycle(g, squareCycle(), "duato on mesh:8x8: holds; the channel dependency graph is cyclic, not a deadlock", "static check, 2 VCs: holds", "the escape channels' extended dependency graph is acyclic (Duato)")
	if err != nil {
		t.Fatal(err)
	}
	pics["proven-cycle.svg"] = proven
	ddn := props.Subnetwork{Name: "G0", Directed: true, Nodes: []topology.NodeID{g.Node(0, 0), g.Node(2, 0)}}
	for x := 0; x < 7; x++ {
		c, _ := g.Neighbor(g.Node(x, 0), 0, topology.Plus)
		ddn.Channels = append(ddn.Channels, c)
	}
	violated, err := render.Partition(&props.PartitionEvidence{Grid: g, DDNs: []props.Subnetwork{ddn}, Title: "(2,0) cannot reach (0,0) in G0", Violated: true,
		Pair: []topology.NodeID{g.Node(2, 0), g.Node(0, 0)}, Caption: "the unreachable pair", HotSubnetworks: []string{"G0"}, HotChannels: ddn.Channels[:1]})
	if err != nil {
		t.Fatal(err)
	}
	pics["partition-violated.svg"] = violated
	var series []props.Curve
	for n := range 4 {
		for a, colour := range []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"} {
			ys := []float64{10 + float64(5*n+a), 20 + float64(7*n+a), math.NaN()}
			series = append(series, props.Curve{Name: fmt.Sprintf("algorithm %d n=%d", a, 4+7*n), Y: ys, Colour: colour, Style: n + 1})
		}
	}
	pics["compare-16.svg"] = render.LatencyPlot("sixteen curves", []float64{0.01, 0.05, 0.1}, series)

	ctx := browser(t)
	out := artifacts(t)
	for _, name := range slices.Sorted(maps.Keys(pics)) {
		svg := pics[name]
		w, h := svgSize(t, name, svg)
		p := filepath.Join(out, strings.TrimSuffix(name, ".svg")+".svg")
		if err := os.WriteFile(p, svg, 0o644); err != nil {
			t.Fatal(err)
		}
		var root string
		var shot []byte
		if err := chromedp.Run(ctx,
			chromedp.EmulateViewport(int64(math.Ceil(w)), int64(math.Ceil(h))),
			chromedp.Navigate("file://"+p),
			chromedp.Evaluate(`document.documentElement.tagName`, &root),
			chromedp.FullScreenshot(&shot, 100),
		); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if root != "svg" {
			t.Errorf("%s: chromium reads a %q document, not an SVG", name, root)
			continue
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() < int(w)-1 || b.Dy() < int(h)-1 {
			t.Errorf("%s: the PNG is %dx%d; the SVG says %.0fx%.0f", name, b.Dx(), b.Dy(), w, h)
		}
		if ink := inked(img); ink < 0.01 {
			t.Errorf("%s: only %.2f%% of the picture is drawn on", name, 100*ink)
		}
		if err := os.WriteFile(filepath.Join(out, strings.TrimSuffix(name, ".svg")+".png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d pictures rendered to PNG in %s", len(pics), out)
}

// svgSize reads the width and height attributes of an SVG document's root.
func svgSize(t *testing.T, name string, svg []byte) (float64, float64) {
	t.Helper()
	var w, h float64
	head, _, _ := bytes.Cut(svg, []byte(">"))
	if _, err := fmt.Sscanf(string(head[bytes.Index(head, []byte(`width="`)):]), `width="%g" height="%g"`, &w, &h); err != nil || w <= 0 || h <= 0 {
		t.Fatalf("%s: no width and height on the root: %v", name, err)
	}
	return w, h
}

// inked is the share of img's pixels that are not white.
func inked(img image.Image) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}
