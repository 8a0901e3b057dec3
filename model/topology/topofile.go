package topology

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/input"
)

// MaxTopologyFileBytes bounds a topology file.
const MaxTopologyFileBytes = 8 << 20

// readFile reads the network in file path (the spec "file:PATH"): a BookSim2
// anynet file, a JSON graph (TopologyFormat) or a Graphviz DOT graph, told apart by
// their first word ('{' JSON; graph, digraph or strict DOT; anything else anynet).
func readFile(path string) (*Network, error) {
	if path == "" {
		return nil, errors.New("topology \"file:\": the path is missing; write file:PATH")
	}
	data, err := input.ReadFile(context.Background(), path, input.Kind{Name: "topology file", Max: MaxTopologyFileBytes})
	if err != nil {
		return nil, err
	}
	return parseFile("file:"+path, data)
}

// parseFile parses the contents of a topology file, under the given spec. Errors
// are one line naming the file's format, line and field.
func parseFile(spec string, data []byte) (*Network, error) {
	if len(data) > MaxTopologyFileBytes {
		return nil, fmt.Errorf("%s: %d bytes or more; at most %d", spec, len(data), MaxTopologyFileBytes)
	}
	data = input.TrimBOM(data)
	var g *Network
	var err error
	switch firstWord(data) {
	case "{":
		g, err = parseGraphJSON(spec, data)
	case "graph", "digraph", "strict":
		g, err = parseDOT(spec, data)
	default:
		g, err = parseAnynet(spec, data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", spec, err)
	}
	return g, nil
}

// firstWord returns "{" or the first word of data after blank space and comments.
func firstWord(data []byte) string {
	for len(data) > 0 {
		data = bytes.TrimLeft(data, " \t\r\n\ufeff")
		switch {
		case bytes.HasPrefix(data, []byte("//")), bytes.HasPrefix(data, []byte("#")):
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				data = data[i+1:]
				continue
			}
			return ""
		case bytes.HasPrefix(data, []byte("/*")):
			if i := bytes.Index(data, []byte("*/")); i >= 0 {
				data = data[i+2:]
				continue
			}
			return ""
		case bytes.HasPrefix(data, []byte("{")):
			return "{"
		}
		end := bytes.IndexAny(data, " \t\r\n{")
		if end < 0 {
			end = len(data)
		}
		return strings.ToLower(string(data[:end]))
	}
	return ""
}

// netBuilder collects the nodes and links a file names, looking nodes up by name.
type netBuilder struct {
	nodes  []GraphNode
	byName map[string]NodeID
	links  map[[2]NodeID]int // weight; lookup only, Links sorts
}

func newNetBuilder() *netBuilder {
	return &netBuilder{byName: map[string]NodeID{}, links: map[[2]NodeID]int{}}
}

// node returns the node called name, adding it when it is new.
func (b *netBuilder) node(name string) NodeID {
	if v, ok := b.byName[name]; ok {
		return v
	}
	v := NodeID(len(b.nodes))
	b.byName[name] = v
	b.nodes = append(b.nodes, GraphNode{Name: name})
	return v
}

// linkList returns the links in (from, to) order.
func (b *netBuilder) linkList() []Link {
	out := make([]Link, 0, len(b.links))
	for p, w := range b.links {
		out = append(out, Link{From: p[0], To: p[1], Weight: w})
	}
	slices.SortFunc(out, func(x, y Link) int { return cmp.Or(cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To)) })
	return out
}

