package routing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/model/topology"
)

// FileFormat is the version tag of routing files: a reader that sees another tag
// refuses the file, since fields may have changed meaning. The limits on routing files
// keep any file from exhausting memory.
const (
	FileFormat = "wormcheck-routing/1"

	MaxFileVCs     = 16
	MaxFileRules   = 1024
	MaxTableRows   = 1 << 16
	MaxFileBytes   = 8 << 20
	maxNameLength  = 64
	localDirection = "local"
)

// File is a routing relation a user writes without Go, as JSON (FileFormat). It has
// one of two forms:
//
// Turn restrictions ("rules"): a header is offered every productive direction (every
// channel that brings it one hop closer to its destination, both ways round a tied
// ring) whose turn is not forbidden at its router and after which the destination can
// still be reached by allowed productive turns (so that the rules alone make a routing
// algorithm, as in Glass & Ni's turn model), on the virtual channels the first
// matching "vc_rules" entry allows (all of 0..vcs-1 if none matches). A turn is "IN->OUT"
// with directions named as DirName does (east, west, north, south on 2-D grids; +x, -x,
// +y, -y, +z, -z, +d4, ... otherwise) and IN "local" for a header at its source. A rule
// applies at the routers its "nodes" selector picks: "column"/"row" "even" or "odd"
// (the parity of coordinate 0 / 1), "at" a list of routers ("(1,2)"); no selector means
// every router.
//
// Explicit table ("table"), for small networks: rows {"router", "in", "in_vc", "dst",
// "out"}; "in" is a direction or "local", "*" (or an omitted field) matches anything,
// and "out" lists outputs "east" or "east.vc1". On an irregular network (any topology
// without dimensions: files, dragonflies, fat-trees, grids with faults) "in" and "out"
// name neighbouring nodes instead of directions: "in": "r3" matches a header that
// arrived on the channel from r3, "out": ["r5", "r7.vc1"] offers the channels to r5 and
// r7; only tables are accepted there. The first matching row gives the
// header's outputs, in the order written; no matching row strands the header (the static
// proof reports it), except on a network with terminals, where a terminal leaves on its
// one channel and a header at its destination's router on the channel to it (any VC):
// a table needs rows for routers only.
//
// Both forms may name "escape_vcs", the virtual channels of an escape subfunction
// (Duato), and "topology", the grid the file is written for. docs/routing-files.md
// documents the format with worked examples, each decided by a test.
//
//	{"format": "wormcheck-routing/1", "name": "my-west-first", "topology": "mesh:4x4",
//	 "rules": [{"forbid": ["north->west", "south->west"]}]}
type File struct {
	Format    string     `json:"format"`
	Name      string     `json:"name"`
	Topology  string     `json:"topology,omitempty"`
	NumVCs    int        `json:"vcs,omitempty"`
	EscapeVCs []int      `json:"escape_vcs,omitempty"`
	Rules     []Rule     `json:"rules,omitempty"`
	VCRules   []VCRule   `json:"vc_rules,omitempty"`
	Table     []TableRow `json:"table,omitempty"`
}

// MarshalJSON writes the file as ParseFile reads it back. An empty "rules" list is
// kept: it is a form of its own (every productive turn), and omitting it would leave a
// file with neither rules nor a table, which ParseFile refuses.
func (f File) MarshalJSON() ([]byte, error) {
	type plain File
	out := struct {
		plain
		Rules *[]Rule `json:"rules,omitempty"`
	}{plain: plain(f)}
	if f.Rules != nil {
		out.Rules = &f.Rules
	}
	return json.Marshal(out)
}

// Nodes selects routers; an empty selector selects every router.
type Nodes struct {
	Column string   `json:"column,omitempty"`
	Row    string   `json:"row,omitempty"`
	At     []string `json:"at,omitempty"`
}

// Rule forbids turns at the routers Nodes selects.
type Rule struct {
	Nodes  Nodes    `json:"nodes"`
	Forbid []string `json:"forbid"`
}

