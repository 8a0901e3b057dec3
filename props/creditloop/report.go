package creditloop

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
)

// Algorithm is the name saved traces of a fabric deadlock carry (tracefile.File's
// algorithm), by which replay finds the model.
const Algorithm = "fabric"

// Report is the output of `wormcheck fabric`: the report fields (verdict, stats,
// witness: the trace of the first reachable deadlock) and, under "fabric", what the
// analysis found. Its JSON is the --json object (docs/report.md).
type Report struct {
	props.Report
	Fabric *FabricReport `json:"fabric"`

	analysis *Analysis
	faulted  *Analysis
}

// FabricReport is the "fabric" object of the JSON report.
type FabricReport struct {
	Format   string       `json:"format"`
	Routed   string       `json:"routed_by"`
	Switches int          `json:"switches"`
	CAs      int          `json:"cas"`
	Links    int          `json:"links"`
	Sizes    Sizes        `json:"sizes"`
	Routes   RoutesReport `json:"routes"`
	Graph    GraphReport  `json:"graph"`
	Loops    []LoopReport `json:"loops"`
	Faults   *FaultReport `json:"faults,omitempty"`
}

// Sizes are the sizes a verdict is for.
type Sizes struct {
	MTU              int `json:"mtu_bytes"`
	PacketCredits    int `json:"packet_credits"`
	BufferCredits    int `json:"buffer_credits"`
	PacketsPerBuffer int `json:"packets_per_buffer"`
}

// RoutesReport is the path reconstruction: every route, how many are delivered, their
// hop histogram (hops: channels taken), the lost ones by how they end, and the first
// lost ones named.
type RoutesReport struct {
	Scope     string           `json:"scope"`
	Routes    int64            `json:"routes"`
	Delivered int64            `json:"delivered"`
	Hops      map[string]int64 `json:"hops"`
	Lost      map[string]int64 `json:"lost"`
	Errors    []RouteError     `json:"errors"`
}

// RouteError is one lost route: its source, destination, how it ends and where.
type RouteError struct {
	Src  string `json:"src"`
	DLID int    `json:"dlid"`
	Dst  string `json:"dst"`
	End  string `json:"end"`
	At   string `json:"at"`
	Port int    `json:"port"`
}

// GraphReport gives the dependency graph's size.
type GraphReport struct {
	Channels     int `json:"channels"`
	Dependencies int `json:"dependencies"`
	CreditLoops  int `json:"credit_loops"`
}

// ChannelRef names a channel as ibdmchk does: the node that drives the link (GUID and
// description), its port and the VL.
type ChannelRef struct {
	Kind string `json:"kind"`
	GUID string `json:"guid"`
	Desc string `json:"desc"`
	Port int    `json:"port"`
	VL   int    `json:"vl"`
}

// LoopReport is one credit loop and its verdict.
type LoopReport struct {
	Channels int          `json:"channels"`
	Cycle    []ChannelRef `json:"cycle"`
	Shortest bool         `json:"cycle_is_shortest"`
	Verdict  string       `json:"verdict"`
	Reason   string       `json:"reason"`
	How      string       `json:"how,omitempty"`
	// Deadlock is the deadlock's cycle of full buffers (violated), Minimal whether no
	// deadlock of the loop has fewer packets, Packets and Steps its size.
	Deadlock []ChannelRef `json:"deadlock,omitempty"`
	Minimal  bool         `json:"minimal,omitempty"`
	Packets  int          `json:"packets,omitempty"`
	Steps    int          `json:"steps,omitempty"`
	States   int64        `json:"states,omitempty"`
}

// FaultReport compares the fabric with and without failed links.
type FaultReport struct {
	Links        []string `json:"links"`
	Rerouted     bool     `json:"rerouted"`
	LostBefore   int64    `json:"lost_before"`
	LostAfter    int64    `json:"lost_after"`
	LoopsBefore  int      `json:"loops_before"`
	LoopsAfter   int      `json:"loops_after"`
	NewLoops     []int    `json:"new_loops"`
	VanishedLoop []int    `json:"vanished_loops"`
}

// Meta says what was read and how it was routed, for the report.
type Meta struct {
	File   string
	Format string
	Routed string // "the dumped tables", "wormcheck as minhop", ...
	MTU    int
	Params map[string]any
}

