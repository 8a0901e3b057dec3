package pipeline

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Pattern is a traffic pattern: the destination terminal of a packet from each source
// terminal, terminals numbered 0..N-1 as BookSim numbers them. The permutations
// (bitcomp, transpose, bitrev, shuffle, tornado, neighbor, randperm) give every source
// one destination (randperm BookSim's own permutation for its perm_seed, drawn from
// Knuth's generator as BookSim draws it); the random patterns (uniform, hotspot, ...) draw
// one per packet from the run's random stream. As in BookSim, a pattern may send a packet to its own source
// (uniform draws every terminal, transpose maps the diagonal to itself): such a packet
// enters its router and leaves it by the ejection port.
//
// Reference: BookSim2 src/traffic.cpp (the definitions, not the code, carry over).
type Pattern struct {
	name string
	kind patternKind
	n    int
	// radix, dims and xr are the digit patterns' (tornado, neighbor, badperm_yarc):
	// a source is dims digits in base radix*xr. radix and dims are bad_dragon's k and n.
	radix, dims, xr int
	shift           int     // transpose: half the address bits
	perm            []int32 // randperm: the destination of each source
	hot             []int32 // hotspot: the hot terminals, with their weights
	rates           []int
	rateSum         int
	excluded        []bool // background: terminals uniform traffic avoids
}

type patternKind uint8

const (
	patUniform patternKind = iota
	patBitComp
	patTranspose
	patBitRev
	patShuffle
	patTornado
	patNeighbor
	patRandPerm
	patHotspot
	patBackground
	patDiagonal
	patAsymmetric
	patTaper64
	patBadDragon
	patBadPermYarc
)

// PatternParams are the configuration keys a pattern falls back on when its name gives
// no parameters: k, n and xr of the network (tornado, neighbor, badperm_yarc,
// bad_dragon) and perm_seed (randperm).
type PatternParams struct {
	K, N, XR int
	PermSeed uint64
}

// PatternNames lists the patterns ParsePattern knows, in BookSim's order of
// documentation.
var PatternNames = []string{"uniform", "bitcomp", "transpose", "bitrev", "shuffle", "tornado", "neighbor",
	"randperm", "hotspot", "background", "diagonal", "asymmetric", "taper64", "bad_dragon", "badperm_yarc"}

