package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// ScheduleFormat is the format tag of schedule files.
const ScheduleFormat = "wormcheck-schedule/1"

// MaxScheduleUnicasts bounds the unicasts of a schedule file, so that a hostile file
// cannot make the parser allocate without limit.
const MaxScheduleUnicasts = 1 << 22

// MaxScheduleSteps bounds step numbers (U_1..U_k may include empty sets, so steps are
// not bounded by the number of unicasts).
const MaxScheduleSteps = 1 << 16

// A schedule file is one JSON object, so that users can verify their own unicast-based
// collectives with `wormcheck verify F`. Reference: 004 Definition 1 (I(B) as unicast sets
// U_1..U_k of quadruples (u, v, p(u, v), t)). Its fields:
//
//	{
//	  "format": "wormcheck-schedule/1",       required, exactly this tag
//	  "topology": "torus:8x8",                required; mesh, torus or hypercube spec
//	  "routing": [0, 1],                      optional dimension order of the DOR paths;
//	                                          default 0, 1, ..., n-1 (shortest way round on
//	                                          tori, a tie of exactly k/2 goes the + way);
//	                                          or the string "explicit": no routing, every
//	                                          unicast gives its path (see below)
//	  "ties": "either",                       optional: "plus" (default) or "either": a
//	                                          path may go either way round a ring in a
//	                                          tied dimension (both ways minimal, 004 Fig.
//	                                          6(b)); DOR routing only
//	  "ports": "all-port",                    optional: "all-port" (default) or "one-port"
//	  "sources": [[0, 0]],                    required: the nodes holding the message at 0
//	  "destinations": [[1, 0], [2, 3]],       optional; omitted = the union of
//	                                          "group_destinations" when given, else
//	                                          broadcast: every node that is not a source
//	  "group_destinations": [[...], [...]],   optional, with groups: destinations per group
//	                                          (their union must be "destinations", sources
//	                                          aside, when both are given)
//	  "unicasts": [                           required, may be empty
//	    {"from": [0, 0], "to": [2, 0],        required nodes
//	     "step": 1,                           required, 1 <= step <= 65536
//	     "order": 1,                          required, >= 1: position in from's send
//	                                          order (per group) across all steps; only
//	                                          the relative order matters (ties: by step,
//	                                          then by position in the file)
//	     "group": 0,                          optional; 0-based multicast the unicast
//	                                          belongs to (source of group g = sources[g])
//	     "path": [[0, 0], [1, 0], [2, 0]],    optional: the nodes visited, both ends
//	                                          included; omitted = the routing's path
//	     "vc": [0, 1]}                        optional: virtual-channel class per hop;
//	  ]                                       contention is then judged per (channel,
//	                                          class) (model.Unicast.VC)
//	}
//
// A node is given either as its id (a number, 0 <= id < nodes; ids count dimension 0
// fastest) or as its coordinate array ([x, y] on a 2-D mesh or torus; on a hypercube
// the array of its n address bits, bit 0 first). A given path must be exactly the DOR path
// of the routing (topology.DOR.IsDORPath); with "ties": "either" it may instead take the
// other way round in tied dimensions (topology.DOR.IsDORPathTies); with "routing":
// "explicit" every unicast must give its path, and any walk of existing channels from
// "from" to "to" that uses no channel twice is accepted (topology.Network.CheckWalk: the
// directed-subnetwork routes of 001 Types III and IV). Otherwise the file is refused.
// The properties judge such schedules unchanged: they only read the paths. Unknown fields, unknown
// nodes, out-of-range steps or orders, a "group" on some unicasts but not others, and
// trailing data are refused too; every error is one line naming the field. Examples:
// model/testdata/stepwise-not-depth.json (stepwise but not depth contention-free) and
// model/testdata/two-multicasts-one-port.json (two groups with node contention),
// model/testdata/zblock-4x4-ties-either.json (004's Z_block with Fig. 6(b)'s Minus tie)
// and model/testdata/explicit-directed-ring.json (worms that only go the + way, as in a
// positive DDN of 001).

// scheduleFile is the JSON shape of a schedule file.
type scheduleFile struct {
	Format            string              `json:"format"`
	Topology          string              `json:"topology"`
	Routing           json.RawMessage     `json:"routing,omitempty"`
	Ties              string              `json:"ties,omitempty"`
	Ports             string              `json:"ports,omitempty"`
	Sources           []json.RawMessage   `json:"sources"`
	Destinations      []json.RawMessage   `json:"destinations,omitempty"`
	GroupDestinations [][]json.RawMessage `json:"group_destinations,omitempty"`
	Unicasts          []unicastFile       `json:"unicasts"`
}