// parseAnynet reads BookSim2's anynet format (src/networks/anynet.cpp): each line is a
// head "router ID" or "node ID" followed by what it connects to, "router ID [WEIGHT]" or
// "node ID [WEIGHT]". A router-router link is a channel each way; WEIGHT is the latency
// of the head->body channel (1 when absent; the reverse channel keeps 1 unless its own
// line gives one). A node (terminal) connects to one router. Words are case-insensitive;
// blank lines and lines starting with # or // are skipped (BookSim has no comments).
//
// Routers are named "r<ID>" and terminals "n<ID>"; routers come first in id order,
// then terminals in id order.
func parseAnynet(spec string, data []byte) (*Network, error) {
	type ref struct {
		router bool
		id     int
	}
	routers := map[int]bool{}
	terms := map[int]int{} // terminal id -> router id
	type edge struct {
		from, to ref
		weight   int
		implied  bool
	}
	var edges []edge
	for ln, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		f := strings.Fields(line)
		at := func(i int) string { return fmt.Sprintf("anynet line %d, field %d", ln+1, i+1) }
		readRef := func(i int) (ref, error) {
			var r ref
			switch strings.ToLower(f[i]) {
			case "router":
				r.router = true
			case "node":
			default:
				return r, fmt.Errorf("%s: %q is not \"router\" or \"node\"", at(i), f[i])
			}
			if i+1 >= len(f) {
				return r, fmt.Errorf("%s: %s has no id", at(i), f[i])
			}
			id, err := strconv.Atoi(f[i+1])
			if err != nil || id < 0 || id >= MaxGraphNodes {
				return r, fmt.Errorf("%s: id %q is not a number 0..%d", at(i+1), f[i+1], MaxGraphNodes-1)
			}
			r.id = id
			if r.router {
				routers[id] = true
			}
			return r, nil
		}
		head, err := readRef(0)
		if err != nil {
			return nil, err
		}
		for i := 2; i < len(f); {
			body, err := readRef(i)
			if err != nil {
				return nil, err
			}
			weight, next := 0, i+2
			if next < len(f) {
				if w, err := strconv.Atoi(f[next]); err == nil {
					if w < 1 || w > 1<<20 {
						return nil, fmt.Errorf("%s: link weight %d must be 1..%d", at(next), w, 1<<20)
					}
					weight, next = w, next+1
				} else if l := strings.ToLower(f[next]); l != "router" && l != "node" {
					return nil, fmt.Errorf("%s: %q is neither a link weight nor \"router\" or \"node\"", at(next), f[next])
				}
			}
			switch {
			case !head.router && !body.router:
				return nil, fmt.Errorf("%s: node %d cannot connect to node %d; nodes connect to routers", at(i), head.id, body.id)
			case !head.router || !body.router:
				t, r := head.id, body.id
				if head.router {
					t, r = body.id, head.id
				}
				if old, ok := terms[t]; ok && old != r {
					return nil, fmt.Errorf("%s: node %d is connected to router %d and router %d; a node connects to one router", at(i), t, old, r)
				}
				terms[t] = r
			case head.id == body.id:
				return nil, fmt.Errorf("%s: router %d is connected to itself", at(i), head.id)
			}
			edges = append(edges, edge{from: head, to: body, weight: weight}, edge{from: body, to: head, implied: true})
			i = next
		}
	}
	if len(routers) == 0 {
		return nil, errors.New("anynet: no router; lines look like \"router 0 node 0 router 1\"")
	}
	for t, r := range terms {
		if !routers[r] {
			return nil, fmt.Errorf("anynet: node %d is connected to router %d, which is never declared", t, r)
		}
	}
	b := newNetBuilder()
	for _, id := range sortedKeys(routers) {
		b.node("r" + strconv.Itoa(id))
	}
	for _, id := range sortedKeys(terms) {
		v := b.node("n" + strconv.Itoa(id))
		b.nodes[v].Terminal = true
	}
	name := func(r ref) NodeID {
		if r.router {
			return b.byName["r"+strconv.Itoa(r.id)]
		}
		return b.byName["n"+strconv.Itoa(r.id)]
	}
	for _, e := range edges {
		p := [2]NodeID{name(e.from), name(e.to)}
		if _, ok := b.links[p]; ok && e.implied {
			continue
		}
		b.links[p] = e.weight
	}
	return newGraph(spec, b.nodes, b.linkList(), nil)
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TopologyFormat is the version tag of JSON topology files.
const TopologyFormat = "wormcheck-topology/1"

