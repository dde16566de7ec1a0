package seed003

import (
	"fmt"
	"math"
	"path/filepath"

	"gnnsim/repro/claims"
)

// ClaimIDs are the stable IDs of HADAS's headline claims in claims.csv
// (issue 36).
var ClaimIDs = []string{
	"a0_eex_saving_pct", "a0_eex_dvfs_saving_pct", "a6_eex_saving_pct", "a6_eex_dvfs_saving_pct",
	"best_backbone_eex_dvfs_saving_pct", "b1_vs_a0_energy_pct", "b1_vs_a6_energy_pct",
	"dvfs_gain_spread_pt", "fig6_hv_gain_pct", "fig7_rod_gain_pct",
}

// Paper figures not in paperTable3.
const (
	// Section V-B, Figure 6: on the TX2 Pascal GPU "the HV coverage is
	// 16 % ... more than the baselines'".
	paperFig6HV = 16
	// Section V-C, Figure 7: the dissimilarity term improves the RoD by
	// 41 %.
	paperFig7RoD = 41
)

// goals judge the claims: direction everywhere and HADAS's magnitudes
// (issue 36: savings within 10 points, best backbone >= 53 %, b1 vs a0 <=
// -10 %).
func goals() []claims.Goal {
	sv := func(i int) (eex, dv float64) {
		p := paperTable3[i].v
		return 100 * (1 - p[3]/p[2]), 100 * (1 - p[4]/p[2])
	}
	a0e, a0d := sv(0)
	a6e, a6d := sv(1)
	return []claims.Goal{
		claims.Within("a0_eex_saving_pct", "Table III: a0's early-exit saving", a0e, 10),
		claims.Within("a0_eex_dvfs_saving_pct", "Table III: a0's early-exit + DVFS saving", a0d, 10),
		claims.Within("a6_eex_saving_pct", "Table III: a6's early-exit saving", a6e, 10),
		claims.Within("a6_eex_dvfs_saving_pct", "Table III: a6's early-exit + DVFS saving", a6d, 10),
		claims.AtLeast("best_backbone_eex_dvfs_saving_pct", "Table III: the best searched backbone's early-exit + DVFS saving", 53),
		claims.AtMost("b1_vs_a0_energy_pct", "Headline: b1 (as accurate as a6) needs less energy than a0", -10),
		claims.Below("b1_vs_a6_energy_pct", "Headline: b1 needs less energy than a6", 0),
		claims.Above("dvfs_gain_spread_pt", "Table III: DVFS gains differ across backbones", 0),
		claims.Above("fig6_hv_gain_pct", "Figure 6: HADAS's hypervolume beats the optimised baselines'", 0),
		claims.Above("fig7_rod_gain_pct", "Figure 7: the dissimilarity term improves the ratio of dominance", 0),
	}
}

func (r *run) claim(id string, paper, measured float64, unit, note string, a ...any) {
	r.ledger.Set(id, paper, measured, unit, fmt.Sprintf(note, a...))
}

// saving returns 100 (1 - x / ref).
func saving(x, ref float64) float64 { return 100 * (1 - x/ref) }

// conclusions renders the verdicts, each read from the ledger.
func (r *run) conclusions() error {
	v, err := r.ledger.Verdicts(goals())
	if err != nil {
		return err
	}
	r.md.WriteString("## HADAS's conclusions, measured\n\nEach claim of the ledger against the issue's goal; the sections above and the ledger's notes give the details.\n\n" + v + "\n")
	return nil
}

// writeClaims orders and writes the ledger.
func (r *run) writeClaims() error {
	r.ledger.Order(ClaimIDs)
	if m := r.ledger.Missing(ClaimIDs); len(m) > 0 {
		return fmt.Errorf("seed003: claims not measured: %v", m)
	}
	path := filepath.Join(r.opts.Out, "claims.csv")
	if err := r.ledger.WriteFile(path); err != nil {
		return fmt.Errorf("seed003: %w", err)
	}
	r.rep.Files = append(r.rep.Files, path)
	return nil
}

func nan() float64 { return math.NaN() }
