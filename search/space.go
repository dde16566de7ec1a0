package search

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"

	"gnnsim/internal/splitmix"
)

// Inactive is the gene value held by variables whose conditions are not
// met (e.g. the mapping genes of a skipped block).
const Inactive = -1

// Variable is one discrete decision of a design space.
type Variable struct {
	// Name identifies the variable; names are unique within a space.
	Name string
	// Choices is the number of values; genes hold 0..Choices-1.
	Choices int
	// Labels optionally name the choices (len Choices) for output.
	Labels []string
	// Block groups variables for block crossover (e.g. the genes of one
	// MaGNAS superblock); variables with equal Block move together.
	Block int
	// When makes the variable active only if every condition holds;
	// conditions refer to earlier variables. A variable with no
	// conditions is always active.
	When []Condition
}

// Condition holds when the named earlier variable is active and takes one
// of the values In.
type Condition struct {
	Var string
	In  []int
}

// Space is a design space of discrete variables in a fixed order. A genome
// has one gene per variable; genes of inactive variables hold Inactive, so
// a genome's effective length (ActiveCount) depends on its other genes
// while positions stay aligned across genomes.
type Space struct {
	vars   []Variable
	index  map[string]int
	conds  [][]resolved
	blocks [][]int // variable indices per block, blocks in order of first appearance
}

type resolved struct {
	v  int
	in []int // sorted
}

// NewSpace validates the variables and builds the space.
func NewSpace(vars ...Variable) (*Space, error) {
	if len(vars) == 0 {
		return nil, fmt.Errorf("search: space has no variables")
	}
	s := &Space{
		vars:  make([]Variable, len(vars)),
		index: make(map[string]int, len(vars)),
		conds: make([][]resolved, len(vars)),
	}
	blockPos := map[int]int{}
	for i, v := range vars {
		if v.Name == "" {
			return nil, fmt.Errorf("search: variable %d has no name", i)
		}
		if _, dup := s.index[v.Name]; dup {
			return nil, fmt.Errorf("search: variable %q defined twice", v.Name)
		}
		if v.Choices < 1 {
			return nil, fmt.Errorf("search: variable %q has %d choices, need at least 1", v.Name, v.Choices)
		}
		if len(v.Labels) != 0 && len(v.Labels) != v.Choices {
			return nil, fmt.Errorf("search: variable %q has %d labels for %d choices", v.Name, len(v.Labels), v.Choices)
		}
		for _, c := range v.When {
			j, ok := s.index[c.Var]
			if !ok {
				return nil, fmt.Errorf("search: variable %q depends on %q, which is not an earlier variable", v.Name, c.Var)
			}
			if len(c.In) == 0 {
				return nil, fmt.Errorf("search: variable %q: condition on %q lists no values", v.Name, c.Var)
			}
			in := slices.Clone(c.In)
			slices.Sort(in)
			in = slices.Compact(in)
			if in[0] < 0 || in[len(in)-1] >= vars[j].Choices {
				return nil, fmt.Errorf("search: variable %q: condition on %q uses values outside 0..%d", v.Name, c.Var, vars[j].Choices-1)
			}
			s.conds[i] = append(s.conds[i], resolved{v: j, in: in})
		}
		v.Labels = slices.Clone(v.Labels)
		v.When = slices.Clone(v.When)
		s.vars[i] = v
		s.index[v.Name] = i
		b, ok := blockPos[v.Block]
		if !ok {
			b = len(s.blocks)
			blockPos[v.Block] = b
			s.blocks = append(s.blocks, nil)
		}
		s.blocks[b] = append(s.blocks[b], i)
	}
	return s, nil
}

// Len is the number of variables (gene slots).
func (s *Space) Len() int { return len(s.vars) }

// Var returns variable i.
func (s *Space) Var(i int) Variable { return s.vars[i] }