// TopologyFile is the JSON form of a network (TopologyFormat):
//
//	{"format": "wormcheck-topology/1", "name": "soc",
//	 "routers":   [{"name": "r0", "x": 0, "y": 0}, {"name": "r1", "x": 1, "y": 0}],
//	 "terminals": [{"name": "cpu0", "router": "r0"}],
//	 "links":     [{"from": "r0", "to": "r1"}, {"from": "r1", "to": "r0", "directed": true, "weight": 3}]}
//
// A link is a channel each way unless "directed"; "weight" is its latency in cycles
// (default 1). A terminal is a node of its own joined to its router by a channel each
// way. Coordinates (x, y) are for drawing: give them for every router and terminal or
// for none. Node ids: routers in the order listed, then terminals.
type TopologyFile struct {
	Format    string         `json:"format"`
	Name      string         `json:"name,omitempty"`
	Routers   []FileRouter   `json:"routers"`
	Terminals []FileTerminal `json:"terminals,omitempty"`
	Links     []FileLink     `json:"links"`
}

// FileRouter is a router of a TopologyFile.
type FileRouter struct {
	Name string   `json:"name"`
	X    *float64 `json:"x,omitempty"`
	Y    *float64 `json:"y,omitempty"`
}

// FileTerminal is a terminal of a TopologyFile, attached to Router.
type FileTerminal struct {
	Name   string   `json:"name"`
	Router string   `json:"router"`
	X      *float64 `json:"x,omitempty"`
	Y      *float64 `json:"y,omitempty"`
}

// FileLink is a link of a TopologyFile.
type FileLink struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Directed bool   `json:"directed,omitempty"`
	Weight   int    `json:"weight,omitempty"`
}

// lineCounter gives the line of a byte offset of data. Offsets asked in increasing
// order cost only the bytes between them, so numbering every element of a file is
// linear in its size; an earlier offset (an error's) counts again from the start.
type lineCounter struct {
	data      []byte
	off, line int
}

func (c *lineCounter) lineOf(off int64) int {
	o := min(max(int(off), 0), len(c.data))
	if o < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:o], []byte("\n"))
	c.off = o
	return c.line
}

// parseGraphJSON reads a TopologyFile, naming the line of the element an error concerns.
func parseGraphJSON(spec string, data []byte) (*Network, error) {
	f, elemLines, err := decodeTopologyFile(data)
	if err != nil {
		return nil, err
	}
	return buildTopologyFile(spec, &f, elemLines)
}