type unicastFile struct {
	From  json.RawMessage   `json:"from"`
	To    json.RawMessage   `json:"to"`
	Step  int               `json:"step"`
	Order int               `json:"order"`
	Group *int              `json:"group,omitempty"`
	Path  []json.RawMessage `json:"path,omitempty"`
	VC    []uint8           `json:"vc,omitempty"`
}

// Grid returns the schedule's grid, or an error if the topology is not a mesh, torus or
// hypercube.
func (s *Schedule) Grid() (*topology.Network, error) {
	g, ok := s.Topology.(*topology.Network)
	if !ok || g == nil {
		return nil, fmt.Errorf("schedule topology is not a mesh, torus or hypercube")
	}
	return g, nil
}

// Routes returns the DOR routing the schedule's paths follow (Routing, or ascending).
func (s *Schedule) Routes(g *topology.Network) topology.DOR {
	r := topology.NewDOR(g)
	if s.Routing != nil {
		r.Order = append([]int(nil), s.Routing...)
	}
	return r
}

// Groups returns the number of concurrent multicasts: len(Sources) when Group is set,
// else 1.
func (s *Schedule) Groups() int {
	if s.Group == nil {
		return 1
	}
	return len(s.Sources)
}

// GroupOf returns the group of unicast i (0 when Group is nil).
func (s *Schedule) GroupOf(i int) int {
	if s.Group == nil {
		return 0
	}
	return s.Group[i]
}

// SourcesOf returns the nodes that hold group g's message at time 0: every source when
// Group is nil, else Sources[g].
func (s *Schedule) SourcesOf(g int) []topology.NodeID {
	if s.Group == nil {
		return s.Sources
	}
	return s.Sources[g : g+1]
}

// DestinationsOf returns group g's destination set: GroupDestinations[g] when given,
// else Destinations.
func (s *Schedule) DestinationsOf(g int) []topology.NodeID {
	if s.GroupDestinations != nil {
		return s.GroupDestinations[g]
	}
	return s.Destinations
}

// Check verifies the structure of a schedule (not its properties): a grid topology,
// known nodes, steps and orders >= 1, group indices in range, and every path exactly
// the routing's DOR path. The error is one line naming the unicast and field.
func (s *Schedule) Check() error {
	g, err := s.Grid()
	if err != nil {
		return err
	}
	r := s.Routes(g)
	if err := r.CheckOrder(); err != nil {
		return fmt.Errorf("routing: %v", err)
	}
	switch {
	case s.Ties != TiesPlus && s.Ties != TiesEither:
		return fmt.Errorf("ties: rule %d is unknown", s.Ties)
	case s.Explicit && s.Routing != nil:
		return fmt.Errorf("routing: an explicit-path schedule has no dimension order")
	case s.Explicit && s.Ties != TiesPlus:
		return fmt.Errorf("ties: %q applies to DOR routing, not to explicit paths", s.Ties.String())
	}
	n := topology.NodeID(g.Nodes())
	node := func(v topology.NodeID, what string) error {
		if v < 0 || v >= n {
			return fmt.Errorf("%s: node %d does not exist (%s has %d nodes)", what, v, g.Spec(), n)
		}
		return nil
	}
	if len(s.Sources) == 0 {
		return fmt.Errorf("sources: none given")
	}
	for i, v := range s.Sources {
		if err := node(v, fmt.Sprintf("sources[%d]", i)); err != nil {
			return err
		}
	}
	for i, v := range s.Destinations {
		if err := node(v, fmt.Sprintf("destinations[%d]", i)); err != nil {
			return err
		}
	}
	if s.Group != nil && len(s.Group) != len(s.Unicasts) {
		return fmt.Errorf("group: %d entries for %d unicasts", len(s.Group), len(s.Unicasts))
	}
	if s.GroupDestinations != nil && len(s.GroupDestinations) != s.Groups() {
		return fmt.Errorf("group_destinations: %d sets for %d groups", len(s.GroupDestinations), s.Groups())
	}
	for gi, set := range s.GroupDestinations {
		for i, v := range set {
			if err := node(v, fmt.Sprintf("group_destinations[%d][%d]", gi, i)); err != nil {
				return err
			}
		}
	}
	for i, u := range s.Unicasts {
		w := fmt.Sprintf("unicasts[%d]", i)
		if err := node(u.From, w+".from"); err != nil {
			return err
		}
		if err := node(u.To, w+".to"); err != nil {
			return err
		}
		if u.Step < 1 || u.Step > MaxScheduleSteps {
			return fmt.Errorf("%s.step: %d is out of range 1..%d", w, u.Step, MaxScheduleSteps)
		}
		if u.Order < 1 || u.Order > MaxScheduleUnicasts {
			return fmt.Errorf("%s.order: %d is out of range 1..%d", w, u.Order, MaxScheduleUnicasts)
		}
		if s.Group != nil && (s.Group[i] < 0 || s.Group[i] >= len(s.Sources)) {
			return fmt.Errorf("%s.group: %d is out of range 0..%d", w, s.Group[i], len(s.Sources)-1)
		}
		if u.From == u.To {
			return fmt.Errorf("%s: from and to are the same node %s", w, g.NodeName(u.From))
		}
		if u.VC != nil && len(u.VC) != len(u.Path) {
			return fmt.Errorf("%s.vc: %d classes for a path of %d channels", w, len(u.VC), len(u.Path))
		}
		var err error
		switch {
		case s.Explicit:
			err = g.CheckWalk(u.From, u.To, u.Path)
		case s.Ties == TiesEither:
			_, err = r.IsDORPathTies(u.From, u.To, u.Path)
		default:
			err = r.IsDORPath(u.From, u.To, u.Path)
		}
		if err != nil {
			return fmt.Errorf("%s.path: %v", w, err)
		}
	}
	return nil
}

