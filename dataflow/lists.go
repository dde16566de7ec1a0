package dataflow

import "strings"

// ParseInters reads a comma-separated list of inter-phase dataflows, or
// all.
func ParseInters(s string) ([]Inter, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return Inters[:], nil
	}
	var out []Inter
	for _, part := range strings.Split(s, ",") {
		i, err := ParseInter(part)
		if err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, nil
}

// ParseTilings reads a comma-separated list of named tilings, all, or one
// custom recipe (T_Va=..,T_N=..).
func ParseTilings(s string) ([]Tiling, error) {
	s = strings.TrimSpace(s)
	switch {
	case strings.EqualFold(s, "all"):
		return NamedTilings(), nil
	case strings.Contains(s, "="):
		t, err := ParseTiling(s)
		if err != nil {
			return nil, err
		}
		return []Tiling{t}, nil
	}
	var out []Tiling
	for _, part := range strings.Split(s, ",") {
		t, err := Named(part)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
