package magnas

import (
	"iter"
	"math"
	"math/rand/v2"
	"slices"

	"gnnsim/search"
)

// Transition-limited mappings: the constrained-transition baselines of
// Table 3 (after the paper's [10]) search mappings with at most k unit
// changes along the model, that is the model cut into at most k+1
// contiguous runs, each on one unit. A constraint alone (Limits) lets
// NSGA-II breed such mappings by chance only, and with a flip probability
// of 0.4 per gene a child of two compliant parents almost never complies;
// so the engine searches that space directly: it enumerates it when it
// fits the evaluation budget (k <= 2 on a 34-block ViG-S and two units is
// 1,124 mappings), and otherwise breeds with every child repaired into it
// (repairTransitions).

// CountLimited returns the number of mappings of t with at most k
// transitions (consecutive segments on different units), every segment on
// one of its allowed units; k < 0 counts the standalone mappings. The
// count is a float: it can exceed any integer for large k.
func (t *Table) CountLimited(k int) float64 {
	k = max(k, 0)
	n, U := t.Blocks(), len(t.Units)
	// cur[j*U+u]: mappings of the segments so far with j transitions whose
	// last segment runs on u.
	cur, next := make([]float64, (k+1)*U), make([]float64, (k+1)*U)
	for _, u := range t.Allowed[0] {
		cur[u] = 1
	}
	for i := 1; i < n; i++ {
		clear(next)
		for j := 0; j <= k; j++ {
			for p := range U {
				c := cur[j*U+p]
				if c == 0 {
					continue
				}
				for _, u := range t.Allowed[i] {
					switch {
					case u == p:
						next[j*U+u] += c
					case j < k:
						next[(j+1)*U+u] += c
					}
				}
			}
		}
		cur, next = next, cur
	}
	total := 0.0
	for _, c := range cur {
		total += c
	}
	return total
}

// Limited yields every mapping of t with at most k transitions (k < 0:
// the standalone mappings), in lexicographic order of the units. The
// yielded slice is reused: clone it to keep it.
func (t *Table) Limited(k int) iter.Seq[[]int] {
	k = max(k, 0)
	return func(yield func([]int) bool) {
		n := t.Blocks()
		if n == 0 {
			return
		}
		m := make([]int, n)
		var walk func(i, used int) bool
		walk = func(i, used int) bool {
			if i == n {
				return yield(m)
			}
			for _, u := range t.Allowed[i] {
				j := used
				if i > 0 && u != m[i-1] {
					j++
				}
				if j > k {
					continue
				}
				m[i] = u
				if !walk(i+1, j) {
					return false
				}
			}
			return true
		}
		walk(0, 0)
	}
}

// repairTransitions rewrites mapping in place until it has at most k
// transitions (k < 0: none) and reports whether it got there: while it
// has too many, the shortest run of segments on one unit (the first of
// equal length) joins the unit of a neighbouring run that can run all of
// it, the left one when both can. A run that no neighbour can take is
// left alone, so a table whose units run every segment always succeeds.
// It does not allocate.
func (t *Table) repairTransitions(mapping []int, k int) bool {
	k = max(k, 0)
	for {
		tr := 0
		for i := 1; i < len(mapping); i++ {
			if mapping[i] != mapping[i-1] {
				tr++
			}
		}
		if tr <= k {
			return true
		}
		best, bestLen, bestUnit := -1, math.MaxInt, -1
		for s := 0; s < len(mapping); {
			e := s + 1
			for e < len(mapping) && mapping[e] == mapping[s] {
				e++
			}
			if e-s < bestLen {
				for _, nb := range [2]int{s - 1, e} {
					if nb < 0 || nb >= len(mapping) {
						continue
					}
					if u := mapping[nb]; t.runsAll(s, e, u) {
						best, bestLen, bestUnit = s, e-s, u
						break
					}
				}
			}
			s = e
		}
		if best < 0 {
			return false
		}
		for i := best; i < best+bestLen; i++ {
			mapping[i] = bestUnit
		}
	}
}

// runsAll reports whether unit u may run segments s..e-1.
func (t *Table) runsAll(s, e, u int) bool {
	for i := s; i < e; i++ {
		if !slices.Contains(t.Allowed[i], u) {
			return false
		}
	}
	return true
}

// limitedEncoding keeps every genome of its inner encoding within k
// transitions by repairing samples and children (see repairTransitions);
// DVFS genes pass through.
type limitedEncoding struct {
	search.Encoding[[]int]
	ms *MappingSpace
	k  int
}

// fix returns g repaired (a copy when it changes).
func (l *limitedEncoding) fix(g []int) []int {
	t := l.ms.Table
	m := make([]int, t.Blocks())
	s := l.ms.Decode(g, m, 0)
	if !t.repairTransitions(m, l.k) {
		return g // the constraint then rejects it
	}
	r := l.ms.Encode(m, s)
	if slices.Equal(r, g) {
		return g
	}
	return r
}

func (l *limitedEncoding) Sample(r *rand.Rand) []int { return l.fix(l.Encoding.Sample(r)) }

func (l *limitedEncoding) Mutate(r *rand.Rand, g []int) []int {
	return l.fix(l.Encoding.Mutate(r, g))
}

func (l *limitedEncoding) Crossover(r *rand.Rand, a, b []int) ([]int, []int) {
	x, y := l.Encoding.Crossover(r, a, b)
	return l.fix(x), l.fix(y)
}

// Validate and CheckGenome forward to the inner encoding (search checks
// encodings and planted genomes through them).
func (l *limitedEncoding) Validate() error {
	if v, ok := l.Encoding.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

func (l *limitedEncoding) CheckGenome(g []int) error {
	if c, ok := l.Encoding.(interface{ CheckGenome([]int) error }); ok {
		return c.CheckGenome(g)
	}
	return nil
}
