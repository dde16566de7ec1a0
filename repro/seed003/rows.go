package seed003

import (
	"fmt"
	"strings"

	"gnnsim/nas/hadas"
)

// Row is one evaluated design in seed003.parquet: a backbone's static
// evaluation or one inner-front point (exits and DVFS setting) of it.
type Row struct {
	Experiment string `parquet:"experiment"` // "hadas", "baseline", "ablation"
	// Level is "static" (the backbone at MaxN, no exits) or "front" (a
	// point of its inner Pareto front).
	Level       string  `parquet:"level"`
	Model       string  `parquet:"model"` // a0-a6, or the candidate's index
	Arch        string  `parquet:"arch"`
	Seed        int64   `parquet:"seed"`
	Generation  int64   `parquet:"generation"`
	DVFS        bool    `parquet:"dvfs_searched"`
	Gamma       float64 `parquet:"gamma"`
	Exits       string  `parquet:"exits"`
	Setting     string  `parquet:"setting"`
	Top1        float64 `parquet:"top1"`
	Top1Source  string  `parquet:"top1_source"`
	EnergyMJ    float64 `parquet:"energy_mj"`
	LatencyMS   float64 `parquet:"latency_ms"`
	EnergyRatio float64 `parquet:"energy_ratio"`
	Coverage    float64 `parquet:"coverage"`
	Coverage0   float64 `parquet:"coverage_gamma0"`
	ScoreD      float64 `parquet:"score_d"`
	OuterFront  bool    `parquet:"outer_front"`
}

// MetricRow is one hypervolume / ratio-of-dominance figure (Figures 6, 7).
type MetricRow struct {
	Figure string  `parquet:"figure"`
	Space  string  `parquet:"space"` // the objective space of the sets
	Set    string  `parquet:"set"`   // "hadas", "baselines", "gamma=..."
	Other  string  `parquet:"other"` // the set RoD is measured against
	Seed   int64   `parquet:"seed"`
	HV     float64 `parquet:"hypervolume"`
	RoD    float64 `parquet:"ratio_of_dominance"`
	Points int64   `parquet:"points"`
	// MeanGap is the mean distance between consecutive exits of the
	// front points (Figure 7).
	MeanGap float64 `parquet:"mean_exit_gap"`
}

func exitsString(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, "-")
}

func (r *run) staticRow(exp, model string, c hadas.Candidate, src string, seed uint64) Row {
	return Row{Experiment: exp, Level: "static", Model: model, Arch: c.Arch.String(), Seed: int64(seed), Generation: int64(c.Generation),
		Setting: r.tg.P.SettingName(r.tg.P.MaxN()), Top1: c.Top1, Top1Source: src, EnergyMJ: c.EnergyPJ * 1e-9,
		LatencyMS: c.LatencyPS * 1e-9, EnergyRatio: 1, OuterFront: c.OnFront}
}

func (r *run) frontRows(exp, model string, c hadas.Candidate, src string, seed uint64, cfg hadas.InnerConfig) []Row {
	var out []Row
	for _, p := range c.Inner.Front {
		out = append(out, Row{Experiment: exp, Level: "front", Model: model, Arch: c.Arch.String(), Seed: int64(seed),
			Generation: int64(c.Generation), DVFS: cfg.DVFS, Gamma: cfg.Gamma, Exits: exitsString(p.Exits),
			Setting: r.tg.P.SettingName(p.Setting), Top1: p.Top1, Top1Source: src, EnergyMJ: p.EnergyPJ * 1e-9,
			LatencyMS: p.LatencyPS * 1e-9, EnergyRatio: p.EnergyRatio, Coverage: p.Coverage, Coverage0: p.Coverage0,
			ScoreD: p.Score, OuterFront: c.OnFront})
	}
	return out
}
