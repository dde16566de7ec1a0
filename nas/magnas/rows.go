package magnas

import (
	"fmt"
	"strings"

	"gnnsim/internal/pqio"
)

// Row is one evaluated candidate in a MaGNAS Parquet table: an outer
// candidate (an architecture and the cost of its chosen mapping) or an
// inner one (one mapping of an architecture).
type Row struct {
	Experiment string `parquet:"experiment"`
	// Level is "outer" (an architecture scored by its m*), "inner" (a
	// mapping evaluated by an inner search), "standalone" (a whole model
	// on one unit) or "dvfs" (m* at one DVFS setting).
	Level       string  `parquet:"level"`
	Search      string  `parquet:"search"` // "nsga2", "random", ...
	Seed        int64   `parquet:"seed"`
	Candidate   int64   `parquet:"candidate"`
	Parent      int64   `parquet:"parent"` // the outer candidate of an inner row, else -1
	Generation  int64   `parquet:"generation"`
	Arch        string  `parquet:"arch"`
	Granularity string  `parquet:"granularity"`
	Mapping     string  `parquet:"mapping"` // a unit letter per mapping gene
	DVFS        string  `parquet:"dvfs"`
	LatencyMS   float64 `parquet:"latency_ms"`
	EnergyMJ    float64 `parquet:"energy_mj"`
	PowerW      float64 `parquet:"power_w"`
	Transitions int64   `parquet:"transitions"`
	Score       float64 `parquet:"score_eq13"`
	Fitness     float64 `parquet:"fitness_eq12"`
	Top1        float64 `parquet:"top1"`
	Top1Source  string  `parquet:"top1_source"`
	Feasible    bool    `parquet:"feasible"`
	Fallback    bool    `parquet:"fallback"`
	Front       bool    `parquet:"front"`
}

// MappingString renders a mapping with one letter per gene: the units'
// letters (Platform.Letters).
func MappingString(p *Platform, m []int) string {
	letters := p.Letters()
	var b strings.Builder
	for _, u := range m {
		b.WriteString(letters[u])
	}
	return b.String()
}

// Letters are one-character names of the units: the first letter of each
// name, upper-cased ("gpu" -> "G"), or for names "<prefix>-<x>" the
// letter after the dash ("dsa-k" -> "k"); unit indices if those collide.
func (p *Platform) Letters() []string {
	out := make([]string, len(p.Units))
	seen := map[string]bool{}
	ok := true
	for i, n := range p.Units {
		l := "?"
		if j := strings.LastIndexByte(n, '-'); j >= 0 && j+1 < len(n) {
			l = n[j+1 : j+2]
		} else if n != "" {
			l = strings.ToUpper(n[:1])
		}
		ok = ok && !seen[l]
		seen[l] = true
		out[i] = l
	}
	if !ok || len(p.Units) > 10 {
		for i := range out {
			out[i] = fmt.Sprint(i % 10)
		}
	}
	return out
}

// PointRow fills a row from a mapping point.
func PointRow(p *Platform, pt Point) Row {
	return Row{
		Mapping: MappingString(p, pt.Mapping), DVFS: p.SettingName(pt.Setting),
		LatencyMS: pt.TimePS * 1e-9, EnergyMJ: pt.EnergyPJ * 1e-9, PowerW: pt.PowerW(),
		Transitions: int64(pt.Transitions), Score: pt.Score, Feasible: pt.Feasible, Parent: -1,
	}
}

// InnerRows returns a row per candidate of an inner search (and per DVFS
// setting tried for m*), front membership marked.
func InnerRows(e *Engine, r *InnerResult, experiment, arch string, parent int64) []Row {
	kind := "nsga2"
	if e.Cfg.Random {
		kind = "random"
	}
	rows := make([]Row, 0, len(r.Search.Evaluated)+len(r.DVFS))
	for _, ind := range r.Search.Evaluated {
		row := PointRow(e.P, e.PointOf(ind.Genome))
		row.Experiment, row.Level, row.Search, row.Arch, row.Parent = experiment, "inner", kind, arch, parent
		row.Candidate, row.Generation = int64(ind.ID), int64(ind.Generation)
		row.Granularity = e.T.Granularity.String()
		row.Front = ind.Rank == 0 && ind.Feasible()
		rows = append(rows, row)
	}
	for i, pt := range r.DVFS {
		row := PointRow(e.P, pt)
		row.Experiment, row.Level, row.Search, row.Arch, row.Parent = experiment, "dvfs", "brute-force", arch, parent
		row.Candidate, row.Granularity = int64(i), e.T.Granularity.String()
		row.Front = pt.Setting == r.Best.Setting
		rows = append(rows, row)
	}
	return rows
}

// OuterRows returns a row per outer candidate and, when inner is set, the
// inner rows of each architecture's search (under its first candidate).
func OuterRows(s *Searcher, cfg Config, res *Result, experiment string, inner bool) ([]Row, error) {
	var rows []Row
	search := "nested"
	if cfg.Standalone >= 0 {
		search = "outer-only:" + s.Costs.P.Units[cfg.Standalone]
	}
	for _, c := range res.Candidates {
		row := PointRow(s.Costs.P, c.Best)
		row.Experiment, row.Level, row.Search, row.Seed = experiment, "outer", search, int64(cfg.Seed)
		row.Candidate, row.Generation, row.Arch, row.Granularity = int64(c.ID), int64(c.Generation), c.Arch.String(), cfg.Granularity.String()
		row.Fitness, row.Top1, row.Top1Source = c.F, c.Top1, res.AccuracySource
		row.Fallback, row.Front = c.Fallback, c.Front
		rows = append(rows, row)
		if inner && c.Inner != nil {
			e, err := s.Engine(c.Arch, cfg.Granularity, cfg.Inner)
			if err != nil {
				return nil, err
			}
			for _, r := range InnerRows(e, c.Inner, experiment, c.Arch.String(), int64(c.ID)) {
				r.Seed = int64(cfg.Seed)
				rows = append(rows, r)
			}
		}
	}
	return rows, nil
}

// WriteRows writes rows to path through pqio (temp file and rename), with
// metadata.
func WriteRows(path string, rows []Row, meta map[string]string) error {
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("magnas: %w", err)
	}
	return nil
}
