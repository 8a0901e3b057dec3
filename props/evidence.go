package props

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/banyanwire"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/model/vct"
)

// Evidence is what a verdict rests on, kept as the values the check found so that a
// picture, a capture or the trace explorer can be made of it later (Report.Evidence):
// the library decides and returns evidence, props/render draws it, and only when the
// command line asks (--svg, --pcap, --explore, prove --witness-dir). Holding it costs
// nothing but the references. It is one of *FlitEvidence, *ScheduleEvidence,
// *BanyanEvidence, *CycleEvidence, *RanksEvidence, *PartitionEvidence, *PlotEvidence,
// *MovesEvidence and *FabricEvidence.
type Evidence interface{ evidence() }

// FlitEvidence is a run of a flit-level model: Trace on Model from an initial state to
// the state that shows Violation (a deadlock, a broken invariant) or, with Lasso, to a
// state that Trace.Steps[CycleStart] equals, the cycle repeating forever (a livelock or
// starvation). Title and Subtitle say what it shows and of which instance; Notes are
// extra lines for a picture's legend.
type FlitEvidence struct {
	Model           *flit.Model
	Trace           checker.Trace[flit.State]
	Violation       string
	Lasso           bool
	CycleStart      int
	Title, Subtitle string
	Notes           []string
}

// TraceEvidence is the evidence of saved trace tf replayed on m to tr, where the last
// state shows violation (tf's own, or what the replay found): titled by what it shows
// and by the instance and parameters the file names, the violation's detail as notes.
func TraceEvidence(tf *tracefile.File, m *flit.Model, tr checker.Trace[flit.State], violation string) *FlitEvidence {
	steps := tr.Len()
	kind, detail, _ := strings.Cut(violation, ": ")
	if kind == "" {
		kind = "no violation"
	}
	ev := &FlitEvidence{Model: m, Trace: tr, Violation: violation}
	ev.Title = fmt.Sprintf("%s %s on %s: %s after %d steps", tf.Algorithm, tf.Property, tf.Topology, kind, steps)
	if cs := tf.CycleStart; cs != nil && *cs >= 0 && *cs < steps {
		ev.Lasso, ev.CycleStart = true, *cs
		ev.Title = fmt.Sprintf("%s %s on %s: %s, %d steps then a cycle of %d repeated forever", tf.Algorithm, tf.Property, tf.Topology, kind, *cs, steps-*cs)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, tf.Params); err != nil {
		b.Reset()
		b.Write(tf.Params)
	}
	params := strings.NewReplacer(`\u003e`, ">", `\u003c`, "<", `\u0026`, "&").Replace(b.String())
	ev.Subtitle = "parameters: " + params
	if detail != "" {
		ev.Notes = strings.Split(detail, "; ")
	}
	return ev
}

// ViolationNotes splits a violation's detail ("wait-for cycle m0 -> m1 -> m0: m0 at (1,0)
// waits for ...; m1 at ...") into lines for a legend.
func ViolationNotes(violation string) []string {
	_, detail, ok := strings.Cut(violation, ": ")
	if !ok || detail == "" {
		return nil
	}
	return strings.Split(detail, "; ")
}

// ScheduleEvidence is a unicast schedule with its first contention (Contention: the
// contending pair, or the broken condition; nil when none), titled by the algorithm and
// instance ("" for a title of the schedule alone).
type ScheduleEvidence struct {
	Schedule   *model.Schedule
	Contention *ScheduleWitness
	Title      string
}

// BanyanEvidence is a witness in a banyan network: a blocking pattern's two packets that
// need one link (Conflict), or a deadlocked state (Title, the Packets with the links
// each holds, the Contested links the heads wait for, and the wait-for edges in Notes).
// Capture holds its records for a pcap capture (model/banyanwire), where it has one.
type BanyanEvidence struct {
	Banyan    *topology.Banyan
	Conflict  *topology.LinkConflict
	Title     string
	Packets   []BanyanPath
	Contested []topology.ChannelID
	Notes     []string
	Capture   []banyanwire.Record
}