// VCRule says on which virtual channels a header may leave in direction Out ("*" or
// omitted: any) having arrived from In ("local", a direction, "*" or omitted) on InVC
// (nil: any), at the routers Nodes selects.
type VCRule struct {
	Nodes Nodes  `json:"nodes"`
	In    string `json:"in,omitempty"`
	InVC  *int   `json:"in_vc,omitempty"`
	Out   string `json:"out,omitempty"`
	VCs   []int  `json:"vcs"`
}

// TableRow is one row of an explicit routing table.
type TableRow struct {
	Router string   `json:"router"`
	In     string   `json:"in,omitempty"`
	InVC   *int     `json:"in_vc,omitempty"`
	Dst    string   `json:"dst,omitempty"`
	Out    []string `json:"out"`
}

// dirLocal is the input direction of a header at its source; dirAny matches any.
const (
	dirLocal = -1
	dirAny   = -2
)

// selector is a parsed Nodes.
type selector struct {
	col, row int // -1 any, 0 even, 1 odd
	at       []bool
}

func (s *selector) matches(m *geom, v topology.NodeID) bool {
	if s.col >= 0 && m.at(v, 0)%2 != s.col {
		return false
	}
	if s.row >= 0 && (m.dims < 2 || m.at(v, 1)%2 != s.row) {
		return false
	}
	return s.at == nil || s.at[v]
}

type fileRule struct {
	sel    selector
	forbid [][2]int // (in port or dirLocal, out port)
}

type fileVCRule struct {
	sel  selector
	in   int // port, dirLocal or dirAny
	inVC int // -1 any
	out  int // port or dirAny
	vcs  []int
}

type fileRow struct {
	router topology.NodeID
	in     int             // port, dirLocal or dirAny
	inVC   int             // -1 any
	dst    topology.NodeID // topology.None: any
	out    []Output
}

// FileRelation is the relation a routing file states; ParseFile builds it.
type FileRelation struct {
	name     string
	m        geom
	vcs      int
	rules    []fileRule
	vcRules  []fileVCRule
	table    []fileRow
	byRouter [][]int // table rows per router, in file order
	// viable[(dst*nodes+v)*(ports+1)+in] (bit set): a header at v that arrived
	// through port in (ports: at its source) can still reach dst by allowed productive
	// turns. Turn-rule relations offer only viable outputs.
	viable []uint64
	ports  int
	// forbidden[(v*(ports+1)+in)*ports+out] (bit set): a rule forbids the turn in->out
	// at router v (in = ports: at its source).
	forbidden []uint64
	// source is the file as JSON (re-encoded from what was parsed), so that a saved
	// trace can carry the relation it was found with.
	source json.RawMessage
}

// escapingFile is a FileRelation with an escape subfunction.
type escapingFile struct {
	*FileRelation
	escape []bool
}

// Escape reports whether o's VC is one of the file's escape_vcs.
func (e escapingFile) Escape(_ Header, o Output) bool { return e.escape[o.VC] }

