// Package refset holds what gnnsim's reference-agreement checks share
// (STONNE-Omega in accel/omegaref, MAESTRO in soc/maestro, the FGNAS
// authors' cost model in accel/fpgaref): finding a reference set in the
// shared folder and the quantiles of their error summaries. Each check
// keeps its own file format, error measure and report, which differ on
// purpose (a zero reference is 100 % off for MAESTRO, infinitely for the
// cycle counts of the other two).
package refset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gnnsim/internal/shared"
)

// Find returns the folder of reference set sub (e.g. "omega-reference")
// holding file: $GNNSIM_SHARED/sub when GNNSIM_SHARED is set, else the
// first shared/sub found walking up from the working directory, else sub
// under shared.Root(). ok is false when that folder has no such file.
func Find(sub, file string) (dir string, ok bool) {
	has := func(d string) bool {
		st, err := os.Stat(filepath.Join(d, file))
		return err == nil && !st.IsDir()
	}
	if s := os.Getenv("GNNSIM_SHARED"); s != "" {
		d := filepath.Join(s, sub)
		return d, has(d)
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if c := filepath.Join(d, "shared", sub); has(c) {
				return c, true
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	d := filepath.Join(shared.Root(), sub)
	return d, has(d)
}

// Hint says where Find looked for reference set sub, for the error of a
// command that found none.
func Hint(sub string) string {
	if d := os.Getenv("GNNSIM_SHARED"); d != "" {
		return fmt.Sprintf("GNNSIM_SHARED=%s has no %s", d, sub)
	}
	return fmt.Sprintf("no shared/%s found above the working directory (set GNNSIM_SHARED to the shared folder)", sub)
}

// Quantile interpolates linearly between the order statistics of sorted x
// (numpy's default method, R's type 7); NaN for no values.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (h-float64(lo))*(sorted[hi]-sorted[lo])
}

// Summary returns the median, the 90th percentile (Quantile) and the
// maximum of errs, and a sorted copy of them; zeros and nil for none.
func Summary(errs []float64) (median, p90, max float64, sorted []float64) {
	if len(errs) == 0 {
		return 0, 0, 0, nil
	}
	sorted = slices.Clone(errs)
	slices.Sort(sorted)
	return Quantile(sorted, 0.5), Quantile(sorted, 0.9), sorted[len(sorted)-1], sorted
}

// Finite is &v, or nil when v is not finite (a relative error against
// 0): the optional error column of a long comparison table.
func Finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}
