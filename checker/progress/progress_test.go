package progress

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		label string
		s     Snapshot
		rate  float64
		el    time.Duration
		heap  uint64
		rss   uint64
		want  string
	}{
		{"pairs:3 on mesh:3x3", Snapshot{Done: 1200, Total: 5000, Unit: "members", Work: 3_100_000}, 41200, 75 * time.Second, 120 << 20, 310 << 20,
			"pairs:3 on mesh:3x3:  1200/5000 members 24.0%  states 3.10M  41.2k states/s  elapsed 1m15s  ETA 3m58s  heap 120MiB  rss 310MiB"},
		{"", Snapshot{Work: 64, Note: "frontier 1  depth 9"}, 0, 0, 0, 0,
			"states 64  0 states/s  elapsed 0s  frontier 1  depth 9"},
		{"sim", Snapshot{Done: 300, Unit: "cycles", Work: 12_000_000_000, WorkUnit: "flit-hops"}, 5e8, 3 * time.Hour, 11 << 30, 0,
			"sim:  300 cycles  flit-hops 12.0G  500M flit-hops/s  elapsed 3h00m  heap 11.0GiB"},
	} {
		if got := Format(tc.label, tc.s, tc.rate, tc.el, tc.heap, tc.rss); got != tc.want {
			t.Errorf("Format:\n got %q\nwant %q", got, tc.want)
		}
	}
}

type buf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *buf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestModes checks that a plain Line writes whole lines as it goes and an in-place one
// rewrites one line and ends it with a newline when stopped.
func TestModes(t *testing.T) {
	var n atomic.Int64
	snap := func() Snapshot { return Snapshot{Done: n.Load(), Total: 10, Unit: "members", Work: 7 * n.Load()} }
	for _, mode := range []Mode{Plain, InPlace} {
		var w buf
		n.Store(0)
		l := Start(Options{W: &w, Label: "run", Every: 5 * time.Millisecond, Terminal: mode}, snap)
		for i := 0; i < 10; i++ {
			n.Add(1)
			time.Sleep(3 * time.Millisecond)
		}
		l.Stop()
		l.Stop() // a second Stop does nothing
		out := w.String()
		if !strings.HasSuffix(out, "\n") || !strings.Contains(out, "run:  10/10 members 100.0%  states 70  ") {
			t.Errorf("mode %d: output %q lacks the final figures", mode, out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		switch mode {
		case Plain:
			if len(lines) < 2 || strings.Contains(out, "\r") {
				t.Errorf("plain mode wrote %q; want several lines without carriage returns", out)
			}
		case InPlace:
			if len(lines) != 1 || strings.Count(out, "\r") < 2 {
				t.Errorf("in-place mode wrote %q; want one line rewritten with carriage returns", out)
			}
		}
	}
	Start(Options{}, snap).Stop() // a nil writer is silent and safe
}

// TestWithMemoryLimit allocates (and writes) past a small budget and expects the
// context to be cancelled with ErrMemory as its cause, with the process then holding
// at most 10% more than the budget; a generous budget leaves it alone.
func TestWithMemoryLimit(t *testing.T) {
	limit := int64(Held()) + 64<<20
	ctx, release := WithMemoryLimit(context.Background(), limit)
	defer release()
	var hold [][]byte
	for i := 0; i < 400 && ctx.Err() == nil; i++ {
		b := make([]byte, 1<<20)
		for j := range b {
			b[j] = byte(j)
		}
		hold = append(hold, b)
		time.Sleep(time.Millisecond)
	}
	if ctx.Err() == nil || !errors.Is(context.Cause(ctx), ErrMemory) {
		t.Fatalf("after %d MiB: err %v, cause %v", len(hold), ctx.Err(), context.Cause(ctx))
	}
	if held := Held(); held > uint64(limit)+uint64(limit)/10 {
		t.Errorf("stopped holding %s, more than 10%% over the budget of %s", Bytes(held), Bytes(uint64(limit)))
	}
	runtime.KeepAlive(hold)
	big, release2 := WithMemoryLimit(context.Background(), 1<<40)
	time.Sleep(120 * time.Millisecond)
	release2()
	if c := context.Cause(big); c != nil && errors.Is(c, ErrMemory) {
		t.Fatalf("a 1 TiB budget was reported reached: %v", c)
	}
}

// TestBudgetCausesName: a budget's causes speak of its limits in Go terms, or in the
// names a caller gives them (a command's flags).
func TestBudgetCausesName(t *testing.T) {
	for _, c := range []struct {
		b    Budget
		want string
	}{
		{Budget{Limit: time.Nanosecond}, "the time limit of 1ns passed"},
		{Budget{Limit: time.Nanosecond, TimeName: "--time-limit"}, "the --time-limit of 1ns passed"},
		{Budget{MaxBytes: 1}, "allowed"},
		{Budget{MaxBytes: 1, MemoryName: "--max-memory"}, "allowed (--max-memory)"},
	} {
		ctx, release := c.b.Context(context.Background())
		<-ctx.Done()
		cause := context.Cause(ctx)
		release()
		if !strings.HasSuffix(cause.Error(), c.want) || c.b.MaxBytes > 0 && !errors.Is(cause, ErrMemory) {
			t.Errorf("%+v: cause %v, want it to end in %q", c.b, cause, c.want)
		}
	}
}
