package banyan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/banyanwire"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Params are the parameters that rebuild a System; they are saved in a trace file so
// that `replay` re-executes the trace on the same model.
type Params struct {
	Msgs        string `json:"msgs"`
	Arbitration string `json:"arbitration"`
	Timing      string `json:"timing"`
	Acquire     string `json:"acquire"`
	Starts      []int  `json:"starts,omitempty"`
	Phase1Only  bool   `json:"phase1_only,omitempty"`
	Flits       int    `json:"flits,omitempty"`
}

// ParamsOf renders the parameters of sys.
func ParamsOf(sys *System) Params {
	parts := make([]string, len(sys.msgs))
	for i, m := range sys.msgs {
		parts[i] = m.String()
	}
	var buf bytes.Buffer
	for i, p := range parts {
		if i > 0 {
			buf.WriteByte(';')
		}
		buf.WriteString(p)
	}
	return Params{Msgs: buf.String(), Arbitration: sys.opt.Arbitration.String(), Timing: sys.opt.Timing.String(),
		Acquire: sys.opt.Acquire.String(), Starts: sys.opt.Starts, Phase1Only: sys.opt.Phase1Only, Flits: sys.opt.Flits}
}

// Build rebuilds the System the parameters describe on banyan b.
func (p Params) Build(b *topology.Banyan) (*System, error) {
	msgs, err := ParseMulticasts(p.Msgs, b.Nodes())
	if err != nil {
		return nil, err
	}
	var opt Options
	if opt.Arbitration, err = ParseArbitration(p.Arbitration); err != nil {
		return nil, err
	}
	if opt.Timing, err = ParseTiming(p.Timing); err != nil {
		return nil, err
	}
	if opt.Acquire, err = ParseAcquire(p.Acquire); err != nil {
		return nil, err
	}
	opt.Starts, opt.Phase1Only, opt.Flits = p.Starts, p.Phase1Only, p.Flits
	return NewSystem(b, msgs, opt)
}

// InitIndex returns the index in sys.Init() of state s (the first step of a trace).
func InitIndex(sys *System, s State) int {
	want := sys.Encode(s, nil)
	for i, t := range sys.Init() {
		if bytes.Equal(sys.Encode(t, nil), want) {
			return i
		}
	}
	return -1
}

// DeadlockTrace turns the deadlock trace of an exploration of sys for property prop
// (checker.PropDeadlock or checker.PropGlobalDeadlock) into a saved trace file for `replay`.
func DeadlockTrace(sys *System, algo string, prop checker.Property, tr checker.Trace[State]) (*tracefile.File, error) {
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("empty trace")
	}
	params, err := json.Marshal(ParamsOf(sys))
	if err != nil {
		return nil, err
	}
	tf := &tracefile.File{Format: tracefile.Format, Algorithm: algo, Topology: sys.b.Spec(),
		Property: prop, Semantics: "flit", Params: params, Init: InitIndex(sys, tr.Steps[0].State)}
	for _, st := range tr.Steps[1:] {
		tf.Actions = append(tf.Actions, uint64(st.Action))
		tf.Labels = append(tf.Labels, st.Label)
	}
	tf.Violation = sys.DeadlockText(tr.Steps[len(tr.Steps)-1].State, prop.LocalDeadlocks())
	return tf, nil
}

// ReplayDeadlock re-executes a saved trace on the model its parameters describe and
// reports whether it ends in a deadlock of the trace's property (a local deadlock unless
// the property is checker.PropGlobalDeadlock), with the final state's description. A label
// that differs from the recorded one is an error (the model changed).
func ReplayDeadlock(tf *tracefile.File) (bool, string, error) {
	ok, why, _, _, err := ReplayDeadlockTrace(tf)
	return ok, why, err
}