// ParsePattern reads a pattern as BookSim's traffic key spells it: a name, optionally
// with parameters in parentheses, "hotspot({3,7},{1,2})", "randperm(5)",
// "tornado(8,2,1)", "background({0,1})". Parameters left out come from p. n is the
// number of terminals. Errors say which pattern cannot run on n terminals and why.
func ParsePattern(spec string, n int, p PatternParams) (Pattern, error) {
	name, args, err := splitPattern(spec)
	if err != nil {
		return Pattern{}, err
	}
	if n < 1 {
		return Pattern{}, fmt.Errorf("traffic %s: the network has no terminals", name)
	}
	pt := Pattern{name: spec, n: n}
	intArg := func(i, def int) (int, error) {
		if i >= len(args) {
			return def, nil
		}
		v, err := strconv.Atoi(strings.TrimSpace(args[i]))
		if err != nil {
			return 0, fmt.Errorf("traffic %s: parameter %d is %q, not a whole number", spec, i+1, args[i])
		}
		return v, nil
	}
	bitPerm := func() error {
		if n&(n-1) != 0 {
			return fmt.Errorf("traffic %s: a bit permutation needs a power-of-two number of terminals, not %d", name, n)
		}
		return nil
	}
	switch name {
	case "uniform":
		pt.kind = patUniform
	case "bitcomp", "bitrev", "shuffle":
		pt.kind = map[string]patternKind{"bitcomp": patBitComp, "bitrev": patBitRev, "shuffle": patShuffle}[name]
		if err := bitPerm(); err != nil {
			return pt, err
		}
	case "transpose":
		pt.kind = patTranspose
		if err := bitPerm(); err != nil {
			return pt, err
		}
		b := bits.TrailingZeros(uint(n))
		if b%2 != 0 {
			return pt, fmt.Errorf("traffic transpose: needs an even power of two terminals (a square of addresses), not %d", n)
		}
		pt.shift = b / 2
	case "tornado", "neighbor", "badperm_yarc", "bad_dragon":
		pt.kind = map[string]patternKind{"tornado": patTornado, "neighbor": patNeighbor, "badperm_yarc": patBadPermYarc, "bad_dragon": patBadDragon}[name]
		if pt.radix, err = intArg(0, p.K); err != nil {
			return pt, err
		}
		if pt.dims, err = intArg(1, p.N); err != nil {
			return pt, err
		}
		xr := p.XR
		if pt.kind == patBadDragon {
			xr = 1
		}
		if pt.xr, err = intArg(2, xr); err != nil {
			return pt, err
		}
		if pt.radix < 1 || pt.dims < 1 || pt.xr < 1 {
			return pt, fmt.Errorf("traffic %s: k = %d, n = %d, xr = %d; each must be at least 1", name, pt.radix, pt.dims, pt.xr)
		}
		if pt.kind == patBadDragon && n%(2*pt.radix*pt.radix) != 0 {
			return pt, fmt.Errorf("traffic bad_dragon: %d terminals are not whole groups of 2k^2 = %d", n, 2*pt.radix*pt.radix)
		}
	case "randperm":
		pt.kind = patRandPerm
		seed := p.PermSeed
		if len(args) > 0 {
			s, err := intArg(0, 0)
			if err != nil {
				return pt, err
			}
			seed = uint64(s)
		}
		pt.perm = randomPermutation(n, seed)
	case "hotspot":
		pt.kind = patHotspot
		if err := pt.parseHotspots(args); err != nil {
			return pt, err
		}
	case "background":
		pt.kind = patBackground
		pt.excluded = make([]bool, n)
		if len(args) > 0 {
			ex, err := intList(args[0])
			if err != nil {
				return pt, fmt.Errorf("traffic %s: %v", spec, err)
			}
			for _, v := range ex {
				if v < 0 || v >= n {
					return pt, fmt.Errorf("traffic %s: terminal %d is not one of the %d terminals", spec, v, n)
				}
				pt.excluded[v] = true
			}
		}
		if !slicesContainsFalse(pt.excluded) {
			return pt, fmt.Errorf("traffic %s: every terminal is excluded", spec)
		}
	case "diagonal":
		pt.kind = patDiagonal
	case "asymmetric":
		pt.kind = patAsymmetric
		if n < 2 {
			return pt, fmt.Errorf("traffic asymmetric: needs at least 2 terminals")
		}
	case "taper64":
		pt.kind = patTaper64
		if n != 64 {
			return pt, fmt.Errorf("traffic taper64: needs exactly 64 terminals, not %d", n)
		}
	default:
		return pt, fmt.Errorf("traffic %q: not a pattern; want one of %s", spec, strings.Join(PatternNames, ", "))
	}
	return pt, nil
}

func slicesContainsFalse(b []bool) bool {
	for _, x := range b {
		if !x {
			return true
		}
	}
	return false
}

// parseHotspots reads hotspot's parameters: the hot terminals ({a,b,...} or one number;
// -1 or none: a terminal drawn at random when the run starts, in Dest's stream) and
// their weights (one each when absent; a short list repeats its last weight).
func (pt *Pattern) parseHotspots(args []string) error {
	hot := []int{-1}
	if len(args) > 0 {
		var err error
		if hot, err = intList(args[0]); err != nil {
			return fmt.Errorf("traffic %s: %v", pt.name, err)
		}
	}
	rates := []int{1}
	if len(args) > 1 {
		var err error
		if rates, err = intList(args[1]); err != nil {
			return fmt.Errorf("traffic %s: %v", pt.name, err)
		}
	}
	for _, h := range hot {
		if h >= pt.n || h < -1 {
			return fmt.Errorf("traffic %s: terminal %d is not one of the %d terminals", pt.name, h, pt.n)
		}
		pt.hot = append(pt.hot, int32(h))
	}
	for i := range hot {
		r := rates[min(i, len(rates)-1)]
		if r <= 0 {
			return fmt.Errorf("traffic %s: weight %d; weights must be positive", pt.name, r)
		}
		pt.rates = append(pt.rates, r)
		pt.rateSum += r
	}
	return nil
}

// splitPattern splits "name(a,{b,c})" into the name and its top-level arguments.
func splitPattern(spec string) (string, []string, error) {
	spec = strings.TrimSpace(spec)
	open := strings.IndexByte(spec, '(')
	if open < 0 {
		return spec, nil, nil
	}
	name, inner := spec[:open], spec[open+1:]
	if close := strings.LastIndexByte(inner, ')'); close >= 0 {
		inner = inner[:close]
	}
	var args []string
	depth, start := 0, 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(inner[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return name, nil, fmt.Errorf("traffic %s: unbalanced braces", spec)
	}
	if rest := strings.TrimSpace(inner[start:]); rest != "" || len(args) > 0 {
		args = append(args, rest)
	}
	return name, args, nil
}

// intList reads "{1,2,3}" or "7".
func intList(s string) ([]int, error) {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "{"), "}")
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not a list of whole numbers", s)
		}
		out = append(out, v)
	}
	return out, nil
}

