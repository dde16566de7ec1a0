package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// CrossoverKind selects how Discrete recombines two genomes.
type CrossoverKind int

const (
	// UniformCrossover swaps each gene between the children with
	// probability SwapProb.
	UniformCrossover CrossoverKind = iota
	// BlockCrossover swaps whole blocks of genes (Variable.Block) with
	// probability SwapProb, as MaGNAS swaps superblocks.
	BlockCrossover
)

func (k CrossoverKind) String() string {
	switch k {
	case UniformCrossover:
		return "uniform"
	case BlockCrossover:
		return "block"
	}
	return fmt.Sprintf("CrossoverKind(%d)", int(k))
}

// Discrete is the encoding of a Space: genomes are []int with Inactive in
// inactive slots. Children and mutants are repaired so that they are
// always valid genomes of the space.
type Discrete struct {
	Space *Space
	// MutationProb is the probability that each active gene is replaced by
	// a different value drawn uniformly (MaGNAS uses 0.4, G-CoS 0.5).
	MutationProb float64
	// CrossoverProb is the probability that a mating recombines at all;
	// otherwise the children are copies of the parents.
	CrossoverProb float64
	// Kind chooses uniform or block crossover.
	Kind CrossoverKind
	// SwapProb is the per-gene (uniform) or per-block (block) exchange
	// probability.
	SwapProb float64
}

// NewDiscrete returns the encoding of s with pymoo-like defaults:
// mutation probability min(0.5, 1/len), crossover probability 0.9, uniform
// crossover with exchange probability 0.5.
func NewDiscrete(s *Space) *Discrete {
	return &Discrete{
		Space:         s,
		MutationProb:  min(0.5, 1/float64(s.Len())),
		CrossoverProb: 0.9,
		Kind:          UniformCrossover,
		SwapProb:      0.5,
	}
}

// Validate checks the settings.
func (d *Discrete) Validate() error {
	if d.Space == nil {
		return fmt.Errorf("search: discrete encoding has no space")
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"mutation", d.MutationProb}, {"crossover", d.CrossoverProb}, {"swap", d.SwapProb}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("search: %s probability %v outside [0, 1]", p.name, p.v)
		}
	}
	if d.Kind != UniformCrossover && d.Kind != BlockCrossover {
		return fmt.Errorf("search: unknown crossover kind %v", d.Kind)
	}
	return nil
}

// CheckGenome reports whether g is a valid genome of the space.
func (d *Discrete) CheckGenome(g []int) error { return d.Space.Validate(g) }

// Sample draws a genome uniformly per active variable.
func (d *Discrete) Sample(r *rand.Rand) []int { return d.Space.Sample(r) }

// Hash hashes the genes.
func (d *Discrete) Hash(g []int) uint64 { return d.Space.Hash(g) }

// Equal compares the genes.
func (d *Discrete) Equal(a, b []int) bool { return slices.Equal(a, b) }

// Mutate replaces each active gene with probability MutationProb by a
// different value, then repairs the genome (newly active genes are drawn,
// newly inactive ones cleared).
func (d *Discrete) Mutate(r *rand.Rand, g []int) []int {
	var out []int
	for i, x := range g {
		if x == Inactive {
			continue
		}
		n := d.Space.vars[i].Choices
		if n < 2 || r.Float64() >= d.MutationProb {
			continue
		}
		v := r.IntN(n - 1)
		if v >= x {
			v++ // uniform over the other n-1 values
		}
		if out == nil {
			out = slices.Clone(g)
		}
		out[i] = v
	}
	if out == nil {
		return g
	}
	d.Space.Repair(r, out)
	return out
}

// Crossover recombines a and b with probability CrossoverProb.
func (d *Discrete) Crossover(r *rand.Rand, a, b []int) ([]int, []int) {
	if r.Float64() >= d.CrossoverProb {
		return a, b
	}
	c1, c2 := slices.Clone(a), slices.Clone(b)
	switch d.Kind {
	case BlockCrossover:
		for _, blk := range d.Space.blocks {
			if r.Float64() < d.SwapProb {
				for _, i := range blk {
					c1[i], c2[i] = c2[i], c1[i]
				}
			}
		}
	default:
		for i := range c1 {
			if r.Float64() < d.SwapProb {
				c1[i], c2[i] = c2[i], c1[i]
			}
		}
	}
	d.Space.Repair(r, c1)
	d.Space.Repair(r, c2)
	return c1, c2
}