// ReplayDeadlockTrace is ReplayDeadlock that also returns the rebuilt system and the
// replayed trace, for the evidence of a deadlock (its picture and capture, TraceRecords).
func ReplayDeadlockTrace(tf *tracefile.File) (bool, string, *System, checker.Trace[State], error) {
	var none checker.Trace[State]
	b, err := topology.ParseBanyan(tf.Topology)
	if err != nil {
		return false, "", nil, none, fmt.Errorf("trace file field \"topology\": %v", err)
	}
	var p Params
	dec := json.NewDecoder(bytes.NewReader(tf.Params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return false, "", nil, none, fmt.Errorf("trace file field \"parameters\": %v", err)
	}
	sys, err := p.Build(b)
	if err != nil {
		return false, "", nil, none, fmt.Errorf("trace file field \"parameters\": %v", err)
	}
	acts := make([]checker.Action, len(tf.Actions))
	for i, a := range tf.Actions {
		acts[i] = checker.Action(a)
	}
	tr, err := checker.Replay[State](sys, tf.Init, acts)
	if err != nil {
		return false, "", nil, none, err
	}
	for i, st := range tr.Steps[1:] {
		if i < len(tf.Labels) && tf.Labels[i] != st.Label {
			return false, "", nil, none, fmt.Errorf("trace step %d is %q on replay but %q in the file", i+1, st.Label, tf.Labels[i])
		}
	}
	last := tr.Steps[len(tr.Steps)-1].State
	if why := sys.DeadlockText(last, tf.Property.LocalDeadlocks()); why != "" {
		return true, why, sys, tr, nil
	}
	return false, "the replayed trace does not end in a deadlock", sys, tr, nil
}

// TraceRecords returns the capture records of a trace of sys (banyanwire.WriteCapture
// writes them as pcap): one record per link a packet acquires, stamped with its step,
// carrying the region header the packet has on that link. Tools that know
// LayerTypeRegionHeader decode them.
func TraceRecords(sys *System, tr checker.Trace[State]) ([]banyanwire.Record, error) {
	var recs []banyanwire.Record
	for i := 1; i < len(tr.Steps); i++ {
		prev, cur := tr.Steps[i-1].State, tr.Steps[i].State
		for p := range cur.Held {
			// A packet that drained this step released everything: compare with prev's
			// leaves instead (its last grants are prev's missing leaves).
			gained := cur.Held[p] &^ prev.Held[p]
			if cur.Status[p] == done && prev.Status[p] != done {
				gained = sys.shape(cur, p).leaves &^ prev.Held[p]
			}
			sh := sys.shape(cur, p)
			for k := range sh.tree {
				if gained&(1<<uint(k)) == 0 {
					continue
				}
				h, err := banyanwire.NewRegionHeader(sys.b, sh.tree[k].Header)
				if err != nil {
					return nil, err
				}
				recs = append(recs, banyanwire.Record{Cycle: i, Packet: uint16(p), Channel: uint32(sh.tree[k].Channel), Header: *h})
			}
		}
	}
	return recs, nil
}

// PatternRecords returns the capture records of a pattern of packets sent at once (002
// §2: one pass through the network; banyanwire.WriteCapture writes them as pcap): one
// record per link of each
// packet's region tree (topology.Banyan.RegionTree), stamped with the link's depth in the
// tree (1 for the injection channel), carrying the region header the packet has on that
// link; records are ordered by depth, then packet. Two packets with a record on the same
// channel are the conflict. Cost O(sum of tree sizes).
func PatternRecords(b *topology.Banyan, pat []topology.BanyanPacket) ([]banyanwire.Record, error) {
	var recs []banyanwire.Record
	for k, p := range pat {
		tree, err := b.RegionTree(p.Source, p.Dest)
		if err != nil {
			return nil, fmt.Errorf("packet %d (%v): %v", k, p, err)
		}
		depth := make([]int, len(tree))
		for i, l := range tree {
			depth[i] = 1
			if l.Parent >= 0 {
				depth[i] = depth[l.Parent] + 1
			}
			h, err := banyanwire.NewRegionHeader(b, l.Header)
			if err != nil {
				return nil, err
			}
			recs = append(recs, banyanwire.Record{Cycle: depth[i], Packet: uint16(k), Channel: uint32(l.Channel), Header: *h})
		}
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Cycle < recs[j].Cycle })
	return recs, nil
}
