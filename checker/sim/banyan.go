package sim

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/wormcheck/wormcheck/model/topology"
)

// BanyanConfig is a slotted simulation of the unbuffered broadcast banyan of 002 §4.
type BanyanConfig struct {
	Banyan *topology.Banyan
	// P is the probability that a node offers a packet in a slot; M the fraction of
	// packets that are multicasts with fanout Fanout (destinations: Fanout consecutive
	// nodes s..s+Fanout-1, s uniform in 0..N-Fanout; unicast destinations are uniform).
	P, M   float64
	Fanout int
	Slots  int // measured slots (0 = 10000)
	Seed   uint64
	// Context, if set, is checked every 64 slots; once it is done the run stops there
	// and the result covers the slots simulated (BanyanResult.Slots, Stopped).
	Context context.Context
}

// BanyanResult is what the slotted simulation measured.
type BanyanResult struct {
	// Throughput is the model's measure η: per output link per slot, unicast packets
	// delivered plus multicast copies delivered divided by the fanout.
	Throughput float64 `json:"throughput"`
	// Accepted is the stricter measure: packets all of whose destinations were reached,
	// per node per slot.
	Accepted float64 `json:"accepted"`
	Offered  float64 `json:"offered"` // (1-M)P + M P f
	// Slots is the number of slots simulated: BanyanConfig.Slots, or fewer when
	// Stopped.
	Slots int `json:"slots"`
	// Stopped is true when BanyanConfig.Context ended the run early.
	Stopped bool `json:"stopped,omitempty"`
}

// SlottedBanyan simulates the unbuffered banyan slot by slot: at the start of each slot
// every node offers a fresh packet with probability P (blocked packets are dropped, 002
// assumption 3); packets and their copies advance one stage at a time, stage n-1 first;
// at each 2x2 SE a packet whose region [lo, hi] spans both halves of the SE's address
// range (bit i of lo and hi differ) is copied to both outputs with the region split,
// otherwise it takes the output named by bit i; two requests for one output are
// resolved by a fair coin and the loser is dropped.
//
// Reference: 002 §2-§4 (region encoding, two-phase routing, throughput model).
func SlottedBanyan(cfg BanyanConfig) (*BanyanResult, error) {
	b := cfg.Banyan
	if b == nil {
		return nil, fmt.Errorf("banyan: a banyan topology is required")
	}
	N := b.Nodes()
	if cfg.P < 0 || cfg.P > 1 || cfg.M < 0 || cfg.M > 1 {
		return nil, fmt.Errorf("banyan: p %v and m %v must be in [0,1]", cfg.P, cfg.M)
	}
	if cfg.M > 0 && (cfg.Fanout < 1 || cfg.Fanout > N) {
		return nil, fmt.Errorf("banyan: fanout %d outside 1..%d", cfg.Fanout, N)
	}
	if cfg.Slots == 0 {
		cfg.Slots = 10000
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5851f42d4c957f2d))
	type cp struct {
		pkt    int32
		lo, hi int32
		mc     bool
	}
	cur := make([]cp, N)
	next := make([]cp, N)
	for i := range cur {
		cur[i].pkt = -1
	}
	got := make([]int32, 0, N) // per packet of the slot: copies delivered
	want := make([]int32, 0, N)
	var uni, mcopies, accepted float64
	n := b.Stages()
	slots, stopped := cfg.Slots, false
	for slot := 0; slot < cfg.Slots; slot++ {
		if slot%64 == 0 && slot > 0 && cfg.Context != nil && cfg.Context.Err() != nil {
			slots, stopped = slot, true
			break
		}
		got, want = got[:0], want[:0]
		for i := range cur {
			cur[i].pkt = -1
		}
		for x := 0; x < N; x++ {
			if rng.Float64() >= cfg.P {
				continue
			}
			id := int32(len(got))
			c := cp{pkt: id}
			if cfg.M > 0 && rng.Float64() < cfg.M {
				s := rng.IntN(N - cfg.Fanout + 1)
				c.lo, c.hi, c.mc = int32(s), int32(s+cfg.Fanout-1), true
				want = append(want, int32(cfg.Fanout))
			} else {
				d := rng.IntN(N)
				c.lo, c.hi = int32(d), int32(d)
				want = append(want, 1)
			}
			got = append(got, 0)
			cur[b.Shuffle(x)] = c
		}
		for s := n - 1; s >= 0; s-- {
			for i := range next {
				next[i].pkt = -1
			}
			for e := 0; e < N/2; e++ {
				var req [2][2]cp // per port, up to two requests
				var cnt [2]int
				for in := 0; in < 2; in++ {
					c := cur[e<<1|in]
					if c.pkt < 0 {
						continue
					}
					bl, bh := (c.lo>>s)&1, (c.hi>>s)&1
					if bl == bh {
						req[bl][cnt[bl]] = c
						cnt[bl]++
						continue
					}
					mid := (c.hi >> s) << s
					up, down := c, c
					up.hi = mid - 1
					down.lo = mid
					req[0][cnt[0]] = up
					cnt[0]++
					req[1][cnt[1]] = down
					cnt[1]++
				}
				for port := 0; port < 2; port++ {
					if cnt[port] == 0 {
						continue
					}
					w := req[port][0]
					if cnt[port] == 2 && rng.IntN(2) == 1 {
						w = req[port][1]
					}
					a := e<<1 | port
					if s > 0 {
						next[b.Butterfly(s, a)] = w
					} else {
						next[a] = w
					}
				}
			}
			cur, next = next, cur
		}
		for y := 0; y < N; y++ {
			c := cur[y]
			if c.pkt < 0 {
				continue
			}
			got[c.pkt]++
			if c.mc {
				mcopies++
			} else {
				uni++
			}
		}
		for i := range got {
			if got[i] == want[i] {
				accepted++
			}
		}
	}
	f := float64(max(cfg.Fanout, 1))
	den := float64(N) * float64(slots)
	return &BanyanResult{
		Throughput: (uni + mcopies/f) / den,
		Accepted:   accepted / den,
		Offered:    (1-cfg.M)*cfg.P + cfg.M*cfg.P*f,
		Slots:      slots,
		Stopped:    stopped,
	}, nil
}
