package graphs

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"

	"gnnsim/internal/par"
)

// Fitting Graphlaxy's Beta shapes.
//
// Graphlaxy spreads a data set over a 2-D projection, (clustering
// coefficient, log10 density), by choosing the shapes of the Beta
// distributions its R-MAT parameters are drawn from. It scores a choice by
// the Nash bargaining product over the cells of a grid on that projection,
// -(1/M) sum_k log2(1 + (M-1) p_k), with p_k the probability that a graph
// lands in cell k: lowest when every reachable cell is equally likely.
//
// The p_k are estimated without generating a new set per candidate: a
// baseline set is drawn once with uniform shapes, and each baseline graph
// is weighted by the density of its unit draws under the candidate shapes
// (importance sampling: the baseline draws are uniform, so the weight is
// just the product of four Beta densities). Graphlaxy does the same with
// CDF mass over parameter buckets; weighting the exact draws is simpler and
// converges to the true p_k as the baseline grows. Graphs outside the grid
// keep their weight in the total, so mass spent outside the target region
// counts against a candidate.

// NewGraphlaxySpread returns the empty histogram of Graphlaxy's default
// projection grid: 15 x 15 cells (Graphlaxy's grid size) over clustering
// [0, 1] x log10 networkx density [-4, -1], the region the generator's
// default edge range reaches (N >= sqrt(20E) caps the density near 0.1).
func NewGraphlaxySpread() *Spread { return NewSpread(15, -4, -1, 15) }

// GraphlaxySample is one baseline graph: the unit Beta draws its
// parameters came from (a, b, c, N) and where the graph landed.
type GraphlaxySample struct {
	U          [4]float64
	Clustering float64 // average clustering (Features.Clustering)
	LogDensity float64 // log10 of networkx density (Features.NXDensity)
}

// GraphlaxyBaseline draws count graphs with uniform shapes and E from
// [minE, maxE] (log-uniform when logE, as the generator's log_edges), graph
// i from the (seed, i) stream as GenerateSet does, and measures each one.
// It runs in parallel.
func GraphlaxyBaseline(minE, maxE int, logE bool, count int, seed uint64) ([]GraphlaxySample, error) {
	if minE < 1 || maxE < minE || count < 1 {
		return nil, fmt.Errorf("graphlaxy baseline: bad edge range [%d, %d] or count %d", minE, maxE, count)
	}
	out := make([]GraphlaxySample, count)
	err := par.For(count, 0, func(i int) error {
		rng, _ := graphRand(seed, i)
		g, d, err := graphlaxyGraph(graphlaxyConfig{minE, maxE, logE, UniformGraphlaxyBetas}, rng)
		if err != nil {
			return fmt.Errorf("graphlaxy baseline graph %d: %w", i, err)
		}
		f := ComputeFeatures(g)
		out[i] = GraphlaxySample{U: d.U, Clustering: f.Clustering, LogDensity: math.Log10(f.NXDensity)}
		return nil
	})
	return out, err
}

// GraphlaxyScore returns the bargaining objective, on the cells of grid
// (its counts are not used), of drawing from samples (a uniform baseline)
// with shapes bt: in [-1, 0], lower is more even. It returns +Inf for
// invalid shapes or no samples.
func GraphlaxyScore(samples []GraphlaxySample, bt GraphlaxyBetas, grid *Spread) float64 {
	if bt.Validate() != nil || len(samples) == 0 {
		return math.Inf(1)
	}
	x := bt.array()
	// log of each Beta's normalising constant, hoisted out of the loop.
	var lnorm [4]float64
	for j := range lnorm {
		lnorm[j] = mathext.Lbeta(x[2*j], x[2*j+1])
	}
	logw := make([]float64, len(samples))
	top := math.Inf(-1)
	for i, s := range samples {
		lw := 0.0
		for j, u := range s.U {
			u = min(max(u, 1e-12), 1-1e-12)
			lw += (x[2*j]-1)*math.Log(u) + (x[2*j+1]-1)*math.Log1p(-u) - lnorm[j]
		}
		logw[i] = lw
		top = max(top, lw)
	}
	m := grid.ClusteringBins * grid.LogDensityBins
	cells := make([]float64, m)
	total := 0.0
	for i, s := range samples {
		w := math.Exp(logw[i] - top)
		total += w
		if i, j, ok := grid.cell(s.Clustering, s.LogDensity); ok {
			cells[i*grid.LogDensityBins+j] += w
		}
	}
	score := 0.0
	for _, c := range cells {
		score -= math.Log2(1 + float64(m-1)*c/total)
	}
	return score / float64(m)
}