// defaultDestinations gives "destinations" when a file leaves it out: the union of the
// groups' destinations when the file gives them, else every node but the sources.
func defaultDestinations(g *topology.Network, sources []topology.NodeID, groups [][]topology.NodeID) []topology.NodeID {
	if groups == nil {
		return Broadcast(g.Nodes(), sources)
	}
	var union []topology.NodeID
	for _, set := range groups {
		union = append(union, set...)
	}
	slices.Sort(union)
	return slices.Compact(union)
}

// sameDestinations checks that a schedule file which gives its destinations twice, per
// group and all together, gives the same nodes both ways: the judges read one or the other,
// so a file whose two lists disagree would be judged on whichever each reads. A source
// may stand in "destinations" (a multicast's list may name its own source) without
// being a group's destination.
func (s *Schedule) sameDestinations(g *topology.Network) error {
	if s.GroupDestinations == nil || len(s.Destinations) == 0 {
		return nil
	}
	var union []topology.NodeID
	for _, set := range s.GroupDestinations {
		union = append(union, set...)
	}
	slices.Sort(union)
	union = slices.Compact(union)
	all := slices.Compact(slices.Sorted(slices.Values(s.Destinations)))
	if slices.Equal(all, union) {
		return nil
	}
	for _, v := range all {
		if _, in := slices.BinarySearch(union, v); !in && !slices.Contains(s.Sources, v) {
			return fmt.Errorf("destinations: node %s is a destination but in no group's \"group_destinations\"", g.NodeName(v))
		}
	}
	for _, v := range union {
		if _, in := slices.BinarySearch(all, v); !in {
			return fmt.Errorf("group_destinations: node %s is a group's destination but not in \"destinations\"", g.NodeName(v))
		}
	}
	return nil
}

