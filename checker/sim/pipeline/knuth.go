package pipeline

// knuthRand is Knuth's lagged-Fibonacci generator ran_array (The Art of Computer
// Programming, vol. 2, 3rd ed., section 3.6, with the 2002 changes to ran_start), the
// generator BookSim2 draws its integers from. randperm uses it so that a perm_seed gives
// BookSim's own permutation. Numbers are 30-bit; next returns them in the order
// ran_arr_next does (batches of 1009 generated, the first 100 of each used).
type knuthRand struct {
	x   [kk]int64 // the generator state
	buf [quality]int64
	pos int // next index into buf; kk when the batch is used up
}

const (
	kk      = 100     // the long lag
	ll      = 37      // the short lag
	mm      = 1 << 30 // the modulus
	tt      = 70      // guaranteed separation between streams
	quality = 1009
)

func modDiff(x, y int64) int64 { return (x - y) & (mm - 1) }

// array fills aa (len >= kk) with new numbers and advances the state.
func (r *knuthRand) array(aa []int64) {
	n := len(aa)
	j := 0
	for ; j < kk; j++ {
		aa[j] = r.x[j]
	}
	for ; j < n; j++ {
		aa[j] = modDiff(aa[j-kk], aa[j-ll])
	}
	i := 0
	for ; i < ll; i, j = i+1, j+1 {
		r.x[i] = modDiff(aa[j-kk], aa[j-ll])
	}
	for ; i < kk; i, j = i+1, j+1 {
		r.x[i] = modDiff(aa[j-kk], r.x[i-ll])
	}
}

// newKnuthRand seeds the generator as ran_start(seed) does.
func newKnuthRand(seed int64) *knuthRand {
	r := &knuthRand{pos: kk}
	var x [kk + kk - 1]int64
	ss := (seed + 2) & (mm - 2)
	for j := 0; j < kk; j++ {
		x[j] = ss
		ss <<= 1
		if ss >= mm {
			ss -= mm - 2
		}
	}
	x[1]++
	ss = seed & (mm - 1)
	for t := tt - 1; t > 0; {
		for j := kk - 1; j > 0; j-- {
			x[j+j], x[j+j-1] = x[j], 0
		}
		for j := kk + kk - 2; j >= kk; j-- {
			x[j-(kk-ll)] = modDiff(x[j-(kk-ll)], x[j])
			x[j-kk] = modDiff(x[j-kk], x[j])
		}
		if ss&1 == 1 {
			for j := kk; j > 0; j-- {
				x[j] = x[j-1]
			}
			x[0] = x[kk]
			x[ll] = modDiff(x[ll], x[kk])
		}
		if ss != 0 {
			ss >>= 1
		} else {
			t--
		}
	}
	for j := 0; j < ll; j++ {
		r.x[j+kk-ll] = x[j]
	}
	for j := ll; j < kk; j++ {
		r.x[j-ll] = x[j]
	}
	for j := 0; j < 10; j++ {
		r.array(x[:])
	}
	return r
}

// next returns the next number, as ran_arr_next.
func (r *knuthRand) next() int64 {
	if r.pos >= kk {
		r.array(r.buf[:])
		r.pos = 0
	}
	v := r.buf[r.pos]
	r.pos++
	return v
}

// intn returns a number in [0, n), as BookSim's RandomInt(n-1).
func (r *knuthRand) intn(n int) int { return int(r.next() % int64(n)) }
