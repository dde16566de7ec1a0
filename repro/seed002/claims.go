package seed002

import (
	"fmt"
	"math"
	"path/filepath"

	"gnnsim/repro/claims"
)

// ClaimIDs are the stable IDs of seed 002's headline claims in claims.csv
// (issue 36).
var ClaimIDs = []string{
	"medium_mape_pct", "medium_top1_pct", "improvement_over_random_medium_pct",
	"sched_completion_speedup_x", "sched_execution_speedup_x",
}

// ClaimsFile is the ledger of a run.
const ClaimsFile = "claims.csv"

// Seed 002's scheduling claims (abstract; Section 4.2): "up to 3.17x
// speedup in mean completion time and 6.26x speedup in mean execution time
// compared to the best feasible baseline".
const paperCompletionX, paperExecutionX = 3.17, 6.26

// Ledger measures seed 002's claims from a run's summary: Table 3's
// Graphlaxy.Medium row (paper: seedTable3, its Table 3) and SJF-Predicted's
// scenario-1 speed-ups over the best feasible baseline, inference charged.
func (s *Summary) Ledger() *claims.Ledger {
	var l claims.Ledger
	var paper seedRow
	for _, r := range seedTable3 {
		if r.name == "Graphlaxy.Medium" {
			paper = r
		}
	}
	mape, top1, rnd, note := math.NaN(), math.NaN(), math.NaN(), "no Graphlaxy.Medium row in Table 3"
	for _, r := range s.Table3 {
		if SeedName(r.Dataset) == "Graphlaxy.Medium" {
			mape, top1, rnd = r.MAPE, r.Top1, r.ImprovementVsRandom
			note = fmt.Sprintf("Table 3, %s, %d test graphs (%s labels)", r.Dataset, r.Graphs, r.Mode)
		}
	}
	l.Set("medium_mape_pct", paper.mape, mape, "pct", note)
	l.Set("medium_top1_pct", paper.top1, top1, "pct", note)
	spread := ""
	if w, ok := widestSpread(s.Spread, "medium"); ok {
		spread = fmt.Sprintf("; widest (F, G) setting of the spread study %s: %.1f %% (random %.2fx the optimum; the paper's figure needs %.1fx)", w.Setting(), w.ImprovementVsRandom, w.RandomOverOptimal, 1/(1-paper.rnd/100))
	}
	if w, ok := widestSetting(s.Settings, func(SettingsRow) bool { return true }); ok {
		o, _ := widestSetting(s.Settings, func(x SettingsRow) bool { return x.Mode == "omega" && x.PEs == 512 })
		spread += fmt.Sprintf("; settings search: widest R/O %.2fx at %s, %.2fx on the seed's 512-PE Omega model (%s)", w.RandomOverOptimal, w, o.RandomOverOptimal, o)
	}
	l.Set("improvement_over_random_medium_pct", paper.rnd, rnd, "pct", note+spread)
	for _, c := range []struct {
		id, metric string
		paper      float64
	}{{"sched_completion_speedup_x", "completion", paperCompletionX}, {"sched_execution_speedup_x", "execution", paperExecutionX}} {
		v, n := math.NaN(), "no scenario-1 run"
		for _, sp := range s.Speedups {
			if sp.Scenario == int32(Scenario1) && sp.Metric == c.metric && sp.Policy != NoChargeName {
				v = sp.Speedup
				n = fmt.Sprintf("scenario 1, SJF-Predicted (inference charged) over %s (feasible %v), %d jobs (%s), mean over seeds; the paper's is \"up to\"", sp.Baseline, sp.BaselineFeasible, s.Jobs, s.JobsFrom)
			}
		}
		l.Set(c.id, c.paper, v, "x", n)
	}
	return &l
}

// widestSpread returns the spread study's setting of preset (single or
// range) with the largest improvement over random (Closest).
func widestSpread(rows []SpreadRow, preset string) (SpreadRow, bool) {
	var sel []SpreadRow
	for _, r := range rows {
		if r.Dataset == "Graphlaxy."+preset {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		return SpreadRow{}, false
	}
	_, w := Closest(sel)
	return w, true
}

func writeClaims(out string, l *claims.Ledger) error {
	if err := l.WriteFile(filepath.Join(out, ClaimsFile)); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}
