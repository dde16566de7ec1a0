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

// WriteFrontHypervolumes prints the hypervolume, against ref, of the
// front rows of the given kind in the search result file path, one line
// per search in the file's order.
func WriteFrontHypervolumes(w io.Writer, path, kind string, ref []float64) error {
	rows, _, err := pqio.Read[Row](path)
	if err != nil {
		return err
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
		return fmt.Errorf("%s: no front rows of kind %q", path, kind)
	}
	for _, s := range order {
		hv, err := Hypervolume(points[s], ref)
		if err != nil {
			return fmt.Errorf("%s: search %s: %w", path, s, err)
		}
		fmt.Fprintf(w, "%s: %d front points, hypervolume %.6g\n", s, len(points[s]), hv)
	}
	return nil
}