// Name is the pattern as it was given.
func (pt *Pattern) Name() string { return pt.name }

// Random reports whether the pattern draws destinations at random (else it is a
// permutation: one destination per source).
func (pt *Pattern) Random() bool {
	switch pt.kind {
	case patBitComp, patTranspose, patBitRev, patShuffle, patTornado, patNeighbor, patRandPerm:
		return false
	}
	return true
}

// Dest returns the destination terminal of a packet from terminal src; a random pattern
// draws from r. Cost O(1), bitrev O(log N), hotspot O(hot terminals).
func (pt *Pattern) Dest(src int, r *rand.Rand) int {
	n := pt.n
	switch pt.kind {
	case patUniform:
		return r.IntN(n)
	case patBitComp:
		return ^src & (n - 1)
	case patTranspose:
		lo := 1<<pt.shift - 1
		return (src>>pt.shift)&lo | (src<<pt.shift)&(lo<<pt.shift)
	case patBitRev:
		d := 0
		for m := n; m > 1; m >>= 1 {
			d = d<<1 | src&1
			src >>= 1
		}
		return d
	case patShuffle:
		s := src << 1
		d := s & (n - 1)
		if s&n != 0 {
			d |= 1
		}
		return d
	case patTornado, patNeighbor:
		base := pt.xr * pt.radix
		step := 1
		if pt.kind == patTornado {
			step = (base+1)/2 - 1
		}
		d, off := 0, 1
		for i := 0; i < pt.dims; i++ {
			d += off * ((src/off%base + step) % base)
			off *= base
		}
		return d
	case patRandPerm:
		return int(pt.perm[src])
	case patHotspot:
		return pt.hotDest(r)
	case patBackground:
		for {
			if d := r.IntN(n); !pt.excluded[d] {
				return d
			}
		}
	case patDiagonal:
		if r.IntN(2) == 0 {
			return (src + 1) % n
		}
		return src
	case patAsymmetric:
		half := n / 2
		// BookSim draws RandomInt(1) here, 0 or 1.
		if r.IntN(2) == 1 {
			return src%half + half
		}
		return src % half
	case patTaper64:
		if r.IntN(2) == 1 {
			return (64 + src + 8*(r.IntN(3)-1) + (r.IntN(3) - 1)) % 64
		}
		return r.IntN(n)
	case patBadDragon:
		grp := 2 * pt.radix * pt.radix
		return (r.IntN(grp) + (src/grp+1)*grp) % n
	case patBadPermYarc:
		row := src / (pt.xr * pt.radix)
		return r.IntN(pt.xr*pt.radix)*(pt.xr*pt.radix) + row
	}
	panic("pipeline: unknown pattern")
}

// hotDest draws a hot terminal by weight; a hot terminal given as -1 is drawn once, on
// first use, uniformly among all terminals.
func (pt *Pattern) hotDest(r *rand.Rand) int {
	for i, h := range pt.hot {
		if h < 0 {
			pt.hot[i] = int32(r.IntN(pt.n))
		}
	}
	if len(pt.hot) == 1 {
		return int(pt.hot[0])
	}
	x := r.IntN(pt.rateSum)
	for i, w := range pt.rates {
		if x < w {
			return int(pt.hot[i])
		}
		x -= w
	}
	return int(pt.hot[len(pt.hot)-1])
}

// randomPermutation returns BookSim's random permutation for seed: for i = 0..n-1, i
// becomes the destination of the ind-th source still without one, ind drawn as
// RandomInt(n-1-i) from Knuth's generator seeded with seed (knuthRand), so the
// permutation is BookSim's own for the same perm_seed.
func randomPermutation(n int, seed uint64) []int32 {
	r := newKnuthRand(int64(seed))
	dest := make([]int32, n)
	free := make([]int32, n)
	for i := range free {
		free[i] = int32(i)
	}
	for i := 0; i < n; i++ {
		k := r.intn(n - i)
		j := free[k]
		// free stays in increasing order: the ind-th free source as BookSim counts it.
		free = append(free[:k], free[k+1:]...)
		dest[j] = int32(i)
	}
	return dest
}