// NewReport builds the report of an analysis (and, with faults, of the faulted fabric
// beside it, whose verdict is then the report's).
func NewReport(a *Analysis, meta Meta, faulted *Analysis, faults []string) *Report {
	main := a
	if faulted != nil {
		main = faulted
	}
	r := &Report{analysis: a, faulted: faulted}
	r.Schema, r.Command = props.ReportSchema, Algorithm
	r.Instance = props.Instance{Topology: meta.File, Algorithm: Algorithm, Params: meta.Params}
	r.Property, r.Semantics = checker.PropDeadlock, props.SemVCT
	r.Verdict = main.Verdict()
	r.Stats = props.Stats{Checked: main.Pairs.Pairs, Unit: "routes", Seconds: a.Seconds}
	if faulted != nil {
		r.Stats.Seconds += faulted.Seconds
	}
	f := main.Fabric
	fr := &FabricReport{Format: meta.Format, Routed: meta.Routed, Links: len(f.Links()), Loops: []LoopReport{},
		Sizes: Sizes{MTU: meta.MTU, PacketCredits: main.opt.Packet, BufferCredits: main.opt.Buffer, PacketsPerBuffer: main.k}}
	for _, n := range f.Nodes {
		if n.Kind == fabric.Switch {
			fr.Switches++
		} else {
			fr.CAs++
		}
	}
	fr.Routes = routesReport(main)
	fr.Graph = GraphReport{Channels: main.UsedChannels, Dependencies: main.Arcs, CreditLoops: len(main.Loops)}
	for i := range main.Loops {
		fr.Loops = append(fr.Loops, main.loopReport(&main.Loops[i]))
	}
	if faulted != nil {
		fr.Faults = faultReport(a, faulted, faults, meta.Routed)
	}
	r.Fabric = fr
	r.Reason = main.reason()
	var ev *props.FabricEvidence
	r.Witness, r.Trace, ev = main.witness(meta)
	r.Evidence = ev
	return r
}

func routesReport(a *Analysis) RoutesReport {
	rr := RoutesReport{Scope: "CA to CA", Routes: a.Pairs.Pairs, Delivered: a.Pairs.Delivered, Hops: map[string]int64{}, Lost: a.Pairs.Lost, Errors: []RouteError{}}
	if a.opt.All {
		rr.Scope = "all: CAs and switches"
	}
	for h, n := range a.Pairs.Hops {
		if n > 0 {
			rr.Hops[fmt.Sprint(h)] = n
		}
	}
	f := a.Fabric
	for _, e := range a.Pairs.Errors {
		re := RouteError{Src: f.PortName(e.Src), DLID: int(e.DLID), End: e.Path.End.String(), Port: int(e.Path.AtPort)}
		if o := f.Owner(e.DLID); o.Valid() {
			re.Dst = f.PortName(o)
		}
		if e.Path.At >= 0 && int(e.Path.At) < len(f.Nodes) {
			re.At = f.NodeName(e.Path.At)
		}
		if e.Path.AtPort == fabric.NoPort {
			re.Port = -1
		}
		rr.Errors = append(rr.Errors, re)
	}
	return rr
}

func (a *Analysis) channelRef(id int32) ChannelRef {
	h := a.Channels.Hop(id)
	n := &a.Fabric.Nodes[h.Node]
	return ChannelRef{Kind: n.Kind.String(), GUID: fmt.Sprintf("0x%016x", n.GUID), Desc: n.Desc, Port: int(h.Port), VL: int(h.VL)}
}

func (a *Analysis) refs(ids []int32) []ChannelRef {
	out := []ChannelRef{}
	for _, id := range ids {
		out = append(out, a.channelRef(id))
	}
	return out
}

func (a *Analysis) loopReport(l *Loop) LoopReport {
	d := &l.Decision
	lr := LoopReport{Channels: len(l.Channels), Cycle: a.refs(l.Cycle), Shortest: l.Shortest, Verdict: d.Verdict.String(), Reason: d.Reason, How: d.How, States: d.States}
	if d.Verdict == props.Violated {
		lr.Deadlock, lr.Minimal, lr.Packets, lr.Steps = a.refs(d.Cycle), d.Minimal, len(d.Stuck), len(d.Actions)
	}
	return lr
}