// ParseSchedule decodes and validates a schedule file (format above). Paths left out are
// filled with the routing's DOR paths. It never panics; every error is one line naming
// the field.
func ParseSchedule(data []byte) (*Schedule, error) {
	var f scheduleFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("schedule file is not valid JSON: %v", oneLineErr(err))
	}
	if dec.More() {
		return nil, fmt.Errorf("schedule file has data after the JSON object")
	}
	if f.Format != ScheduleFormat {
		return nil, fmt.Errorf("schedule field \"format\" is %q; want %q", f.Format, ScheduleFormat)
	}
	if f.Topology == "" {
		return nil, fmt.Errorf("schedule field \"topology\" is missing")
	}
	g, err := topology.Parse(f.Topology)
	if err == nil {
		err = g.RequireDims("a schedule")
	}
	if err != nil {
		return nil, fmt.Errorf("schedule field \"topology\": %v", err)
	}
	if len(f.Unicasts) > MaxScheduleUnicasts {
		return nil, fmt.Errorf("schedule field \"unicasts\" has %d entries; at most %d are supported", len(f.Unicasts), MaxScheduleUnicasts)
	}
	s := &Schedule{Topology: g}
	if err := parseRouting(g, f.Routing, s); err != nil {
		return nil, fmt.Errorf("schedule field \"routing\": %v", err)
	}
	switch f.Ties {
	case "", "plus":
		s.Ties = TiesPlus
	case "either":
		if s.Explicit {
			return nil, fmt.Errorf("schedule field \"ties\": %q applies to DOR routing; \"routing\" is \"explicit\"", f.Ties)
		}
		s.Ties = TiesEither
	default:
		return nil, fmt.Errorf("schedule field \"ties\" is %q; want \"plus\" or \"either\"", short([]byte(f.Ties)))
	}
	switch f.Ports {
	case "", "all-port":
		s.Ports = AllPort
	case "one-port":
		s.Ports = OnePort
	default:
		return nil, fmt.Errorf("schedule field \"ports\" is %q; want \"all-port\" or \"one-port\"", f.Ports)
	}
	nodes := func(raw []json.RawMessage, field string) ([]topology.NodeID, error) {
		out := make([]topology.NodeID, len(raw))
		for i, m := range raw {
			v, err := parseNode(g, m)
			if err != nil {
				return nil, fmt.Errorf("schedule field \"%s[%d]\": %v", field, i, err)
			}
			out[i] = v
		}
		return out, nil
	}
	if len(f.Sources) == 0 {
		return nil, fmt.Errorf("schedule field \"sources\" is missing or empty")
	}
	if s.Sources, err = nodes(f.Sources, "sources"); err != nil {
		return nil, err
	}
	if f.Destinations != nil {
		if s.Destinations, err = nodes(f.Destinations, "destinations"); err != nil {
			return nil, err
		}
	}
	for gi, set := range f.GroupDestinations {
		d, err := nodes(set, fmt.Sprintf("group_destinations[%d]", gi))
		if err != nil {
			return nil, err
		}
		s.GroupDestinations = append(s.GroupDestinations, d)
	}
	if f.Destinations == nil {
		s.Destinations = defaultDestinations(g, s.Sources, s.GroupDestinations)
	}
	r := s.Routes(g)
	grouped := len(f.Unicasts) > 0 && f.Unicasts[0].Group != nil
	s.Unicasts = make([]Unicast, len(f.Unicasts))
	for i, uf := range f.Unicasts {
		field := fmt.Sprintf("unicasts[%d]", i)
		u := &s.Unicasts[i]
		if u.From, err = parseNode(g, uf.From); err != nil {
			return nil, fmt.Errorf("schedule field \"%s.from\": %v", field, err)
		}
		if u.To, err = parseNode(g, uf.To); err != nil {
			return nil, fmt.Errorf("schedule field \"%s.to\": %v", field, err)
		}
		u.Step, u.Order, u.VC = uf.Step, uf.Order, uf.VC
		if (uf.Group != nil) != grouped {
			return nil, fmt.Errorf("schedule field \"%s.group\": give a group on every unicast or on none", field)
		}
		if grouped {
			s.Group = append(s.Group, *uf.Group)
		}
		if uf.Path == nil {
			if s.Explicit {
				return nil, fmt.Errorf("schedule field \"%s.path\" is missing; \"routing\": \"explicit\" needs every path", field)
			}
			u.Path = r.Path(u.From, u.To)
			continue
		}
		path, err := parsePath(g, uf.Path, u.From, u.To)
		if err != nil {
			return nil, fmt.Errorf("schedule field \"%s.path\": %v", field, err)
		}
		u.Path = path
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("schedule field \"%s", strings.Replace(err.Error(), ":", "\":", 1))
	}
	if f.Destinations != nil {
		if err := s.sameDestinations(g); err != nil {
			return nil, fmt.Errorf("schedule field \"%s", strings.Replace(err.Error(), ":", "\":", 1))
		}
	}
	return s, nil
}

// parseRouting reads the "routing" field into s: a dimension order (an array) or the
// string "explicit".
func parseRouting(g *topology.Network, raw json.RawMessage, s *Schedule) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	if t[0] == '"' {
		var name string
		if err := json.Unmarshal(t, &name); err != nil || name != "explicit" {
			return fmt.Errorf("%s is neither a dimension order nor \"explicit\"", short(t))
		}
		s.Explicit = true
		return nil
	}
	var order []int
	if err := json.Unmarshal(t, &order); err != nil {
		return fmt.Errorf("%s is neither a dimension order (an array of dimensions) nor \"explicit\"", short(t))
	}
	if order == nil {
		order = []int{}
	}
	if err := (topology.DOR{Grid: g, Order: order}).CheckOrder(); err != nil {
		return err
	}
	s.Routing = order
	return nil
}

