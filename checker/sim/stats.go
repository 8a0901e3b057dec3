package sim

import "math"

// BatchMeans returns the mean of xs and the half-width of its 95% confidence interval by
// the method of batch means: xs (in the order the samples were taken) is cut into
// `batches` equal consecutive batches (a remainder at the end is dropped from the
// interval, not from the mean), and the batch means are treated as independent normal
// samples (Student t with batches-1 degrees of freedom). The half-width is NaN when
// there are fewer than two samples per batch.
func BatchMeans(xs []float64, batches int) (mean, half float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if batches < 2 || len(xs) < 2*batches {
		return mean, math.NaN()
	}
	size := len(xs) / batches
	bm := make([]float64, batches)
	var grand float64
	for b := range bm {
		var s float64
		for _, x := range xs[b*size : (b+1)*size] {
			s += x
		}
		bm[b] = s / float64(size)
		grand += bm[b]
	}
	grand /= float64(batches)
	var ss float64
	for _, m := range bm {
		ss += (m - grand) * (m - grand)
	}
	sd := math.Sqrt(ss / float64(batches-1))
	return mean, tQuantile975(batches-1) * sd / math.Sqrt(float64(batches))
}

// tQuantile975 returns the 0.975 quantile of Student's t with df degrees of freedom
// (table for df <= 30, the normal 1.96 beyond).
func tQuantile975(df int) float64 {
	table := [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df >= 1 && df < len(table) {
		return table[df]
	}
	return 1.96
}

// MSER5 returns how many leading samples of xs to discard as warm-up by the MSER-5 rule
// (White 1997): group xs into batches of 5, and choose the truncation d (in batches, over
// the first half) that minimises the variance of the remaining batch means divided by
// their count, i.e. the estimated variance of the truncated mean. It returns 0 for fewer
// than 20 samples.
func MSER5(xs []float64) int {
	const m = 5
	k := len(xs) / m
	if k < 4 {
		return 0
	}
	bm := make([]float64, k)
	for i := range bm {
		var s float64
		for _, x := range xs[i*m : (i+1)*m] {
			s += x
		}
		bm[i] = s / m
	}
	// Suffix sums for O(k) evaluation of every truncation point.
	sum, sq := make([]float64, k+1), make([]float64, k+1)
	for i := k - 1; i >= 0; i-- {
		sum[i] = sum[i+1] + bm[i]
		sq[i] = sq[i+1] + bm[i]*bm[i]
	}
	best, bestD := math.Inf(1), 0
	for d := 0; d <= k/2; d++ {
		n := float64(k - d)
		mean := sum[d] / n
		v := (sq[d] - n*mean*mean) / (n * n)
		if v < best {
			best, bestD = v, d
		}
	}
	return bestD * m
}