var errNoSamples = errors.New("graphlaxy fit: no baseline samples")

// Shape bounds for the fit: below ~0.2 a Beta piles its mass on one end so
// hard that a handful of baseline samples carry all the weight, and the
// score stops predicting what a fresh set does.
const (
	minFitShape = 0.2
	maxFitShape = 20
)

// FitGraphlaxy returns the shapes that minimise GraphlaxyScore on grid,
// searched by Nelder-Mead on the log-shapes (bounded to [0.2, 20]) from
// start, and their score. The search is deterministic.
func FitGraphlaxy(samples []GraphlaxySample, grid *Spread, start GraphlaxyBetas) (GraphlaxyBetas, float64, error) {
	if len(samples) == 0 {
		return GraphlaxyBetas{}, 0, errNoSamples
	}
	if err := start.Validate(); err != nil {
		return GraphlaxyBetas{}, 0, err
	}
	toShapes := func(z []float64) GraphlaxyBetas {
		var x [8]float64
		for i := range x {
			x[i] = math.Exp(min(max(z[i], math.Log(minFitShape)), math.Log(maxFitShape)))
		}
		return graphlaxyBetasFrom(x)
	}
	z0 := make([]float64, 8)
	for i, v := range start.array() {
		z0[i] = math.Log(v)
	}
	f := func(z []float64) float64 { return GraphlaxyScore(samples, toShapes(z), grid) }
	z := nelderMead(f, z0, 0.5, 4000)
	bt := toShapes(z)
	return bt, GraphlaxyScore(samples, bt, grid), nil
}

// nelderMead minimises f from x0 with the standard Nelder-Mead simplex
// (reflection 1, expansion 2, contraction 1/2, shrink 1/2), starting from
// the simplex x0 + step*e_i, for at most evals evaluations. Written here
// rather than taken from gonum/optimize, whose package pulls in a module
// this project does not depend on.
func nelderMead(f func([]float64) float64, x0 []float64, step float64, evals int) []float64 {
	n := len(x0)
	pts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range pts {
		pts[i] = append([]float64(nil), x0...)
		if i > 0 {
			pts[i][i-1] += step
		}
		vals[i] = f(pts[i])
	}
	used := n + 1
	centroid := make([]float64, n)
	along := func(t float64) ([]float64, float64) {
		// centroid + t*(centroid - worst)
		x := make([]float64, n)
		for j := range x {
			x[j] = centroid[j] + t*(centroid[j]-pts[n][j])
		}
		used++
		return x, f(x)
	}
	for used < evals {
		// Order best to worst; a stable insertion sort keeps ties in
		// their previous order, so the run is reproducible.
		for i := 1; i <= n; i++ {
			for j := i; j > 0 && vals[j] < vals[j-1]; j-- {
				vals[j], vals[j-1] = vals[j-1], vals[j]
				pts[j], pts[j-1] = pts[j-1], pts[j]
			}
		}
		if vals[n]-vals[0] <= 1e-10*(math.Abs(vals[0])+1e-10) {
			break
		}
		for j := range centroid {
			centroid[j] = 0
			for i := range n {
				centroid[j] += pts[i][j]
			}
			centroid[j] /= float64(n)
		}
		xr, fr := along(1)
		switch {
		case fr < vals[0]:
			if xe, fe := along(2); fe < fr {
				pts[n], vals[n] = xe, fe
			} else {
				pts[n], vals[n] = xr, fr
			}
		case fr < vals[n-1]:
			pts[n], vals[n] = xr, fr
		default:
			t := 0.5 // outside contraction
			if fr >= vals[n] {
				t = -0.5 // inside contraction
			}
			if xc, fc := along(t); fc < min(fr, vals[n]) {
				pts[n], vals[n] = xc, fc
				continue
			}
			for i := 1; i <= n; i++ {
				for j := range pts[i] {
					pts[i][j] = pts[0][j] + 0.5*(pts[i][j]-pts[0][j])
				}
				vals[i] = f(pts[i])
				used++
			}
		}
	}
	best := 0
	for i := range vals {
		if vals[i] < vals[best] {
			best = i
		}
	}
	return pts[best]
}