func faultReport(a, b *Analysis, links []string, routed string) *FaultReport {
	fr := &FaultReport{Links: links, Rerouted: !strings.Contains(routed, "dump"), LostBefore: a.Pairs.Pairs - a.Pairs.Delivered,
		LostAfter: b.Pairs.Pairs - b.Pairs.Delivered, LoopsBefore: len(a.Loops), LoopsAfter: len(b.Loops), NewLoops: []int{}, VanishedLoop: []int{}}
	key := func(x *Analysis, l *Loop) string {
		var names []string
		for _, id := range l.Channels {
			names = append(names, x.ChannelName(id))
		}
		slices.Sort(names)
		return strings.Join(names, "|")
	}
	before, after := map[string]bool{}, map[string]bool{}
	for i := range a.Loops {
		before[key(a, &a.Loops[i])] = true
	}
	for i := range b.Loops {
		k := key(b, &b.Loops[i])
		after[k] = true
		if !before[k] {
			fr.NewLoops = append(fr.NewLoops, i+1)
		}
	}
	for i := range a.Loops {
		if !after[key(a, &a.Loops[i])] {
			fr.VanishedLoop = append(fr.VanishedLoop, i+1)
		}
	}
	return fr
}

// reason is the report's one-line reason.
func (a *Analysis) reason() string {
	lost := a.Pairs.Pairs - a.Pairs.Delivered
	var dead, open int
	for _, l := range a.Loops {
		switch l.Decision.Verdict {
		case props.Violated:
			dead++
		case props.Inconclusive:
			open++
		}
	}
	var s string
	switch {
	case len(a.Loops) == 0:
		s = "no credit loop: the (port, VL) dependency graph is acyclic, so no deadlock"
	case dead > 0:
		s = fmt.Sprintf("%d of %s %s at these sizes", dead, plural(len(a.Loops), "credit loop"), agree(dead, "deadlocks", "deadlock"))
	case open > 0:
		s = fmt.Sprintf("%d of %s %s undecided (a bound was reached)", open, plural(len(a.Loops), "credit loop"), agree(open, "is", "are"))
	default:
		s = fmt.Sprintf("%s, none of which can fill at these sizes", plural(len(a.Loops), "credit loop"))
	}
	if lost > 0 {
		s += fmt.Sprintf("; %d of %d routes are lost", lost, a.Pairs.Pairs)
	}
	return s
}

// witness returns the evidence of the first reachable deadlock: its trace as the
// report's witness and as a saved trace for replay, and the fabric with the loop and
// the run as the evidence a picture, capture or explorer scene is made of. Without a
// deadlock the evidence is the fabric with its first credit loop, or alone.
func (a *Analysis) witness(meta Meta) (*props.Witness, *tracefile.File, *props.FabricEvidence) {
	ev := &props.FabricEvidence{Fabric: a.Fabric, Title: fmt.Sprintf("%s: %s", meta.File, a.reason()), Subtitle: meta.Routed}
	for i := range a.Loops {
		l := &a.Loops[i]
		d := &l.Decision
		if d.Verdict != props.Violated {
			continue
		}
		m, _, err := d.Instance.Build()
		if err != nil {
			break
		}
		tr, err := checker.Replay[vct.State](m, 0, d.Actions)
		if err != nil {
			break
		}
		violation := fmt.Sprintf("deadlock: credit loop %d, %d packets stand still forever in %d full buffers: %s", i+1, len(d.Stuck), len(d.Cycle), strings.Join(a.namesOf(d.Cycle), " -> "))
		tf, err := SaveTrace(d.Instance, m, tr, meta.File, violation)
		if err != nil {
			break
		}
		ev.Cycle, ev.Model, ev.Trace, ev.Violation = a.hops(d.Cycle), m, tr, violation
		ev.Subtitle += fmt.Sprintf("; credit loop %d deadlocks: %d packets in %d full buffers", i+1, len(d.Stuck), len(d.Cycle))
		return Witness(m, tr, violation), tf, ev
	}
	if len(a.Loops) > 0 {
		ev.Cycle = a.hops(a.Loops[0].Cycle)
		ev.Subtitle += "; credit loop 1: " + a.Loops[0].Decision.Reason
	}
	return nil, nil, ev
}

// hops are the channels ids names, as hops of the fabric.
func (a *Analysis) hops(ids []int32) []fabric.Hop {
	out := make([]fabric.Hop, len(ids))
	for i, id := range ids {
		out[i] = a.Channels.Hop(id)
	}
	return out
}

func (a *Analysis) namesOf(ids []int32) []string {
	var out []string
	for _, id := range ids {
		out = append(out, a.ChannelName(id))
	}
	return out
}

// SetVersion sets the tool version.
func (r *Report) SetVersion(v string) { r.Version = v }

// Analysis returns the analysis of the fabric as read (before faults).
func (r *Report) Analysis() *Analysis { return r.analysis }

// Faulted returns the analysis of the fabric with its failed links, nil without.
func (r *Report) Faulted() *Analysis { return r.faulted }

