package seed004

import (
	"fmt"
	"math"
	"slices"

	"gnnsim/repro/claims"
)

// Claim IDs of FGNAS's headline (abstract; Section 4.3, Table 3: "the
// joint search achieves the best accuracy ... while there exists
// variance"), one set per cost model: Table 3's best test accuracy of
// joint search minus random's and minus separate's, mean over the
// specifications where both found a feasible design, and on how many
// specifications joint search found one.
func claimIDs(model string) []string {
	return []string{
		"table3_" + model + "_joint_minus_random_pt",
		"table3_" + model + "_joint_minus_separate_pt",
		"table3_" + model + "_specs_joint_found",
	}
}

// ledger measures the claims from Table 3's cells (best test accuracy by
// FGNAS's rule, Cell.BestTest, of the cells that found a design).
func ledger(rep *Report) *claims.Ledger {
	var l claims.Ledger
	var models []string
	for _, c := range rep.Table3 {
		if !slices.Contains(models, c.Model) {
			models = append(models, c.Model)
		}
	}
	all := Table3Limits()
	for _, m := range models {
		ids := claimIDs(m)
		for d, other := range []string{"random", "separate"} {
			var ours, paper []float64
			specs := 0
			for _, lim := range all {
				var j, o *Cell
				for i := range rep.Table3 {
					c := &rep.Table3[i]
					if c.Model == m && c.Limits == lim {
						switch c.Method {
						case "joint":
							j = c
						case other:
							o = c
						}
					}
				}
				if j == nil || o == nil {
					continue
				}
				specs++
				k := slices.Index(all, lim)
				paper = append(paper, published3Acc[k][0]-published3Acc[k][1+d])
				if j.Found > 0 && o.Found > 0 {
					ours = append(ours, 100*(j.BestTest-o.BestTest))
				}
			}
			l.Set(ids[d], mean(paper), mean(ours), "pt", fmt.Sprintf("%s model: mean over the %d of %d specifications run where both found a feasible design (paper: mean over the same specifications of Table 3)", m, len(ours), specs))
		}
		found, specs := 0, 0
		for _, c := range rep.Table3 {
			if c.Model == m && c.Method == "joint" {
				specs++
				if c.Found > 0 {
					found++
				}
			}
		}
		l.Set(ids[2], float64(specs), float64(found), "count", fmt.Sprintf("%s model: specifications (of %d run) where joint search trained a feasible design; the paper reports an accuracy for each", m, specs))
	}
	return &l
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
