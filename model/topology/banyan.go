package topology

import (
	"fmt"
	"math/bits"
)

// Banyan is the wrap-around broadcast banyan MIN of 002 §2.1: N = 2^n processing nodes,
// n stages of N/2 2x2 switching elements (SEs) labelled from stage n-1 (the first) down
// to stage 0, and external links from the outputs of stage 0 back to the nodes.
//
// Wiring (002 Definition 1, reconstructed from the garbled text): node x feeds input link
// σ(x) of stage n-1, where σ is the perfect shuffle (rotate the n-bit label left by one);
// output link a_{n-1}..a_{i+1} a_i a_{i-1}..a_1 a_0 of stage i feeds input link
// a_{n-1}..a_{i+1} a_0 a_{i-1}..a_1 a_i of stage i-1 (the butterfly β_i swaps bits 0 and i);
// output link y of stage 0 reaches node y. Input and output links a of an SE share the
// SE label a_{n-1}..a_1; bit a_0 names the port (0 upper, 1 lower). With this wiring the
// SE at stage i routes on destination bit i, and a unicast from any node reaches any
// destination (TestBanyanUnicastReachesDestination checks it).
//
// Channels: the input links of stage s (s = n-1..0) have ids (n-1-s)*N + a for a = 0..N-1,
// and the external output links of stage 0 have ids n*N + y. So a packet's path is n+1
// channels long: n stage inputs and one output.
type Banyan struct {
	n, size int
}

// NewBanyan builds the N-node wrap-around broadcast banyan; N must be a power of two.
func NewBanyan(size int) (*Banyan, error) {
	if size < 2 || size > MaxBanyanNodes || size&(size-1) != 0 {
		return nil, fmt.Errorf("banyan size %d is not a power of two in 2..%d", size, MaxBanyanNodes)
	}
	return &Banyan{n: bits.TrailingZeros(uint(size)), size: size}, nil
}

// MaxBanyanNodes bounds the banyan size a spec may ask for.
const MaxBanyanNodes = 1 << 16

// Stages returns n = log2 N.
func (b *Banyan) Stages() int { return b.n }

// Nodes returns N.
func (b *Banyan) Nodes() int { return b.size }

// Channels returns (n+1)*N: the input links of every stage and the external outputs.
func (b *Banyan) Channels() int { return (b.n + 1) * b.size }

// Shuffle returns σ(x), the stage n-1 input link fed by node x.
func (b *Banyan) Shuffle(x int) int {
	return ((x << 1) | (x >> (b.n - 1))) & (b.size - 1)
}

// Butterfly returns β_i(a): the input label at stage i-1 of the output link a of stage i.
func (b *Banyan) Butterfly(i, a int) int {
	b0 := a & 1
	bi := (a >> i) & 1
	a &^= 1 | 1<<i
	return a | bi | b0<<i
}

// InputLink returns the channel id of input link a of stage s.
func (b *Banyan) InputLink(s, a int) ChannelID { return ChannelID((b.n-1-s)*b.size + a) }

// OutputLink returns the channel id of the external link from stage 0's output y to node y.
func (b *Banyan) OutputLink(y int) ChannelID { return ChannelID(b.n*b.size + y) }

// Injection returns the first channel of every packet that node x sends.
func (b *Banyan) Injection(x int) ChannelID { return b.InputLink(b.n-1, b.Shuffle(x)) }

// Link tells where channel c is: the stage whose input it is and its label, or stage -1
// and the node for an external output link.
func (b *Banyan) Link(c ChannelID) (stage, label int) {
	i := int(c)
	if i >= b.n*b.size {
		return -1, i - b.n*b.size
	}
	return b.n - 1 - i/b.size, i % b.size
}

// Out returns the channel that the output port p (0 upper, 1 lower) of SE e at stage s
// feeds: an input link of stage s-1, or an external output link after stage 0.
func (b *Banyan) Out(s, e, p int) ChannelID {
	a := e<<1 | p
	if s == 0 {
		return b.OutputLink(a)
	}
	return b.InputLink(s-1, b.Butterfly(s, a))
}

// Route returns the unicast self-routing path from node src to node dst: at stage i the
// SE sends the packet out on port d_i (bit i of dst).
func (b *Banyan) Route(src, dst int) []ChannelID {
	p := make([]ChannelID, 0, b.n+1)
	c := b.Injection(src)
	p = append(p, c)
	for s := b.n - 1; s >= 0; s-- {
		_, a := b.Link(c)
		c = b.Out(s, a>>1, (dst>>s)&1)
		p = append(p, c)
	}
	return p
}

// Spec returns "banyan:N".
func (b *Banyan) Spec() string { return fmt.Sprintf("banyan:%d", b.size) }

// String returns the spec.
func (b *Banyan) String() string { return b.Spec() }

// NodeName renders node x as its decimal number.
func (b *Banyan) NodeName(v NodeID) string { return fmt.Sprint(int(v)) }

// ChannelName renders channel c, e.g. "s2.in5" or "out7".
func (b *Banyan) ChannelName(c ChannelID) string {
	s, a := b.Link(c)
	if s < 0 {
		return fmt.Sprintf("out%d", a)
	}
	return fmt.Sprintf("s%d.in%d", s, a)
}
