package gbdt

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Dataset is a table of feature rows and their regression targets.
type Dataset struct {
	// X holds one row of feature values per example; all rows have the same
	// length. Values must be finite: missing values (NaN) are not supported.
	X [][]float64
	// Y holds the target of each row (len(Y) == len(X)), finite.
	Y []float64
	// FeatureNames optionally names the columns (written to the model file).
	// Names must be non-empty and free of whitespace and '='; nil means
	// LightGBM's defaults Column_0, Column_1, ...
	FeatureNames []string
}

// NumFeatures returns the row width (0 for an empty dataset).
func (d *Dataset) NumFeatures() int {
	if len(d.X) == 0 {
		return 0
	}
	return len(d.X[0])
}

// validate checks shape and values; what names the dataset in errors.
func (d *Dataset) validate(what string) error {
	if len(d.X) == 0 {
		return fmt.Errorf("gbdt: %s set is empty", what)
	}
	if len(d.X) > math.MaxInt32 {
		return fmt.Errorf("gbdt: %s set has %d rows, more than %d", what, len(d.X), math.MaxInt32)
	}
	if len(d.Y) != len(d.X) {
		return fmt.Errorf("gbdt: %s set has %d rows but %d targets", what, len(d.X), len(d.Y))
	}
	nf := len(d.X[0])
	if nf == 0 {
		return fmt.Errorf("gbdt: %s set has no features", what)
	}
	for i, row := range d.X {
		if len(row) != nf {
			return fmt.Errorf("gbdt: %s row %d has %d features, row 0 has %d", what, i, len(row), nf)
		}
		for j, v := range row {
			if !finite(v) {
				return fmt.Errorf("gbdt: %s row %d feature %d is %v (missing or infinite values are not supported)", what, i, j, v)
			}
		}
		if y := d.Y[i]; !finite(y) {
			return fmt.Errorf("gbdt: %s row %d target is %v", what, i, y)
		}
	}
	if d.FeatureNames != nil {
		if err := checkFeatureNames(d.FeatureNames, nf); err != nil {
			return fmt.Errorf("gbdt: %s set: %w", what, err)
		}
	}
	return nil
}

func checkFeatureNames(names []string, nf int) error {
	if len(names) != nf {
		return fmt.Errorf("%d feature names for %d features", len(names), nf)
	}
	for i, n := range names {
		// The model file separates names by spaces and keys from values
		// by '=', so either would corrupt it.
		if n == "" || strings.ContainsAny(n, " \t\r\n=") {
			return fmt.Errorf("feature name %d %q is empty or contains whitespace or '='", i, n)
		}
	}
	return nil
}

func defaultFeatureNames(nf int) []string {
	names := make([]string, nf)
	for i := range names {
		names[i] = fmt.Sprintf("Column_%d", i)
	}
	return names
}

// binMapper maps one feature's raw values to histogram bins. Bin b holds
// the values x with upper[b-1] < x <= upper[b]; the last bin is unbounded
// above. Splitting after bin b is therefore the raw rule x <= upper[b],
// which is the threshold written to the model file: training rows go the
// same way whether routed by bin or by raw value.
type binMapper struct {
	upper    []float64 // len = numBins-1
	min, max float64
}

func (m *binMapper) numBins() int { return len(m.upper) + 1 }

func (m *binMapper) bin(x float64) uint8 {
	// First b with x <= upper[b], else the last bin.
	lo, hi := 0, len(m.upper)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if x <= m.upper[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return uint8(lo)
}

// newBinMapper builds the bins of one feature from its training values
// (which it sorts in place). With at most maxBin distinct values every value
// gets its own bin; otherwise bins hold roughly equal numbers of rows (quantile
// bins), cut only between distinct values.
func newBinMapper(vals []float64, maxBin int) binMapper {
	slices.Sort(vals)
	distinct := make([]float64, 0, min(len(vals), maxBin+1))
	counts := make([]int, 0, cap(distinct))
	for i, v := range vals {
		if i == 0 || v != vals[i-1] {
			distinct = append(distinct, v)
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
	}
	m := binMapper{min: vals[0], max: vals[len(vals)-1]}
	nd := len(distinct)
	if nd <= maxBin {
		m.upper = make([]float64, nd-1)
		for i := range m.upper {
			m.upper[i] = between(distinct[i], distinct[i+1])
		}
		return m
	}
	m.upper = make([]float64, 0, maxBin-1)
	rest, restBins, acc := len(vals), maxBin, 0
	for i := 0; i < nd-1 && restBins > 1; i++ {
		acc += counts[i]
		// Close the bin once it holds its share of the remaining rows, or
		// when every remaining distinct value is needed for a bin of its own.
		if float64(acc)*float64(restBins) >= float64(rest) || nd-1-i <= restBins-1 {
			m.upper = append(m.upper, between(distinct[i], distinct[i+1]))
			rest -= acc
			restBins--
			acc = 0
		}
	}
	return m
}

// between returns a threshold t with a <= t < b, near the midpoint, so that
// x <= t separates the training values a and b and a future value between
// them goes to the nearer side.
func between(a, b float64) float64 {
	t := a + (b-a)/2
	if math.IsInf(t, 0) || math.IsNaN(t) {
		t = a/2 + b/2
	}
	if !(t >= a && t < b) {
		t = a
	}
	return t
}
