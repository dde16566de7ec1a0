package search

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// magnasLike builds a MaGNAS-style dynamic space: two superblocks, each
// with a depth (1-3 blocks) and an FFN switch, then one mapping gene per
// existing Grapher and FFN module (GPU=0 or DLA=1). Skipped blocks and
// absent FFNs have no mapping genes.
func magnasLike(t testing.TB) *Space {
	t.Helper()
	var vars []Variable
	for sb := range 2 {
		depth := fmt.Sprintf("depth%d", sb)
		ffn := fmt.Sprintf("ffn%d", sb)
		vars = append(vars,
			Variable{Name: depth, Choices: 3, Labels: []string{"1", "2", "3"}, Block: sb},
			Variable{Name: ffn, Choices: 2, Block: sb},
		)
		for b := range 3 {
			// Block b exists when depth index >= b.
			var in []int
			for d := b; d < 3; d++ {
				in = append(in, d)
			}
			vars = append(vars, Variable{Name: fmt.Sprintf("map%d.%d.grapher", sb, b), Choices: 2, Block: sb,
				When: []Condition{{Var: depth, In: in}}})
			vars = append(vars, Variable{Name: fmt.Sprintf("map%d.%d.ffn", sb, b), Choices: 2, Block: sb,
				When: []Condition{{Var: depth, In: in}, {Var: ffn, In: []int{1}}}})
		}
	}
	sp, err := NewSpace(vars...)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestSpaceDynamicGenome(t *testing.T) {
	sp := magnasLike(t)
	if sp.Len() != 16 {
		t.Fatalf("%d slots", sp.Len())
	}
	// Per superblock: depth d (1..3) with FFN off: 2^d mappings; on: 4^d.
	// (2+4+8) + (4+16+64) = 98; two superblocks: 98^2.
	n, ok := sp.Count(1 << 20)
	if !ok || n != 98*98 {
		t.Fatalf("count %d (%v), want %d", n, ok, 98*98)
	}
	r := newRand(3)
	lengths := map[int]bool{}
	for range 2000 {
		g := sp.Sample(r)
		if err := sp.Validate(g); err != nil {
			t.Fatalf("sampled %v: %v", g, err)
		}
		// Effective length: 2 architecture genes per superblock plus
		// depth x (1 + ffn) mapping genes.
		want := 0
		for sb := range 2 {
			d, f := g[8*sb]+1, g[8*sb+1]
			want += 2 + d*(1+f)
		}
		if sp.ActiveCount(g) != want || len(sp.ActiveGenes(g)) != want {
			t.Fatalf("genome %v: %d active genes, want %d", g, sp.ActiveCount(g), want)
		}
		lengths[want] = true
	}
	if len(lengths) < 8 {
		t.Fatalf("only %d distinct genome lengths sampled", len(lengths))
	}
	g := sp.Sample(r)
	if s := sp.Format(g); len(s) == 0 {
		t.Fatal("empty format")
	}
}

func TestSpaceAllEnumeratesValidDistinctGenomes(t *testing.T) {
	sp := magnasLike(t)
	seen := map[string]bool{}
	for g := range sp.All() {
		if err := sp.Validate(g); err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprint(g)
		if seen[k] {
			t.Fatalf("genome %v enumerated twice", g)
		}
		seen[k] = true
	}
	if len(seen) != 98*98 {
		t.Fatalf("%d genomes", len(seen))
	}
	if n, ok := sp.Count(100); ok || n != 101 {
		t.Fatalf("Count(100) = %d, %v; want 101, false", n, ok)
	}
}

func TestSpaceErrors(t *testing.T) {
	tests := []struct {
		name string
		vars []Variable
	}{
		{"none", nil},
		{"unnamed", []Variable{{Choices: 2}}},
		{"duplicate", []Variable{{Name: "a", Choices: 2}, {Name: "a", Choices: 2}}},
		{"no choices", []Variable{{Name: "a"}}},
		{"labels", []Variable{{Name: "a", Choices: 2, Labels: []string{"x"}}}},
		{"forward reference", []Variable{{Name: "a", Choices: 2, When: []Condition{{Var: "b", In: []int{0}}}}, {Name: "b", Choices: 2}}},
		{"self reference", []Variable{{Name: "a", Choices: 2, When: []Condition{{Var: "a", In: []int{0}}}}}},
		{"empty condition", []Variable{{Name: "a", Choices: 2}, {Name: "b", Choices: 2, When: []Condition{{Var: "a"}}}}},
		{"value out of range", []Variable{{Name: "a", Choices: 2}, {Name: "b", Choices: 2, When: []Condition{{Var: "a", In: []int{2}}}}}},
	}
	for _, tc := range tests {
		if _, err := NewSpace(tc.vars...); err == nil {
			t.Errorf("%s: want an error", tc.name)
		}
	}
	sp := magnasLike(t)
	g := sp.Sample(newRand(1))
	bad := slices.Clone(g)
	bad[0] = 7
	if sp.Validate(bad) == nil {
		t.Error("want an error for an out-of-range gene")
	}
	if sp.Validate(g[:3]) == nil {
		t.Error("want an error for a short genome")
	}
	bad = slices.Clone(g)
	bad[0] = 0 // depth 1: blocks 1 and 2 must be inactive
	bad[4] = 1
	if sp.Validate(bad) == nil {
		t.Error("want an error for a gene set on an inactive variable")
	}
}

func TestDiscreteOperatorsKeepGenomesValid(t *testing.T) {
	sp := magnasLike(t)
	for _, kind := range []CrossoverKind{UniformCrossover, BlockCrossover} {
		d := NewDiscrete(sp)
		d.Kind = kind
		d.MutationProb = 0.4
		if err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		r := newRand(2)
		for range 2000 {
			a, b := d.Sample(r), d.Sample(r)
			ac, bc := slices.Clone(a), slices.Clone(b)
			c1, c2 := d.Crossover(r, a, b)
			m1 := d.Mutate(r, c1)
			for _, g := range [][]int{c1, c2, m1} {
				if err := sp.Validate(g); err != nil {
					t.Fatalf("%v crossover: %v", kind, err)
				}
			}
			if !slices.Equal(a, ac) || !slices.Equal(b, bc) {
				t.Fatal("operators modified their arguments")
			}
			if kind == BlockCrossover {
				// Each superblock of a child comes whole from one parent,
				// unless repair redrew genes that became active.
				for sb := range 2 {
					arch := c1[8*sb : 8*sb+2]
					if !slices.Equal(arch, a[8*sb:8*sb+2]) && !slices.Equal(arch, b[8*sb:8*sb+2]) {
						t.Fatalf("block crossover mixed superblock %d: %v from %v and %v", sb, c1, a, b)
					}
				}
			}
		}
	}
}

func TestDiscreteMutationRate(t *testing.T) {
	vars := make([]Variable, 10)
	for i := range vars {
		vars[i] = Variable{Name: fmt.Sprint(i), Choices: 5}
	}
	sp, _ := NewSpace(vars...)
	d := NewDiscrete(sp)
	d.MutationProb = 0.3
	r := newRand(4)
	changed, total := 0, 0
	for range 5000 {
		g := d.Sample(r)
		m := d.Mutate(r, g)
		for i := range g {
			total++
			if m[i] != g[i] {
				changed++
			}
		}
		if slices.Equal(m, g) && &m[0] != &g[0] {
			t.Fatal("an unchanged mutant should be the parent itself")
		}
	}
	rate := float64(changed) / float64(total)
	if math.Abs(rate-0.3) > 0.01 {
		t.Fatalf("mutation changed %.3f of genes, want 0.3", rate)
	}
	d.CrossoverProb = 0
	a, b := d.Sample(r), d.Sample(r)
	if c1, c2 := d.Crossover(r, a, b); &c1[0] != &a[0] || &c2[0] != &b[0] {
		t.Fatal("crossover probability 0 must return the parents")
	}
	d.SwapProb = 2
	if d.Validate() == nil {
		t.Fatal("want an error for a probability above 1")
	}
}

func TestRealOperators(t *testing.T) {
	e, err := NewReal([]float64{0, -5, 2}, []float64{1, 5, 2})
	if err != nil {
		t.Fatal(err)
	}
	r := newRand(5)
	moved, steps := 0, 0.0
	for range 5000 {
		a, b := e.Sample(r), e.Sample(r)
		c1, c2 := e.Crossover(r, a, b)
		m := e.Mutate(r, c1)
		for _, x := range [][]float64{a, c1, c2, m} {
			for i := range x {
				if x[i] < e.Lower[i] || x[i] > e.Upper[i] {
					t.Fatalf("value %v outside bounds in %v", x[i], x)
				}
			}
			if x[2] != 2 {
				t.Fatal("fixed variable moved")
			}
		}
		for i := range m {
			if m[i] != c1[i] {
				moved++
				steps += math.Abs(m[i]-c1[i]) / (e.Upper[i] - e.Lower[i])
			}
		}
	}
	// PM with eta 20 makes small steps: the mean relative step of a
	// polynomial perturbation with eta 20 is about 1/(eta+2) / 2 or less.
	if mean := steps / float64(moved); moved == 0 || mean > 0.05 {
		t.Fatalf("%d mutations, mean relative step %.3f", moved, mean)
	}
	if e.Hash([]float64{0, 1, 2}) != e.Hash([]float64{math.Copysign(0, -1), 1, 2}) {
		t.Fatal("-0 and 0 must hash alike")
	}
	if _, err := NewReal([]float64{0}, []float64{math.Inf(1)}); err == nil {
		t.Fatal("want an error for infinite bounds")
	}
}

func TestGenomeSet(t *testing.T) {
	sp, _ := NewSpace(Variable{Name: "a", Choices: 1000}, Variable{Name: "b", Choices: 1000})
	gs := newGenomeSet[[]int](sp)
	for round := range 2 {
		gs.reset()
		for i := range 300 {
			if !gs.add([]int{i, i * 7 % 1000}) {
				t.Fatalf("round %d: %d reported present", round, i)
			}
		}
		for i := range 300 {
			if gs.add([]int{i, i * 7 % 1000}) || gs.indexOf([]int{i, i * 7 % 1000}) != i {
				t.Fatalf("round %d: %d not found at its position", round, i)
			}
		}
		if gs.contains([]int{1, 1}) {
			t.Fatal("found a genome never added")
		}
	}
}

// AppendSample draws what Sample draws, into a reused buffer holding the
// previous genome (the conditions read the genes just drawn, not stale
// ones), after what dst holds, and without allocating once grown.
func TestAppendSample(t *testing.T) {
	sp := magnasLike(t)
	r1, r2 := newRand(5), newRand(5)
	var buf []int
	for range 500 {
		want := sp.Sample(r1)
		buf = sp.AppendSample(buf[:0], r2)
		if !slices.Equal(buf, want) {
			t.Fatalf("AppendSample %v, Sample %v", buf, want)
		}
	}
	if got := sp.AppendSample([]int{42}, r2); got[0] != 42 || len(got) != 1+sp.Len() || sp.Validate(got[1:]) != nil {
		t.Fatalf("appended %v", got)
	}
	if n := testing.AllocsPerRun(100, func() { buf = sp.AppendSample(buf[:0], r2) }); n != 0 {
		t.Errorf("AppendSample into a grown buffer: %v allocations", n)
	}
}