// ParseFile reads a routing file. g is the topology to route on; when g is nil the
// file's "topology" is used. Errors are one line naming the field.
func ParseFile(data []byte, g *topology.Network) (Relation, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("routing file: %d bytes; at most %d", len(data), MaxFileBytes)
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(input.TrimBOM(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("routing file: %s", jsonError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("routing file: text after the JSON object")
	}
	return f.Relation(g)
}

// jsonError words a decoding error with the field it concerns.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s: expected %s, got JSON %s", te.Field, te.Type, te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "not JSON: the object is not closed"
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not JSON at byte %d: %v", se.Offset, err)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// Relation checks f against g (or f.Topology when g is nil) and builds its relation.
func (f *File) Relation(g *topology.Network) (Relation, error) {
	if f.Format != FileFormat {
		return nil, fmt.Errorf("routing file: format is %q; this wormcheck reads %q", f.Format, FileFormat)
	}
	if f.Name == "" || len(f.Name) > maxNameLength || strings.ContainsAny(f.Name, " \t\n\"") {
		return nil, fmt.Errorf("routing file: name %q must be 1..%d characters without spaces or quotes", f.Name, maxNameLength)
	}
	if f.Topology != "" {
		fg, err := topology.Parse(f.Topology)
		if err != nil {
			return nil, fmt.Errorf("routing file: topology: %v", err)
		}
		if g == nil {
			g = fg
		} else if g.Spec() != fg.Spec() {
			return nil, fmt.Errorf("routing file: topology: the file is written for %s, not %s", fg.Spec(), g.Spec())
		}
	}
	if g == nil {
		return nil, errors.New("routing file: topology: missing (give it in the file, or a network to File.Relation)")
	}
	r := &FileRelation{name: f.Name, m: newGeom(g), vcs: f.NumVCs}
	r.source, _ = json.Marshal(f)
	if r.vcs == 0 {
		r.vcs = 1
	}
	if r.vcs < 1 || r.vcs > MaxFileVCs {
		return nil, fmt.Errorf("routing file: vcs: %d; it must be 1..%d", f.NumVCs, MaxFileVCs)
	}
	p := fileParser{g: g, r: r}
	if g.IsGraph() && (len(f.Rules) > 0 || len(f.VCRules) > 0 || f.Table == nil) {
		return nil, fmt.Errorf("routing file: rules: turn rules need a mesh, torus or hypercube; on %s give a table whose \"in\" and \"out\" name neighbouring nodes", g.Spec())
	}
	if len(f.Table) > 0 && (len(f.Rules) > 0 || len(f.VCRules) > 0) {
		return nil, errors.New("routing file: table: a file has either a table or rules/vc_rules, not both")
	}
	if f.Table == nil && g.Nodes() > maxLookaheadNodes {
		// Before the rules are read: each rule's selector takes a flag per router.
		return nil, lookaheadTooLarge(g)
	}
	if len(f.Rules) > MaxFileRules || len(f.VCRules) > MaxFileRules || len(f.Table) > MaxTableRows {
		return nil, fmt.Errorf("routing file: rules: at most %d rules, %d vc_rules and %d table rows", MaxFileRules, MaxFileRules, MaxTableRows)
	}
	if err := p.rules(f.Rules); err != nil {
		return nil, err
	}
	if err := p.vcRules(f.VCRules); err != nil {
		return nil, err
	}
	if err := p.table(f.Table); err != nil {
		return nil, err
	}
	if f.Table == nil && f.Rules == nil && f.VCRules == nil {
		return nil, errors.New("routing file: rules: the file has neither rules nor a table (\"rules\": [] allows every productive turn)")
	}
	if r.table == nil {
		if err := r.computeViable(); err != nil {
			return nil, err
		}
	}
	if len(f.EscapeVCs) == 0 {
		return r, nil
	}
	esc := make([]bool, r.vcs)
	for j, v := range f.EscapeVCs {
		if v < 0 || v >= r.vcs {
			return nil, fmt.Errorf("routing file: escape_vcs[%d]: %d; VCs are 0..%d", j, v, r.vcs-1)
		}
		esc[v] = true
	}
	return escapingFile{FileRelation: r, escape: esc}, nil
}

// rules reads the file's turn rules into p.r.
func (p *fileParser) rules(rules []Rule) error {
	r := p.r
	for i, ru := range rules {
		field := fmt.Sprintf("rules[%d]", i)
		sel, err := p.selector(field+".nodes", ru.Nodes)
		if err != nil {
			return err
		}
		fr := fileRule{sel: sel}
		for j, t := range ru.Forbid {
			in, out, err := p.turn(fmt.Sprintf("%s.forbid[%d]", field, j), t)
			if err != nil {
				return err
			}
			fr.forbid = append(fr.forbid, [2]int{in, out})
		}
		r.rules = append(r.rules, fr)
	}
	return nil
}

// vcRules reads the file's VC rules into p.r.
func (p *fileParser) vcRules(vcRules []VCRule) error {
	r := p.r
	for i, vr := range vcRules {
		field := fmt.Sprintf("vc_rules[%d]", i)
		sel, err := p.selector(field+".nodes", vr.Nodes)
		if err != nil {
			return err
		}
		fv := fileVCRule{sel: sel, inVC: -1}
		if fv.in, err = p.dir(field+".in", vr.In, true, true); err != nil {
			return err
		}
		if fv.out, err = p.dir(field+".out", vr.Out, false, true); err != nil {
			return err
		}
		if vr.InVC != nil {
			if *vr.InVC < 0 || *vr.InVC >= r.vcs {
				return fmt.Errorf("routing file: %s.in_vc: %d; VCs are 0..%d", field, *vr.InVC, r.vcs-1)
			}
			fv.inVC = *vr.InVC
		}
		if len(vr.VCs) == 0 {
			return fmt.Errorf("routing file: %s.vcs: empty; list the VCs a header may take", field)
		}
		for j, v := range vr.VCs {
			if v < 0 || v >= r.vcs {
				return fmt.Errorf("routing file: %s.vcs[%d]: %d; VCs are 0..%d", field, j, v, r.vcs-1)
			}
		}
		fv.vcs = slices.Clone(vr.VCs)
		r.vcRules = append(r.vcRules, fv)
	}
	return nil
}

// table reads the file's routing table into p.r, indexed by router.
func (p *fileParser) table(table []TableRow) error {
	r, g := p.r, p.g
	if len(table) > 0 {
		r.byRouter = make([][]int, g.Nodes())
	}
	for i, row := range table {
		field := fmt.Sprintf("table[%d]", i)
		fr := fileRow{inVC: -1, dst: topology.None}
		var err error
		if fr.router, err = p.node(field+".router", row.Router, false); err != nil {
			return err
		}
		if g.IsGraph() {
			fr.in, err = p.inChannel(field+".in", fr.router, row.In)
		} else {
			fr.in, err = p.dir(field+".in", row.In, true, true)
		}
		if err != nil {
			return err
		}
		if fr.in >= 0 && !g.IsGraph() && r.m.g.ChannelOut(fr.router, fr.in/2, topology.Direction(1-fr.in%2)) == topology.None {
			return fmt.Errorf("routing file: %s.in: no channel arrives at %s from the %s", field, row.Router, row.In)
		}
		if row.InVC != nil {
			if *row.InVC < 0 || *row.InVC >= r.vcs {
				return fmt.Errorf("routing file: %s.in_vc: %d; VCs are 0..%d", field, *row.InVC, r.vcs-1)
			}
			fr.inVC = *row.InVC
		}
		if fr.dst, err = p.node(field+".dst", row.Dst, true); err != nil {
			return err
		}
		if fr.dst == fr.router {
			return fmt.Errorf("routing file: %s.dst: the router is the destination; a header there is delivered", field)
		}
		for j, o := range row.Out {
			out, err := p.output(fmt.Sprintf("%s.out[%d]", field, j), fr.router, o)
			if err != nil {
				return err
			}
			fr.out = append(fr.out, out)
		}
		r.byRouter[fr.router] = append(r.byRouter[fr.router], len(r.table))
		r.table = append(r.table, fr)
	}
	return nil
}

// fileParser resolves the names a routing file uses on its network.
type fileParser struct {
	g *topology.Network
	r *FileRelation
}

// node resolves a router's name as NodeName writes it (topology.Network.NodeByName;
// spaces are ignored); with wildcard, "" and "*" give topology.None.
func (p *fileParser) node(field, name string, wildcard bool) (topology.NodeID, error) {
	if wildcard && (name == "" || name == "*") {
		return topology.None, nil
	}
	v, ok := p.g.NodeByName(strings.ReplaceAll(name, " ", ""))
	if !ok {
		return 0, fmt.Errorf("routing file: %s: %q is not a router of %s (write it like %q)", field, name, p.g.Spec(), p.g.NodeName(0))
	}
	return v, nil
}

// dir parses a direction into a port (dim*2+dir), dirLocal or dirAny.
func (p *fileParser) dir(field, name string, local, wildcard bool) (int, error) {
	if wildcard && (name == "" || name == "*") {
		return dirAny, nil
	}
	if local && name == localDirection {
		return dirLocal, nil
	}
	for d := 0; d < p.g.Dims(); d++ {
		for dir := topology.Plus; dir <= topology.Minus; dir++ {
			if DirName(p.g, d, dir) == name {
				return d*2 + int(dir), nil
			}
		}
	}
	return 0, fmt.Errorf("routing file: %s: %q is not a direction of %s (%s)", field, name, p.g.Spec(), strings.Join(p.dirNames(local), ", "))
}

func (p *fileParser) dirNames(local bool) []string {
	var out []string
	if local {
		out = append(out, localDirection)
	}
	for d := 0; d < p.g.Dims(); d++ {
		out = append(out, DirName(p.g, d, topology.Plus), DirName(p.g, d, topology.Minus))
	}
	return out
}

func (p *fileParser) turn(field, t string) (int, int, error) {
	a, b, ok := strings.Cut(t, "->")
	if !ok {
		return 0, 0, fmt.Errorf("routing file: %s: %q is not a turn; write it like \"north->west\"", field, t)
	}
	in, err := p.dir(field, strings.TrimSpace(a), true, false)
	if err != nil {
		return 0, 0, err
	}
	out, err := p.dir(field, strings.TrimSpace(b), false, false)
	return in, out, err
}

func (p *fileParser) selector(field string, n Nodes) (selector, error) {
	s := selector{col: -1, row: -1}
	parity := func(f, v string) (int, error) {
		switch v {
		case "", "any":
			return -1, nil
		case "even":
			return 0, nil
		case "odd":
			return 1, nil
		}
		return 0, fmt.Errorf("routing file: %s.%s: %q; write \"even\" or \"odd\"", field, f, v)
	}
	var err error
	if s.col, err = parity("column", n.Column); err != nil {
		return s, err
	}
	if s.row, err = parity("row", n.Row); err != nil {
		return s, err
	}
	if s.row >= 0 && p.g.Dims() < 2 {
		return s, fmt.Errorf("routing file: %s.row: %s has no rows", field, p.g.Spec())
	}
	if len(n.At) > 0 {
		s.at = make([]bool, p.g.Nodes())
		for i, a := range n.At {
			v, err := p.node(fmt.Sprintf("%s.at[%d]", field, i), a, false)
			if err != nil {
				return s, err
			}
			s.at[v] = true
		}
	}
	return s, nil
}

func (p *fileParser) output(field string, router topology.NodeID, o string) (Output, error) {
	name, vcs, hasVC := o, "", false
	if i := strings.LastIndex(o, ".vc"); i >= 0 {
		name, vcs, hasVC = o[:i], o[i+3:], true
	}
	port := 0
	if !p.g.IsGraph() {
		var err error
		if port, err = p.dir(field, name, false, false); err != nil {
			return Output{}, err
		}
	}
	vc := 0
	if hasVC {
		if _, err := fmt.Sscanf(vcs, "%d", &vc); err != nil || fmt.Sprint(vc) != vcs || vc < 0 || vc >= p.r.vcs {
			return Output{}, fmt.Errorf("routing file: %s: %q: VC %q; VCs are 0..%d", field, o, vcs, p.r.vcs-1)
		}
	}
	if p.g.IsGraph() {
		to, err := p.node(field, name, false)
		if err != nil {
			return Output{}, err
		}
		c := p.g.ChannelBetween(router, to)
		if c == topology.None {
			return Output{}, fmt.Errorf("routing file: %s: %s has no channel to %s", field, p.g.NodeName(router), name)
		}
		return Output{Channel: c, VC: vc}, nil
	}
	c := p.g.ChannelOut(router, port/2, topology.Direction(port%2))
	if c == topology.None {
		return Output{}, fmt.Errorf("routing file: %s: %s has no channel going %s", field, p.g.NodeName(router), name)
	}
	return Output{Channel: c, VC: vc}, nil
}

// inChannel parses a table row's "in" on a graph: "local", "*" (or omitted), or the
// neighbour the header arrived from, as the channel from it into router.
func (p *fileParser) inChannel(field string, router topology.NodeID, name string) (int, error) {
	switch name {
	case "", "*":
		return dirAny, nil
	case localDirection:
		return dirLocal, nil
	}
	from, err := p.node(field, name, false)
	if err != nil {
		return 0, err
	}
	c := p.g.ChannelBetween(from, router)
	if c == topology.None {
		return 0, fmt.Errorf("routing file: %s: no channel arrives at %s from %s", field, p.g.NodeName(router), name)
	}
	return int(c), nil
}

// Name returns the file's name.
func (r *FileRelation) Name() string { return r.name }

// Source returns the routing file as JSON, as a saved trace carries it.
func (r *FileRelation) Source() json.RawMessage { return r.source }

// Grid returns the relation's topology.
func (r *FileRelation) Grid() *topology.Network { return r.m.g }

// VCs returns the file's vcs (default 1).
func (r *FileRelation) VCs() int { return r.vcs }

// inPort returns the port a header arrived through at its router (the direction of its
// input channel), or dirLocal at its source.
func (r *FileRelation) inPort(h Header) int {
	if h.In.Channel == Injection {
		return dirLocal
	}
	if r.m.g.IsGraph() {
		return int(h.In.Channel)
	}
	ch := r.m.g.Channel(h.In.Channel)
	return ch.Dim*2 + int(ch.Dir)
}

// Route appends the outputs of the first matching table row, or the productive
// directions the turn rules allow on the VCs the VC rules give. Cost O(rules) or
// O(rows at the router).
func (r *FileRelation) Route(h Header, out []Output) []Output {
	in := r.inPort(h)
	if r.table != nil {
		for _, i := range r.byRouter[h.At] {
			row := &r.table[i]
			if (row.in == dirAny || row.in == in) && (row.inVC < 0 || (in != dirLocal && row.inVC == h.In.VC)) &&
				(row.dst == topology.None || row.dst == h.Dst) {
				return append(out, row.out...)
			}
		}
		return r.terminalHop(h, out)
	}
	m := &r.m
	for d := 0; d < m.dims; d++ {
		n, dir, tie := m.offset(h.At, h.Dst, d)
		if n == 0 {
			continue
		}
		out = r.offer(h, in, d*2+int(dir), out)
		if tie {
			out = r.offer(h, in, d*2+int(topology.Minus), out)
		}
	}
	return out
}

// terminalHop appends, for a header no table row matches, the one way a network with
// terminals leaves it: from a terminal (its source) the channel to its router, on any
// VC; at its destination terminal's router the channel to the terminal, on any VC. A
// table then needs rows for its routers only; a row that matches still decides.
func (r *FileRelation) terminalHop(h Header, out []Output) []Output {
	g := r.m.g
	var c topology.ChannelID = topology.None
	switch {
	case g.Terminal(h.At):
		var buf [2]topology.ChannelID
		if outs := g.AppendOut(buf[:0], h.At); len(outs) == 1 {
			c = outs[0]
		}
	case g.Terminal(h.Dst):
		c = g.ChannelBetween(h.At, h.Dst)
	}
	if c == topology.None {
		return out
	}
	return vcRange(out, c, 0, r.vcs-1)
}

// maxLookaheadNodes bounds the grids a turn-rule routing file can be used on: its
// viability table has nodes^2 x (ports+1) bits.
const maxLookaheadNodes = 4096

// allowed reports whether no rule at v forbids the turn in->port.
func (r *FileRelation) allowed(v topology.NodeID, in, port int) bool {
	if in == dirLocal {
		in = r.ports
	}
	i := (int(v)*(r.ports+1)+in)*r.ports + port
	return r.forbidden[i/64]&(1<<(i%64)) == 0
}

// computeForbidden fills the table of turns the rules forbid: every rule once, at
// every router its selector matches. Cost O(rules x routers x turns named), so that
// asking whether a turn is allowed no longer scans the rules (computeViable asks
// O(routers^2 x ports^2) times: 400 rules on a 32x32 mesh took 18 s).
func (r *FileRelation) computeForbidden() {
	n, w := r.m.g.Nodes(), r.ports+1
	r.forbidden = make([]uint64, (n*w*r.ports+63)/64)
	for k := range r.rules {
		ru := &r.rules[k]
		for v := topology.NodeID(0); int(v) < n; v++ {
			if !ru.sel.matches(&r.m, v) {
				continue
			}
			for _, t := range ru.forbid {
				in := t[0]
				if in == dirLocal {
					in = r.ports
				}
				if in < 0 || in > r.ports || t[1] < 0 || t[1] >= r.ports {
					continue // a port the network does not have: no turn to forbid
				}
				i := (int(v)*w+in)*r.ports + t[1]
				r.forbidden[i/64] |= 1 << (i % 64)
			}
		}
	}
}

// allowedByRules is allowed by scanning the rules: the twin computeForbidden's table is
// checked against.
func (r *FileRelation) allowedByRules(v topology.NodeID, in, port int) bool {
	for k := range r.rules {
		ru := &r.rules[k]
		if !ru.sel.matches(&r.m, v) {
			continue
		}
		for _, t := range ru.forbid {
			if t[0] == in && t[1] == port {
				return false
			}
		}
	}
	return true
}

func (r *FileRelation) viableAt(v topology.NodeID, in int, dst topology.NodeID) bool {
	if in == dirLocal {
		in = r.ports
	}
	i := (int(dst)*r.m.g.Nodes()+int(v))*(r.ports+1) + in
	return r.viable[i/64]&(1<<(i%64)) != 0
}

// computeViable fills the viability table: for each destination, nodes in order of
// increasing distance, a header at v arrived through in is viable if v is the
// destination or some productive port p with an allowed turn in->p leads to a viable
// (next node, p). This is how the turn model turns restrictions into a routing
// algorithm (Glass & Ni: west-first routes west first because no turn into west is left
// later). Cost O(nodes^2 x ports^2).
func lookaheadTooLarge(g *topology.Network) error {
	return fmt.Errorf("routing file: topology: turn rules are supported on grids of at most %d routers; %s has %d (use a table or a built-in)", maxLookaheadNodes, g.Spec(), g.Nodes())
}

func (r *FileRelation) computeViable() error {
	g := r.m.g
	n := g.Nodes()
	if n > maxLookaheadNodes {
		return lookaheadTooLarge(g)
	}
	r.ports = 2 * g.Dims()
	r.computeForbidden()
	w := r.ports + 1
	r.viable = make([]uint64, (n*n*w+63)/64)
	byDist := make([][]topology.NodeID, 0)
	for d := topology.NodeID(0); int(d) < n; d++ {
		byDist = byDist[:0]
		for v := topology.NodeID(0); int(v) < n; v++ {
			k := g.Distance(v, d)
			for len(byDist) <= k {
				byDist = append(byDist, nil)
			}
			byDist[k] = append(byDist[k], v)
		}
		set := func(v topology.NodeID, in int) {
			i := (int(d)*n+int(v))*w + in
			r.viable[i/64] |= 1 << (i % 64)
		}
		for in := 0; in < w; in++ {
			set(d, in)
		}
		for k := 1; k < len(byDist); k++ {
			for _, v := range byDist[k] {
				for in := 0; in < w; in++ {
					inPort := in
					if in == r.ports {
						inPort = dirLocal
					}
					ok := false
					for dim := 0; dim < r.m.dims && !ok; dim++ {
						hops, dir, tie := r.m.offset(v, d, dim)
						if hops == 0 {
							continue
						}
						for _, dr := range [2]topology.Direction{dir, topology.Minus} {
							p := dim*2 + int(dr)
							if r.allowed(v, inPort, p) && r.viableAt(g.Channel(r.m.out(v, dim, dr)).To, p, d) {
								ok = true
								break
							}
							if !tie {
								break
							}
						}
					}
					if ok {
						set(v, in)
					}
				}
			}
		}
	}
	return nil
}

// offer appends port's outputs unless a rule at h.At forbids the turn in->port or the
// destination cannot be reached after it.
func (r *FileRelation) offer(h Header, in, port int, out []Output) []Output {
	m := &r.m
	c := m.out(h.At, port/2, topology.Direction(port%2))
	if !r.allowed(h.At, in, port) || !r.viableAt(m.g.Channel(c).To, port, h.Dst) {
		return out
	}
	for k := range r.vcRules {
		vr := &r.vcRules[k]
		if (vr.in == dirAny || vr.in == in) && (vr.inVC < 0 || (in != dirLocal && vr.inVC == h.In.VC)) &&
			(vr.out == dirAny || vr.out == port) && vr.sel.matches(m, h.At) {
			for _, vc := range vr.vcs {
				out = append(out, Output{Channel: c, VC: vc})
			}
			return out
		}
	}
	for vc := 0; vc < r.vcs; vc++ {
		out = append(out, Output{Channel: c, VC: vc})
	}
	return out
}