// Index returns the position of the named variable.
func (s *Space) Index(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// Active reports whether variable i is active given the genes before it.
func (s *Space) Active(g []int, i int) bool {
	for _, c := range s.conds[i] {
		x := g[c.v]
		if x == Inactive {
			return false
		}
		if _, ok := slices.BinarySearch(c.in, x); !ok {
			return false
		}
	}
	return true
}

// ActiveCount is the number of active genes: the genome's effective length.
func (s *Space) ActiveCount(g []int) int {
	n := 0
	for _, x := range g {
		if x != Inactive {
			n++
		}
	}
	return n
}

// ActiveGenes returns the active genes in order: the compact, variable
// length form of the genome.
func (s *Space) ActiveGenes(g []int) []int {
	out := make([]int, 0, len(g))
	for _, x := range g {
		if x != Inactive {
			out = append(out, x)
		}
	}
	return out
}

// Sample draws a valid genome: each active variable uniformly.
func (s *Space) Sample(r *rand.Rand) []int {
	return s.AppendSample(make([]int, 0, len(s.vars)), r)
}

// AppendSample appends a genome drawn as Sample draws it (the same draws
// from r) to dst: the allocation-free form for loops that draw into a
// reused buffer.
func (s *Space) AppendSample(dst []int, r *rand.Rand) []int {
	n := len(dst)
	dst = slices.Grow(dst, len(s.vars))[:n+len(s.vars)]
	g := dst[n:]
	for i := range g {
		// Active reads only the genes before i, all drawn by now.
		if len(s.conds[i]) == 0 || s.Active(g, i) {
			g[i] = r.IntN(s.vars[i].Choices)
		} else {
			g[i] = Inactive
		}
	}
	return dst
}

// Repair makes g valid in place after its genes were changed: inactive
// variables get Inactive and active ones without a valid value are drawn
// uniformly. It reports whether anything changed.
func (s *Space) Repair(r *rand.Rand, g []int) bool {
	changed := false
	for i := range g {
		if s.Active(g, i) {
			if g[i] < 0 || g[i] >= s.vars[i].Choices {
				g[i] = r.IntN(s.vars[i].Choices)
				changed = true
			}
		} else if g[i] != Inactive {
			g[i] = Inactive
			changed = true
		}
	}
	return changed
}

// Validate checks that g is a genome of this space.
func (s *Space) Validate(g []int) error {
	if len(g) != len(s.vars) {
		return fmt.Errorf("search: genome has %d genes, space has %d variables", len(g), len(s.vars))
	}
	for i, x := range g {
		v := &s.vars[i]
		if len(s.conds[i]) == 0 || s.Active(g, i) {
			if x < 0 || x >= v.Choices {
				return fmt.Errorf("search: gene %q = %d outside 0..%d", v.Name, x, v.Choices-1)
			}
		} else if x != Inactive {
			return fmt.Errorf("search: gene %q = %d but the variable is inactive", v.Name, x)
		}
	}
	return nil
}

// All enumerates every valid genome in lexicographic order of the genes.
// The yielded slice is reused: clone it to keep it.
func (s *Space) All() iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		g := make([]int, len(s.vars))
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == len(g) {
				return yield(g)
			}
			if !s.Active(g, i) {
				g[i] = Inactive
				return rec(i + 1)
			}
			for c := range s.vars[i].Choices {
				g[i] = c
				if !rec(i + 1) {
					return false
				}
			}
			return true
		}
		rec(0)
	}
}

// Count returns the number of valid genomes if it is at most limit, and
// otherwise limit+1 and false. It enumerates, so it costs O(limit).
func (s *Space) Count(limit int) (int, bool) {
	n := 0
	for range s.All() {
		n++
		if n > limit {
			return n, false
		}
	}
	return n, true
}

// Format renders g as "name=value" pairs for the active genes, using the
// labels where there are some.
func (s *Space) Format(g []int) string {
	var b strings.Builder
	for i, x := range g {
		if x == Inactive {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		v := s.vars[i]
		if x >= 0 && x < len(v.Labels) {
			fmt.Fprintf(&b, "%s=%s", v.Name, v.Labels[x])
		} else {
			fmt.Fprintf(&b, "%s=%d", v.Name, x)
		}
	}
	return b.String()
}

// Hash and Equal make *Space a Sampler of []int genomes.

// Hash returns a 64-bit hash of the genes.
func (s *Space) Hash(g []int) uint64 {
	h := uint64(hashSeed)
	for _, x := range g {
		h = hashWord(h, uint64(x))
	}
	return splitmix.Mix64(h)
}

// Equal reports whether two genomes have the same genes.
func (s *Space) Equal(a, b []int) bool { return slices.Equal(a, b) }