// decodeTopologyFile decodes a topology file strictly (no unknown or repeated field),
// with the line of every array element for the errors of buildTopologyFile.
func decodeTopologyFile(data []byte) (TopologyFile, map[string][]int, error) {
	lines := &lineCounter{data: data, line: 1}
	lineOf := lines.lineOf
	var f TopologyFile
	elemLines := map[string][]int{} // array -> line of each element
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	elemLine := 0 // the line of the array element being decoded, 0 outside arrays
	fail := func(field string, err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("json line %d: %v", lineOf(se.Offset), err)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("json line %d, field %s: expected %s, got %s", cmp.Or(elemLine, lineOf(te.Offset)), fieldPath(field, te.Field), te.Type, te.Value)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("json line %d: the object is not closed", lineOf(int64(len(data))))
		}
		return fmt.Errorf("json line %d, field %s: %s", cmp.Or(elemLine, lineOf(dec.InputOffset())), field, strings.TrimPrefix(err.Error(), "json: "))
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return f, nil, fail("", cmp.Or(err, errors.New("expected an object")))
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return f, nil, fail("", err)
		}
		key, _ := t.(string)
		if seen[key] {
			return f, nil, fail(key, errors.New("given twice"))
		}
		seen[key] = true
		decodeArray := func(add func(*json.Decoder) error) error {
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return fail(key, cmp.Or(err, errors.New("expected a list")))
			}
			for i := 0; dec.More(); i++ {
				elemLine = lineOf(dec.InputOffset() + 1)
				elemLines[key] = append(elemLines[key], elemLine)
				if err := add(dec); err != nil {
					return fail(fmt.Sprintf("%s[%d]", key, i), err)
				}
			}
			elemLine = 0
			_, err := dec.Token()
			return err
		}
		switch key {
		case "format":
			err = dec.Decode(&f.Format)
		case "name":
			err = dec.Decode(&f.Name)
		case "routers":
			err = decodeArray(func(d *json.Decoder) error {
				var r FileRouter
				err := d.Decode(&r)
				f.Routers = append(f.Routers, r)
				return err
			})
		case "terminals":
			err = decodeArray(func(d *json.Decoder) error {
				var r FileTerminal
				err := d.Decode(&r)
				f.Terminals = append(f.Terminals, r)
				return err
			})
		case "links":
			err = decodeArray(func(d *json.Decoder) error {
				var r FileLink
				err := d.Decode(&r)
				f.Links = append(f.Links, r)
				return err
			})
		default:
			return f, nil, fail(key, fmt.Errorf("unknown field %q; a topology has format, name, routers, terminals, links", key))
		}
		if err != nil {
			if strings.HasPrefix(err.Error(), "json line") {
				return f, nil, err
			}
			return f, nil, fail(key, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return f, nil, fail("", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return f, nil, fmt.Errorf("json line %d: text after the object", lineOf(dec.InputOffset()))
	}
	return f, elemLines, nil
}

// buildTopologyFile checks the decoded file f and builds its network.
func buildTopologyFile(spec string, f *TopologyFile, elemLines map[string][]int) (*Network, error) {
	at := func(key string, i int) string {
		return fmt.Sprintf("json line %d, field %s[%d]", elemLines[key][i], key, i)
	}
	if f.Format != TopologyFormat {
		return nil, fmt.Errorf("json field format: %q; this wormcheck reads %q", f.Format, TopologyFormat)
	}
	if len(f.Routers) == 0 {
		return nil, errors.New("json field routers: empty; list the routers")
	}
	b := newNetBuilder()
	add := func(where, name string, x, y *float64, terminal bool) error {
		if err := checkNodeName(name); err != nil {
			return fmt.Errorf("%s.name: %v", where, err)
		}
		if _, dup := b.byName[name]; dup {
			return fmt.Errorf("%s.name: %q is listed twice", where, name)
		}
		if (x == nil) != (y == nil) {
			return fmt.Errorf("%s: give both x and y, or neither", where)
		}
		v := b.node(name)
		b.nodes[v].Terminal = terminal
		if x != nil {
			b.nodes[v].At, b.nodes[v].Placed = Point{X: *x, Y: *y}, true
		}
		return nil
	}
	for i, r := range f.Routers {
		if err := add(at("routers", i), r.Name, r.X, r.Y, false); err != nil {
			return nil, err
		}
	}
	routerCount := len(b.nodes)
	lookup := func(where, field, name string, routersOnly bool) (NodeID, error) {
		v, ok := b.byName[name]
		if !ok || routersOnly && int(v) >= routerCount {
			return 0, fmt.Errorf("%s.%s: %q is not a router", where, field, name)
		}
		return v, nil
	}
	for i, t := range f.Terminals {
		where := at("terminals", i)
		r, err := lookup(where, "router", t.Router, true)
		if err != nil {
			return nil, err
		}
		if err := add(where, t.Name, t.X, t.Y, true); err != nil {
			return nil, err
		}
		v := b.byName[t.Name]
		b.links[[2]NodeID{v, r}], b.links[[2]NodeID{r, v}] = 0, 0
	}
	for i, l := range f.Links {
		where := at("links", i)
		from, err := lookup(where, "from", l.From, true)
		if err != nil {
			return nil, err
		}
		to, err := lookup(where, "to", l.To, true)
		if err != nil {
			return nil, err
		}
		if from == to {
			return nil, fmt.Errorf("%s: %q is linked to itself", where, l.From)
		}
		if l.Weight < 0 || l.Weight > 1<<20 {
			return nil, fmt.Errorf("%s.weight: %d; it must be 1..%d", where, l.Weight, 1<<20)
		}
		pairs := [][2]NodeID{{from, to}}
		if !l.Directed {
			pairs = append(pairs, [2]NodeID{to, from})
		}
		for _, p := range pairs {
			if _, dup := b.links[p]; dup {
				return nil, fmt.Errorf("%s: the channel %s->%s is given twice", where, b.nodes[p[0]].Name, b.nodes[p[1]].Name)
			}
			b.links[p] = l.Weight
		}
	}
	return newGraph(spec, b.nodes, b.linkList(), nil)
}

// fieldPath joins an array element's path and a field inside it.
func fieldPath(elem, field string) string {
	switch {
	case elem == "":
		return field
	case field == "":
		return elem
	}
	return elem + "." + field
}
