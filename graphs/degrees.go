package graphs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// PowerLawRows returns the row pointers (a CSR RowPtr, len n+1) of an n-row
// adjacency whose row lengths follow a truncated power law
// P(d) ∝ d^-gamma on [xmin, dmax], with xmin chosen so that the lengths add
// up to exactly total, in a random order drawn from seed. It is a degree
// profile, not a graph: the column indices are never made, so a 115 M-entry
// profile (Reddit's) costs 1 MB, not 460.
//
// The lengths are the distribution's quantiles at (i+0.5)/n, not random
// draws: the profile has the law's shape without sampling noise, and only
// the row order depends on seed. Rounding to whole entries is corrected by
// adding or removing one entry at a time, longest rows first (the tail
// carries the remainder; no row goes below 1 or above dmax).
//
// Bad input is an error: n < 1, total outside [n, n*dmax] or above the
// int32 range of a RowPtr, gamma <= 1 or not finite, dmax < 1.
func PowerLawRows(n int, total int64, gamma float64, dmax int, seed uint64) ([]int32, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("graphs: power-law rows: %d rows, want >= 1", n)
	case dmax < 1:
		return nil, fmt.Errorf("graphs: power-law rows: largest row %d, want >= 1", dmax)
	case !(gamma > 1) || math.IsInf(gamma, 0):
		return nil, fmt.Errorf("graphs: power-law rows: exponent %v, want > 1", gamma)
	case total < int64(n) || total > int64(n)*int64(dmax):
		return nil, fmt.Errorf("graphs: power-law rows: %d entries on %d rows of at most %d, want %d..%d", total, n, dmax, n, int64(n)*int64(dmax))
	case total > math.MaxInt32:
		return nil, fmt.Errorf("graphs: power-law rows: %d entries exceed a RowPtr's int32 range", total)
	}
	lens := make([]int64, n)
	fill := func(xmin float64) int64 {
		var s int64
		a := 1 - gamma
		lo, hi := math.Pow(xmin, a), math.Pow(float64(dmax)+1, a)
		for i := range lens {
			u := (float64(i) + 0.5) / float64(n)
			x := math.Pow(lo+u*(hi-lo), 1/a)
			d := min(max(int64(x), 1), int64(dmax))
			lens[i] = d
			s += d
		}
		return s
	}
	// The sum grows with xmin: bisect on [1, dmax+1).
	lo, hi := 1.0, float64(dmax)+1
	for range 60 {
		mid := (lo + hi) / 2
		if fill(mid) < total {
			lo = mid
		} else {
			hi = mid
		}
	}
	s := fill(lo)
	// Correct the rounding: the quantiles are sorted ascending, so walk
	// from the longest row down.
	for i := n - 1; s != total; i-- {
		if i < 0 {
			i = n - 1
		}
		switch {
		case s < total && lens[i] < int64(dmax):
			lens[i]++
			s++
		case s > total && lens[i] > 1:
			lens[i]--
			s--
		}
	}
	r := rand.New(rand.NewPCG(seed, 0xdec0de))
	r.Shuffle(n, func(i, j int) { lens[i], lens[j] = lens[j], lens[i] })
	ptr := make([]int32, n+1)
	for i, d := range lens {
		ptr[i+1] = ptr[i] + int32(d)
	}
	return ptr, nil
}

// RowStats summarises the row lengths of a RowPtr: their mean, the
// longest, the median and the coefficient of variation (standard deviation
// over mean, the skew a static row-to-PE mapping suffers from).
type RowStats struct {
	Rows         int
	Entries      int64
	Mean, CV     float64
	Median, Max  int64
	P99          int64   // 99th percentile row length
	Top1PctShare float64 // fraction of the entries in the longest 1 % of rows
}

// RowPtrStats returns the RowStats of ptr (len rows+1, non-decreasing).
func RowPtrStats(ptr []int32) (RowStats, error) {
	if len(ptr) < 2 || ptr[0] != 0 {
		return RowStats{}, fmt.Errorf("graphs: row stats: %d row pointers starting at %v, want >= 2 from 0", len(ptr), ptr[:min(1, len(ptr))])
	}
	n := len(ptr) - 1
	lens := make([]int64, n)
	var sum, sq float64
	for i := range lens {
		d := int64(ptr[i+1]) - int64(ptr[i])
		if d < 0 {
			return RowStats{}, fmt.Errorf("graphs: row stats: row %d has length %d", i, d)
		}
		lens[i] = d
		sum += float64(d)
		sq += float64(d) * float64(d)
	}
	slices.Sort(lens)
	st := RowStats{Rows: n, Entries: int64(ptr[n]), Mean: sum / float64(n), Median: lens[n/2], Max: lens[n-1], P99: lens[min(n-1, n*99/100)]}
	if st.Mean > 0 {
		v := sq/float64(n) - st.Mean*st.Mean
		st.CV = math.Sqrt(max(v, 0)) / st.Mean
	}
	var top int64
	for _, d := range lens[n-max(1, n/100):] {
		top += d
	}
	if st.Entries > 0 {
		st.Top1PctShare = float64(top) / float64(st.Entries)
	}
	return st, nil
}
