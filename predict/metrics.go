package predict

import (
	"fmt"
	"math"
)

// Metrics are seed 002's Table 3 figures for one data set, all in percent.
// See the package documentation for their exact definitions.
type Metrics struct {
	Graphs                 int     // rows evaluated
	MAPE                   float64 // mean absolute percentage error of all predictions
	Top1, Top3             float64 // predicted choice among the true best 1 / 3
	ImprovementVsRandom    float64 // total latency saved vs a uniformly random configuration
	ImprovementVsBestFixed float64 // total latency saved vs the fixed configuration
	DegradationVsOptimal   float64 // total latency lost vs the true best configurations
}

// ArgMin returns the index of the smallest value, the first one on ties
// (-1 for an empty slice). It is how a configuration is chosen from
// predicted latencies.
func ArgMin(xs []float64) int {
	best := -1
	for i, x := range xs {
		if best < 0 || x < xs[best] {
			best = i
		}
	}
	return best
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkLatencies validates a graphs x configurations latency matrix.
func checkLatencies(what string, m [][]float64, positive bool) (cols int, err error) {
	if len(m) == 0 || len(m[0]) == 0 {
		return 0, fmt.Errorf("predict: %s latencies are empty", what)
	}
	cols = len(m[0])
	for g, row := range m {
		if len(row) != cols {
			return 0, fmt.Errorf("predict: %s latencies: row %d has %d configurations, row 0 has %d", what, g, len(row), cols)
		}
		for c, v := range row {
			if !finite(v) || (positive && v <= 0) {
				return 0, fmt.Errorf("predict: %s latency [%d][%d] = %v is not a positive finite number", what, g, c, v)
			}
		}
	}
	return cols, nil
}

// BestFixed returns the configuration with the smallest total true latency
// over the graphs of truth (first on ties): the best single configuration a
// non-adaptive accelerator could use. Choose it on the training split and
// pass it to Evaluate for the test sets.
func BestFixed(truth [][]float64) (int, error) {
	cols, err := checkLatencies("true", truth, true)
	if err != nil {
		return 0, err
	}
	total := make([]float64, cols)
	for _, row := range truth {
		for c, v := range row {
			total[c] += v
		}
	}
	return ArgMin(total), nil
}

// Evaluate computes the Metrics of predicted latencies pred against true
// latencies truth, both graphs x configurations, with fixed the index of the
// best fixed configuration (from BestFixed on the training data).
func Evaluate(truth, pred [][]float64, fixed int) (Metrics, error) {
	cols, err := checkLatencies("true", truth, true)
	if err != nil {
		return Metrics{}, err
	}
	if len(pred) != len(truth) {
		return Metrics{}, fmt.Errorf("predict: %d rows of predictions for %d rows of true latencies", len(pred), len(truth))
	}
	if _, err := checkLatencies("predicted", pred, false); err != nil {
		return Metrics{}, err
	}
	if len(pred[0]) != cols {
		return Metrics{}, fmt.Errorf("predict: %d predicted configurations, %d true ones", len(pred[0]), cols)
	}
	if fixed < 0 || fixed >= cols {
		return Metrics{}, fmt.Errorf("predict: fixed configuration %d outside [0, %d)", fixed, cols)
	}
	var ape, top1, top3, chosen, optimal, random, fixedTotal float64
	for g, row := range truth {
		c := ArgMin(pred[g])
		rank := 0 // configurations strictly faster than the chosen one
		sum := 0.0
		best := row[0]
		for k, v := range row {
			ape += math.Abs(pred[g][k]-v) / v
			if v < row[c] {
				rank++
			}
			sum += v
			best = min(best, v)
		}
		if rank < 1 {
			top1++
		}
		if rank < 3 {
			top3++
		}
		chosen += row[c]
		optimal += best
		random += sum / float64(cols)
		fixedTotal += row[fixed]
	}
	n := float64(len(truth))
	return Metrics{
		Graphs:                 len(truth),
		MAPE:                   100 * ape / (n * float64(cols)),
		Top1:                   100 * top1 / n,
		Top3:                   100 * top3 / n,
		ImprovementVsRandom:    100 * (random - chosen) / random,
		ImprovementVsBestFixed: 100 * (fixedTotal - chosen) / fixedTotal,
		DegradationVsOptimal:   100 * (chosen - optimal) / optimal,
	}, nil
}