// WriteText writes the report for people: the fabric, the routes and their errors,
// each credit loop in ibdmchk's words with its verdict, then the verdict line.
func (r *Report) WriteText(w io.Writer) {
	fr := r.Fabric
	a := r.analysis
	if r.faulted != nil {
		a = r.faulted
	}
	fmt.Fprintf(w, "fabric %s (%s, routed by %s): %d switches, %d CAs, %d links\n", r.Instance.Topology, fr.Format, fr.Routed, fr.Switches, fr.CAs, fr.Links)
	if fr.Faults != nil {
		fmt.Fprintf(w, "failed links: %s\n", strings.Join(fr.Faults.Links, ", "))
	}
	rt := fr.Routes
	fmt.Fprintf(w, "routes (%s): %d traced, %d delivered", rt.Scope, rt.Routes, rt.Delivered)
	if len(a.Pairs.Hops) > 0 {
		var hs []string
		for h, n := range a.Pairs.Hops {
			if n > 0 {
				unit := "hops"
				if h == 1 {
					unit = "hop"
				}
				hs = append(hs, fmt.Sprintf("%d %s x%d", h, unit, n))
			}
		}
		fmt.Fprintf(w, " (%s)", strings.Join(hs, ", "))
	}
	fmt.Fprintln(w)
	if lost := rt.Routes - rt.Delivered; lost > 0 {
		var ks []string
		for k, n := range rt.Lost {
			ks = append(ks, fmt.Sprintf("%s %d", k, n))
		}
		slices.Sort(ks)
		fmt.Fprintf(w, "lost routes: %d (%s); the first %d:\n", lost, strings.Join(ks, ", "), len(rt.Errors))
		for _, e := range rt.Errors {
			fmt.Fprintf(w, "  %s to LID %d (%s): %s at %s", e.Src, e.DLID, e.Dst, e.End, e.At)
			if e.Port >= 0 && e.End != "wrong node" && e.End != "delivered" {
				fmt.Fprintf(w, " port %d", e.Port)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "dependency graph: %d (port, VL) channels, %d dependencies, %s\n", fr.Graph.Channels, fr.Graph.Dependencies, plural(fr.Graph.CreditLoops, "credit loop"))
	s := fr.Sizes
	fmt.Fprintf(w, "sizes: MTU %d B = %d credits of 64 B, buffers of %d credits per port and VL = %d packets\n", s.MTU, s.PacketCredits, s.BufferCredits, s.PacketsPerBuffer)
	for i, l := range fr.Loops {
		shortest := "a shortest"
		if !l.Shortest {
			shortest = "the shortest found"
		}
		fmt.Fprintf(w, "credit loop %d: %d channels; %s cycle, %d channels:\n", i+1, l.Channels, shortest, len(l.Cycle))
		for _, c := range l.Cycle {
			fmt.Fprintf(w, "    %s\n", c)
		}
		fmt.Fprintf(w, "  %s: %s\n", strings.ToUpper(l.Verdict), l.Reason)
		if l.Verdict == "violated" {
			min := "not proved minimal"
			if l.Minimal {
				min = "minimal: a shortest cycle of the loop, so no deadlock of it has fewer packets"
			}
			fmt.Fprintf(w, "  deadlock: %d packets, %d full buffers, reached in %d steps (%s); %s\n", l.Packets, len(l.Deadlock), l.Steps, l.How, min)
		}
	}
	if f := fr.Faults; f != nil {
		fmt.Fprintf(w, "with the failed links: lost routes %d -> %d, credit loops %d -> %d", f.LostBefore, f.LostAfter, f.LoopsBefore, f.LoopsAfter)
		if len(f.NewLoops) > 0 {
			fmt.Fprintf(w, ", new loops %v", f.NewLoops)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, r.Headline())
	fmt.Fprintf(w, "  %s\n", r.Reason)
	fmt.Fprintf(w, "  %d routes traced, %.2fs\n", r.Stats.Checked, r.Stats.Seconds)
	if r.Trace != nil {
		fmt.Fprintf(w, "  the first deadlock's trace: %d steps (--trace F.json saves it; wormcheck replay F.json confirms it)\n", len(r.Trace.Actions))
	}
}

// String names a channel in ibdmchk's words.
func (c ChannelRef) String() string {
	return fmt.Sprintf("%s %s %q port %d VL %d", c.Kind, c.GUID, c.Desc, c.Port, c.VL)
}

// plural says n things: "1 credit loop", "2 credit loops".
// agree is the verb for n things: one for one, many for more.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
