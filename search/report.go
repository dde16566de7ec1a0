package search

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"gnnsim/internal/pqio"
)

// ParsePoint parses a comma-separated point of m objective values (any
// number when m is 0), as a hypervolume's reference point; an empty
// string gives nil (use the default).
func ParsePoint(s string, m int) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if m > 0 && len(parts) != m {
		return nil, fmt.Errorf("%d values for %d objectives", len(parts), m)
	}
	ref := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i+1, err)
		}
		ref[i] = v
	}
	return ref, nil
}

// FrontHV is the hypervolume of one search's front in a result file (a
// JSON object, a Parquet row).
type FrontHV struct {
	Search      string  `json:"search" parquet:"search"`
	Points      int     `json:"points" parquet:"points"`
	Hypervolume float64 `json:"hypervolume" parquet:"hypervolume"`
}

// FrontHypervolumes measures the hypervolume, against ref, of the front
// rows of the given kind in the search result file path, one per search
// in the file's order.
func FrontHypervolumes(path, kind string, ref []float64) ([]FrontHV, error) {
	rows, _, err := pqio.Read[Row](path)
	if err != nil {
		return nil, err
	}
	var order []string
	points := map[string][][]float64{}
	for _, r := range rows {
		if r.Kind != kind || !r.Front {
			continue
		}
		if _, ok := points[r.Search]; !ok {
			order = append(order, r.Search)
		}
		points[r.Search] = append(points[r.Search], r.Objectives)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no front rows of kind %q", path, kind)
	}
	out := make([]FrontHV, len(order))
	for i, s := range order {
		hv, err := Hypervolume(points[s], ref)
		if err != nil {
			return nil, fmt.Errorf("%s: search %s: %w", path, s, err)
		}
		out[i] = FrontHV{s, len(points[s]), hv}
	}
	return out, nil
}

// WriteFrontHypervolumes prints the hypervolumes, one line per search.
func WriteFrontHypervolumes(w io.Writer, hs []FrontHV) {
	for _, h := range hs {
		fmt.Fprintf(w, "%s: %d front points, hypervolume %.6g\n", h.Search, h.Points, h.Hypervolume)
	}
}
