package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gnnsim/internal/splitmix"
)

// Real is a continuous encoding: genomes are []float64 within per-variable
// bounds, varied by simulated binary crossover (SBX) and polynomial
// mutation (PM) with pymoo's NSGA-II defaults. It serves the standard test
// problems (ZDT, DTLZ, BNH, SRN) and any continuous knob.
type Real struct {
	Lower, Upper []float64
	// CrossoverProb is the per-mating SBX probability (pymoo 0.9).
	CrossoverProb float64
	// CrossoverEta is SBX's distribution index (pymoo 15).
	CrossoverEta float64
	// CrossoverVarProb is the per-variable SBX probability (pymoo 0.5).
	CrossoverVarProb float64
	// ExchangeProb is the probability that the two children of a variable
	// trade places (pymoo's prob_bin, 0.5).
	ExchangeProb float64
	// MutationProb is the per-individual PM probability (pymoo 0.9).
	MutationProb float64
	// MutationEta is PM's distribution index (pymoo 20).
	MutationEta float64
	// MutationVarProb is the per-variable PM probability; 0 means
	// min(0.5, 1/n) as in pymoo.
	MutationVarProb float64
}

// NewReal returns the encoding of the box [lower, upper] with pymoo's
// NSGA-II operator defaults.
func NewReal(lower, upper []float64) (*Real, error) {
	e := &Real{
		Lower: slices.Clone(lower), Upper: slices.Clone(upper),
		CrossoverProb: 0.9, CrossoverEta: 15, CrossoverVarProb: 0.5, ExchangeProb: 0.5,
		MutationProb: 0.9, MutationEta: 20,
	}
	return e, e.Validate()
}

// Validate checks the bounds and settings.
func (e *Real) Validate() error {
	if len(e.Lower) == 0 || len(e.Lower) != len(e.Upper) {
		return fmt.Errorf("search: real encoding has %d lower and %d upper bounds", len(e.Lower), len(e.Upper))
	}
	for i := range e.Lower {
		lo, hi := e.Lower[i], e.Upper[i]
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
			return fmt.Errorf("search: variable %d has bounds [%v, %v]", i, lo, hi)
		}
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"crossover", e.CrossoverProb}, {"crossover variable", e.CrossoverVarProb}, {"exchange", e.ExchangeProb},
		{"mutation", e.MutationProb}, {"mutation variable", e.MutationVarProb}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("search: %s probability %v outside [0, 1]", p.name, p.v)
		}
	}
	if !(e.CrossoverEta > 0) || !(e.MutationEta > 0) {
		return fmt.Errorf("search: distribution indices must be positive (SBX %v, PM %v)", e.CrossoverEta, e.MutationEta)
	}
	return nil
}

// CheckGenome reports whether x has one value per variable within bounds.
func (e *Real) CheckGenome(x []float64) error {
	if len(x) != len(e.Lower) {
		return fmt.Errorf("search: genome has %d values, encoding has %d variables", len(x), len(e.Lower))
	}
	for i, v := range x {
		if !(v >= e.Lower[i] && v <= e.Upper[i]) {
			return fmt.Errorf("search: variable %d = %v outside [%v, %v]", i, v, e.Lower[i], e.Upper[i])
		}
	}
	return nil
}

// Sample draws each variable uniformly within its bounds.
func (e *Real) Sample(r *rand.Rand) []float64 {
	x := make([]float64, len(e.Lower))
	for i := range x {
		x[i] = e.Lower[i] + r.Float64()*(e.Upper[i]-e.Lower[i])
	}
	return x
}

// Hash hashes the bit patterns (with -0 taken as 0, so Equal genomes hash
// alike).
func (e *Real) Hash(x []float64) uint64 {
	h := uint64(hashSeed)
	for _, v := range x {
		if v == 0 {
			v = 0
		}
		h = hashWord(h, math.Float64bits(v))
	}
	return splitmix.Mix64(h)
}

// Equal compares exactly; pymoo's default elimination uses a distance of
// 1e-16, which for values in a bounded box is the same test.
func (e *Real) Equal(a, b []float64) bool { return slices.Equal(a, b) }

// Crossover is SBX as in pymoo: with probability CrossoverProb the mating
// happens; each variable then crosses with probability CrossoverVarProb
// unless the parents are within 1e-14 or the bounds are equal; children
// are clamped to the bounds.
func (e *Real) Crossover(r *rand.Rand, a, b []float64) ([]float64, []float64) {
	if r.Float64() >= e.CrossoverProb {
		return a, b
	}
	c1, c2 := slices.Clone(a), slices.Clone(b)
	eta := e.CrossoverEta
	for i := range c1 {
		lo, hi := e.Lower[i], e.Upper[i]
		if r.Float64() >= e.CrossoverVarProb || math.Abs(a[i]-b[i]) <= 1e-14 || lo == hi {
			continue
		}
		y1, y2 := min(a[i], b[i]), max(a[i], b[i])
		delta := y2 - y1
		u := r.Float64()
		lower := 0.5 * ((y1 + y2) - sbxBetaQ(1+2*(y1-lo)/delta, eta, u)*delta)
		upper := 0.5 * ((y1 + y2) + sbxBetaQ(1+2*(hi-y2)/delta, eta, u)*delta)
		// The child near each parent goes to that parent's slot, then the
		// pair is exchanged with probability ExchangeProb.
		n1, n2 := lower, upper
		if a[i] > b[i] {
			n1, n2 = upper, lower
		}
		if r.Float64() < e.ExchangeProb {
			n1, n2 = n2, n1
		}
		c1[i] = min(max(n1, lo), hi)
		c2[i] = min(max(n2, lo), hi)
	}
	return c1, c2
}

func sbxBetaQ(beta, eta, u float64) float64 {
	alpha := 2 - math.Pow(beta, -(eta+1))
	if u <= 1/alpha {
		return math.Pow(u*alpha, 1/(eta+1))
	}
	return math.Pow(1/(2-u*alpha), 1/(eta+1))
}

// Mutate is polynomial mutation as in pymoo: with probability MutationProb
// the individual mutates; each variable then mutates with probability
// MutationVarProb (default min(0.5, 1/n)) by the bounded polynomial
// perturbation, clamped to the bounds.
func (e *Real) Mutate(r *rand.Rand, x []float64) []float64 {
	if r.Float64() >= e.MutationProb {
		return x
	}
	pv := e.MutationVarProb
	if pv == 0 {
		pv = min(0.5, 1/float64(len(x)))
	}
	eta := e.MutationEta
	pow := 1 / (eta + 1)
	var out []float64
	for i, v := range x {
		lo, hi := e.Lower[i], e.Upper[i]
		if r.Float64() >= pv || lo == hi {
			continue
		}
		span := hi - lo
		d1, d2 := (v-lo)/span, (hi-v)/span
		u := r.Float64()
		var dq float64
		if u <= 0.5 {
			val := 2*u + (1-2*u)*math.Pow(1-d1, eta+1)
			dq = math.Pow(val, pow) - 1
		} else {
			val := 2*(1-u) + 2*(u-0.5)*math.Pow(1-d2, eta+1)
			dq = 1 - math.Pow(val, pow)
		}
		if out == nil {
			out = slices.Clone(x)
		}
		out[i] = min(max(v+dq*span, lo), hi)
	}
	if out == nil {
		return x
	}
	return out
}