// Broadcast returns every node of an n-node network that is not in sources, ascending.
// Cost O(n + len(sources)); sources outside 0..n-1 are ignored.
func Broadcast(n int, sources []topology.NodeID) []topology.NodeID {
	source := make([]bool, n)
	for _, v := range sources {
		if v >= 0 && int(v) < n {
			source[v] = true
		}
	}
	out := make([]topology.NodeID, 0, n)
	for v := topology.NodeID(0); int(v) < n; v++ {
		if !source[v] {
			out = append(out, v)
		}
	}
	return out
}

// parseNode reads a node given as an id or a coordinate array, through the network's
// one node parser (topology.Network.ParseNode: [1,2] is "(1,2)").
func parseNode(g *topology.Network, m json.RawMessage) (topology.NodeID, error) {
	t := bytes.TrimSpace(m)
	if len(t) == 0 {
		return topology.None, fmt.Errorf("node is missing")
	}
	var text string
	if t[0] == '[' {
		var c []int
		if err := json.Unmarshal(t, &c); err != nil {
			return topology.None, fmt.Errorf("node %s is not an array of whole numbers", short(t))
		}
		parts := make([]string, len(c))
		for d, x := range c {
			parts[d] = strconv.Itoa(x)
		}
		text = "(" + strings.Join(parts, ",") + ")"
	} else {
		var id int64
		if err := json.Unmarshal(t, &id); err != nil {
			return topology.None, fmt.Errorf("node %s is neither an id nor a coordinate array", short(t))
		}
		text = strconv.FormatInt(id, 10)
	}
	v, err := g.ParseNode(text)
	if err != nil {
		return topology.None, fmt.Errorf("node %s: %v", short(t), err)
	}
	return v, nil
}

// parsePath turns a node list into channels; consecutive nodes must be neighbours.
func parsePath(g *topology.Network, raw []json.RawMessage, from, to topology.NodeID) ([]topology.ChannelID, error) {
	if len(raw) < 2 {
		return nil, fmt.Errorf("has %d nodes; a path lists at least from and to", len(raw))
	}
	vs := make([]topology.NodeID, len(raw))
	for i, m := range raw {
		v, err := parseNode(g, m)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %v", i, err)
		}
		vs[i] = v
	}
	if vs[0] != from {
		return nil, fmt.Errorf("starts at %s, not at from %s", g.NodeName(vs[0]), g.NodeName(from))
	}
	if vs[len(vs)-1] != to {
		return nil, fmt.Errorf("ends at %s, not at to %s", g.NodeName(vs[len(vs)-1]), g.NodeName(to))
	}
	out := make([]topology.ChannelID, 0, len(vs)-1)
	for i := 1; i < len(vs); i++ {
		c := g.ChannelBetween(vs[i-1], vs[i])
		if c == topology.None {
			return nil, fmt.Errorf("entries %d and %d, %s and %s, are not neighbours", i-1, i, g.NodeName(vs[i-1]), g.NodeName(vs[i]))
		}
		out = append(out, c)
	}
	return out, nil
}

