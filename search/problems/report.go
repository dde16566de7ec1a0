package problems

import (
	"fmt"
	"io"
	"math"

	"gnnsim/search"
)

// Summary is an NSGA-II run on a test problem: the hypervolume of its
// archive front and of its final population's front against a reference
// point, and the true front's where it is known in closed form.
type Summary struct {
	Problem          string    `json:"problem"`
	Evaluations      int       `json:"evaluations"`
	Reference        []float64 `json:"reference_point"`
	FrontPoints      int       `json:"front_points"`
	FrontHV          float64   `json:"front_hypervolume"`
	PopulationPoints int       `json:"population_points"`
	PopulationHV     float64   `json:"population_hypervolume"`
	TrueHV           *float64  `json:"true_hypervolume,omitempty"` // nil: not known in closed form
}

// NewSummary measures an NSGA-II run res on p against ref (nil: 1.1 per
// objective where p's true front is known, else 10 % beyond the front's
// worst).
func NewSummary(p *Problem, res *search.Result[[]float64], ref []float64) (*Summary, error) {
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
	s := &Summary{Problem: p.Name, Evaluations: len(res.Evaluated), Reference: ref, FrontPoints: len(front), PopulationPoints: len(popFront)}
	var err error
	if s.FrontHV, err = search.Hypervolume(front, ref); err != nil {
		return nil, err
	}
	if s.PopulationHV, err = search.Hypervolume(popFront, ref); err != nil {
		return nil, err
	}
	if want, known, err := p.TrueHypervolume(ref); err == nil && known {
		s.TrueHV = &want
	}
	return s, nil
}

// WriteText prints the summary, and how far short of the true front's
// hypervolume each front is.
func (s *Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "problem %s: %d evaluations, reference point %v\n", s.Problem, s.Evaluations, s.Reference)
	fmt.Fprintf(w, "archive front:    %5d points, hypervolume %.6g\n", s.FrontPoints, s.FrontHV)
	fmt.Fprintf(w, "final population: %5d points, hypervolume %.6g\n", s.PopulationPoints, s.PopulationHV)
	if s.TrueHV != nil {
		want := *s.TrueHV
		fmt.Fprintf(w, "true front:               hypervolume %.6g (archive %.2f%% short, population %.2f%% short)\n",
			want, 100*(1-s.FrontHV/want), 100*(1-s.PopulationHV/want))
	}
}

func onesTimes(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}