// BanyanPath is one packet of a banyan deadlock: its name and the links it holds.
type BanyanPath struct {
	Name     string
	Channels []topology.ChannelID
}

// CycleEvidence is a cycle of a routing relation's channel dependency graph on Grid
// (Cycle, a witness of kind cycle). Proven, when set, says why the relation is
// deadlock-free all the same (Duato's condition, the exact decision), and the cycle is
// shown as harmless.
type CycleEvidence struct {
	Grid            *topology.Network
	Cycle           *Witness
	Title, Subtitle string
	Proven          string
}

// RanksEvidence is the certificate of an acyclic channel dependency graph on Grid: its
// (channel, VC) vertices numbered in a topological order, so that every dependency goes
// to a larger number.
type RanksEvidence struct {
	Grid            *topology.Network
	VCs             int
	Ranks           []RankedChannel
	Title, Subtitle string
}

// RankedChannel is one vertex of a ranked dependency graph.
type RankedChannel struct {
	Channel topology.ChannelID
	VC      int
	Rank    int
}

// PartitionEvidence is a partition of a 2-D torus or mesh into subnetworks (001's DDNs,
// and the DCN blocks): Title names the instance; Violated marks a broken property, with
// the Pair of nodes it names (Caption says what they show), the HotChannels and the
// HotSubnetworks (by name) it involves.
type PartitionEvidence struct {
	Grid           *topology.Network
	DDNs, DCNs     []Subnetwork
	Title, Caption string
	Violated       bool
	Pair           []topology.NodeID
	HotChannels    []topology.ChannelID
	HotSubnetworks []string
}

// Subnetwork is one subnetwork of a partition: its nodes and channels.
type Subnetwork struct {
	Name     string
	Directed bool
	Nodes    []topology.NodeID
	Channels []topology.ChannelID
}

// MovesEvidence is the flit moves of one simulated run (checker/sim), as records of a
// capture (model/flitwire, LINKTYPE_USER2).
type MovesEvidence struct {
	// Topology is the network the moves' channels and nodes are numbers of, as
	// wormcheck names it; the capture's first record names it.
	Topology string
	Moves    []flitwire.SimMove
}

// PlotEvidence is mean latency against offered load (Loads, flits per node per cycle,
// shared by every curve), in one or more panels side by side.
type PlotEvidence struct {
	Title  string
	Loads  []float64
	Panels []Panel
}

// Panel is one panel of a plot: its title ("" for a single panel) and curves.
type Panel struct {
	Title  string
	Curves []Curve
}

// Curve is one curve of a plot: Y[i] at Loads[i] (NaN for a gap: the load saturates),
// with the 95% confidence half-width CI[i] where measured. Colour is its colour; Style,
// when > 0, picks its dash and marker (curves of one plot with distinct Style stay
// apart); Dashed draws a model's curve dashed.
type Curve struct {
	Name   string
	Y, CI  []float64
	Colour string
	Dashed bool
	Style  int
}

// FabricEvidence is an InfiniBand fabric with one of its credit loops (Cycle, the loop's
// channels in order) and, when the loop deadlocks, the run of the vct model that fills
// it (Model and Trace, from the empty fabric to the deadlock Violation names; Model is
// nil for a loop without one). Title and Subtitle say what it shows.
type FabricEvidence struct {
	Fabric          *fabric.Fabric
	Cycle           []fabric.Hop
	Model           *vct.Model
	Trace           checker.Trace[vct.State]
	Violation       string
	Title, Subtitle string
}

func (*FlitEvidence) evidence()      {}
func (*FabricEvidence) evidence()    {}
func (*ScheduleEvidence) evidence()  {}
func (*BanyanEvidence) evidence()    {}
func (*CycleEvidence) evidence()     {}
func (*RanksEvidence) evidence()     {}
func (*PartitionEvidence) evidence() {}
func (*PlotEvidence) evidence()      {}
func (*MovesEvidence) evidence()     {}