func short(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

func oneLineErr(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// MarshalSchedule writes s in the schedule file format: nodes as coordinate arrays on
// meshes and tori and as ids on hypercubes, every path as its node list. Output is
// deterministic; ParseSchedule(MarshalSchedule(s)) gives back s.
func MarshalSchedule(s *Schedule) ([]byte, error) { return MarshalScheduleStop(s, nil) }

// ErrMarshalStopped is MarshalScheduleStop's error when its stop function ended it.
var ErrMarshalStopped = errors.New("stopped before the schedule file was written")

// marshalEvery is how many unicasts MarshalScheduleStop encodes between two questions to
// its stop function: about ten milliseconds of work.
const marshalEvery = 4096

// MarshalScheduleStop is MarshalSchedule that asks stop (when not nil) every
// marshalEvery unicasts whether to end, and then returns ErrMarshalStopped. It encodes
// the header with an empty unicast list and each unicast apart, at the indentation the
// whole would have: the bytes are MarshalSchedule's (a test compares them with one
// json.MarshalIndent of the whole file).
func MarshalScheduleStop(s *Schedule, stop func() bool) ([]byte, error) {
	f, unicast, err := scheduleFileOf(s)
	if err != nil {
		return nil, err
	}
	head, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, err
	}
	const tail = `"unicasts": null` + "\n}"
	if !bytes.HasSuffix(head, []byte(tail)) {
		return nil, fmt.Errorf("schedule file: unexpected header encoding")
	}
	if len(s.Unicasts) == 0 {
		return append(head[:len(head)-len(tail)], `"unicasts": []`+"\n}"...), nil
	}
	var out bytes.Buffer
	// One allocation of about the file's size: grown by doubling, the buffer would
	// hold its old and new arrays together, up to three times the file.
	out.Grow(len(head) + int(UnicastsFileBytes(s)))
	out.Write(head[:len(head)-len(tail)])
	out.WriteString(`"unicasts": [`)
	for i := range s.Unicasts {
		if stop != nil && i%marshalEvery == marshalEvery-1 && stop() {
			return nil, ErrMarshalStopped
		}
		b, err := json.MarshalIndent(unicast(i), "  ", " ")
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n  ")
		out.Write(b)
	}
	out.WriteString("\n ]\n}")
	return out.Bytes(), nil
}

// UnicastsFileBytes returns about how many bytes the unicasts of s take in its schedule
// file (MarshalSchedule), a little more than they do, without encoding them: so that a
// caller with a memory budget can tell whether the file fits before making it. Every
// node of a unicast (from, to and its path's nodes) is an indented array of coordinates
// on a mesh or torus and an indented number on a hypercube.
func UnicastsFileBytes(s *Schedule) int64 {
	g, err := s.Grid()
	if err != nil {
		return 0
	}
	// A node's line in a path (the deepest): an indented number on a hypercube, else
	// an indented array of indented coordinates.
	perNode := 6 + int64(len(fmt.Sprint(g.Nodes()-1)))
	if g.Kind() != topology.Hypercube {
		perNode = 12
		for d := range g.Dims() {
			perNode += 7 + int64(len(fmt.Sprint(g.Size(d)-1)))
		}
	}
	var n int64
	for i, u := range s.Unicasts {
		// The braces, keys, step, order and group; from, to and the path's nodes.
		n += 84 + int64(len(fmt.Sprint(u.Step))+len(fmt.Sprint(u.Order))) + int64(len(u.Path)+3)*perNode + int64(len(u.VC))*9
		if s.Group != nil {
			n += 16 + int64(len(fmt.Sprint(s.Group[i])))
		}
	}
	return n
}

// scheduleFileOf returns the file form of s without its unicasts, and the file form of
// unicast i.
func scheduleFileOf(s *Schedule) (scheduleFile, func(i int) unicastFile, error) {
	if err := s.Check(); err != nil {
		return scheduleFile{}, nil, err
	}
	g, _ := s.Grid()
	node := func(v topology.NodeID) json.RawMessage {
		if g.Kind() == topology.Hypercube {
			return json.RawMessage(fmt.Sprint(int(v)))
		}
		b, _ := json.Marshal(g.Coords(v))
		return b
	}
	list := func(vs []topology.NodeID) []json.RawMessage {
		out := make([]json.RawMessage, len(vs))
		for i, v := range vs {
			out[i] = node(v)
		}
		return out
	}
	f := scheduleFile{
		Format:       ScheduleFormat,
		Topology:     g.Spec(),
		Ports:        s.Ports.String(),
		Sources:      list(s.Sources),
		Destinations: list(s.Destinations),
	}
	switch {
	case s.Explicit:
		f.Routing = json.RawMessage(`"explicit"`)
	case s.Routing != nil:
		f.Routing, _ = json.Marshal(s.Routing)
	}
	if s.Ties == TiesEither {
		f.Ties = s.Ties.String()
	}
	if f.Destinations == nil {
		f.Destinations = []json.RawMessage{}
	}
	for _, set := range s.GroupDestinations {
		f.GroupDestinations = append(f.GroupDestinations, list(set))
	}
	unicast := func(i int) unicastFile {
		u := s.Unicasts[i]
		uf := unicastFile{From: node(u.From), To: node(u.To), Step: u.Step, Order: u.Order, VC: u.VC}
		if s.Group != nil {
			gr := s.Group[i]
			uf.Group = &gr
		}
		cur := u.From
		uf.Path = []json.RawMessage{node(cur)}
		for _, c := range u.Path {
			cur = g.Channel(c).To
			uf.Path = append(uf.Path, node(cur))
		}
		return uf
	}
	return f, unicast, nil
}
