package render_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/render"
	"github.com/wormcheck/wormcheck/props/schedule"
)

func collision(t testing.TB) *model.Schedule {
	g, _ := topology.Parse("torus:4x4")
	r := topology.NewDOR(g)
	s := &model.Schedule{Topology: g, Sources: []topology.NodeID{g.Node(0, 0)}}
	add := func(a, b topology.NodeID, step, order int) {
		s.Unicasts = append(s.Unicasts, model.Unicast{From: a, To: b, Path: r.Path(a, b), Step: step, Order: order})
		s.Destinations = append(s.Destinations, b)
	}
	add(g.Node(0, 0), g.Node(1, 0), 1, 1)
	add(g.Node(1, 0), g.Node(1, 2), 2, 1)
	add(g.Node(0, 0), g.Node(1, 1), 2, 2)
	add(g.Node(0, 0), g.Node(3, 0), 1, 2) // a wrap-around hop
	return s
}

func TestScheduleSVGIsWellFormedAndHighlights(t *testing.T) {
	s := collision(t)
	w := schedule.Stepwise(s).ScheduleWitness()
	pic, err := render.Schedule(s, w)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(pic))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
	}
	// A stepwise witness: the pair drawn apart in two colours over the shared channel.
	for _, want := range []string{`<g stroke="` + "#0072b2" + `" stroke-width="3.0"`, `<g stroke="` + "#e69f00" + `" stroke-width="3.0"`, "the channel both hold: " + html.EscapeString(w.Channel), "stepwise semantics"} {
		if !strings.Contains(string(pic), want) {
			t.Errorf("picture lacks %q", want)
		}
	}
	again, _ := render.Schedule(s, w)
	if !bytes.Equal(pic, again) {
		t.Error("output is not deterministic")
	}
	g3, _ := topology.Parse("torus:2x2x2")
	if _, err := render.Schedule(&model.Schedule{Topology: g3}, nil); err == nil {
		t.Error("3-D grid accepted")
	}
}

func ExampleSchedule() {
	g, _ := topology.Parse("mesh:3x3")
	r := topology.NewDOR(g)
	a, b := g.Node(0, 0), g.Node(2, 1)
	s := &model.Schedule{Topology: g, Sources: []topology.NodeID{a}, Destinations: []topology.NodeID{b},
		Unicasts: []model.Unicast{{From: a, To: b, Path: r.Path(a, b), Step: 1, Order: 1}}}
	pic, err := render.Schedule(s, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Count(string(pic), "id=\"step"), "panel,", strings.Count(string(pic), "marker-end"), "arrow")
	// Output:
	// 1 panel, 1 arrow
}
