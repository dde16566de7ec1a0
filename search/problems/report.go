package problems

import (
	"fmt"
	"io"
	"math"

	"gnnsim/search"
)

// WriteSummary prints an NSGA-II run res on p: the hypervolume of its
// archive front and of its final population's front against ref (nil: 1.1
// per objective where p's true front is known, else 10 % beyond the
// front's worst), and how far short of the true front's each is.
func WriteSummary(w io.Writer, p *Problem, res *search.Result[[]float64], ref []float64) error {
	var front, popFront [][]float64
	for _, ind := range res.Front {
		front = append(front, ind.Objectives)
	}
	for _, ind := range res.Population {
		if ind.Rank == 0 && ind.Feasible() {
			popFront = append(popFront, ind.Objectives)
		}
	}
	if ref == nil {
		ref = onesTimes(p.NumObjectives, 1.1)
		if _, known, _ := p.TrueHypervolume(ref); !known {
			for j := range ref {
				worst := math.Inf(-1)
				for _, f := range front {
					worst = max(worst, f[j])
				}
				if len(front) == 0 {
					worst = 0
				}
				ref[j] = worst + 0.1*math.Abs(worst)
			}
		}
	}
	hvFront, err := search.Hypervolume(front, ref)
	if err != nil {
		return err
	}
	hvPop, err := search.Hypervolume(popFront, ref)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "problem %s: %d evaluations, reference point %v\n", p.Name, len(res.Evaluated), ref)
	fmt.Fprintf(w, "archive front:    %5d points, hypervolume %.6g\n", len(front), hvFront)
	fmt.Fprintf(w, "final population: %5d points, hypervolume %.6g\n", len(popFront), hvPop)
	if want, known, err := p.TrueHypervolume(ref); err == nil && known {
		fmt.Fprintf(w, "true front:               hypervolume %.6g (archive %.2f%% short, population %.2f%% short)\n",
			want, 100*(1-hvFront/want), 100*(1-hvPop/want))
	}
	return nil
}

func onesTimes(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}
