package render_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// TestBanyanDeadlock draws the deadlock of two two-phase multicasts on banyan:16 (002
// Fig. 3's network, starts 5 and 7): the held trees in their colours, the links the
// heads wait for in red. The picture is deterministic and golden.
func TestBanyanDeadlock(t *testing.T) {
	b, err := topology.NewBanyan(16)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := banyan.ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := banyan.NewSystem(b, msgs, banyan.Options{Starts: []int{5, 7}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := checker.Explore[banyan.State](sys, checker.Options[banyan.State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Violation == nil {
		t.Fatal("no deadlock to draw")
	}
	last := r.Violation.Trace.Steps[len(r.Violation.Trace.Steps)-1].State
	a, c := deadlockPicture(sys, last), deadlockPicture(sys, last)
	if !bytes.Equal(a, c) || !bytes.Contains(a, []byte("#d62728")) {
		t.Fatalf("bad picture: %.200s", a)
	}
	golden(t, "banyan-deadlock.svg", a)
}

// deadlockPicture draws the links every packet of s holds, and in red those its heads
// wait for, as props/check draws a banyan deadlock.
func deadlockPicture(sys *banyan.System, s banyan.State) []byte {
	var pkts []props.BanyanPath
	for p := range s.Held {
		if cs := sys.HeldChannels(s, p); len(cs) > 0 {
			pkts = append(pkts, props.BanyanPath{Name: sys.PacketName(s, p), Channels: cs})
		}
	}
	var contested []topology.ChannelID
	for _, wt := range sys.Waits(s) {
		contested = append(contested, topology.ChannelID(wt.Channel))
	}
	b, opt := sys.Banyan(), sys.Options()
	return render.Banyan(b, fmt.Sprintf("%s deadlock, %s arbitration, %s: starts %v", b.Spec(), opt.Arbitration, opt.Timing, sys.StartsOf(s)), pkts, contested)
}

// TestBanyanConflict draws a blocking witness: 0->5 and 3->[4,7] on banyan:8 both need
// one link.
func TestBanyanConflict(t *testing.T) {
	b, err := topology.NewBanyan(8)
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.FirstConflict([]topology.BanyanPacket{{Source: 0, Dest: topology.UnicastTag(5)}, {Source: 3, Dest: topology.Region{Min: 4, Max: 7}}})
	if err != nil || c == nil {
		t.Fatalf("no conflict: %v", err)
	}
	golden(t, "banyan-conflict.svg", render.BanyanConflict(b, c))
}
