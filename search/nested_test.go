package search

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"gnnsim/internal/pqio"
	"gnnsim/internal/splitmix"
)

// socToy is a MaGNAS-like toy: the outer genome picks, per superblock, a
// depth (1-3 blocks), a width (3 choices) and whether FFNs exist; the inner
// genome maps every existing module (plus fixed modules such as the stem
// and classifier) onto one of the units (GPU 0, DLA 1, ...) and picks DVFS
// levels shared by the whole SoC. Latency and energy come from per-module
// tables with a transfer cost whenever consecutive modules change unit
// (seed 000, Eq. 6-7 in spirit).
type socToy struct {
	outer *Space
	// latency and energy of one module on each unit, by width.
	lat, en    [3][4]float64
	units      int // mapping choices per module (<= 4)
	fixed      int // modules present in every architecture
	dvfsGenes  int
	dvfsLevels int
	target     float64 // latency target of the inner constraint
}

func newSocToy(t testing.TB) *socToy { return newSocToyBlocks(t, 2) }

func newSocToyBlocks(t testing.TB, superblocks int) *socToy {
	var vars []Variable
	for sb := range superblocks {
		vars = append(vars,
			Variable{Name: fmt.Sprintf("depth%d", sb), Choices: 3, Block: sb},
			Variable{Name: fmt.Sprintf("width%d", sb), Choices: 3, Block: sb},
			Variable{Name: fmt.Sprintf("ffn%d", sb), Choices: 2, Block: sb},
		)
	}
	sp, err := NewSpace(vars...)
	if err != nil {
		t.Fatal(err)
	}
	return &socToy{
		outer:      sp,
		lat:        [3][4]float64{{1, 1.6, 2.2, 1.3}, {2, 2.9, 4.1, 2.4}, {3.5, 4.5, 7, 4}},
		en:         [3][4]float64{{3, 1.2, 2, 2.5}, {6, 2.5, 3.9, 4.8}, {10, 4.4, 7.5, 8}},
		units:      2,
		dvfsGenes:  1,
		dvfsLevels: 4,
		target:     1e9,
	}
}

// modules lists the width of every module of an outer genome, in order.
func (s *socToy) modules(o []int) []int {
	var w []int
	for range s.fixed {
		w = append(w, 0)
	}
	for sb := range len(o) / 3 {
		d, width, ffn := o[3*sb]+1, o[3*sb+1], o[3*sb+2]
		for range d * (1 + ffn) {
			w = append(w, width)
		}
	}
	return w
}

// accuracy is a proxy growing with depth and width; it stands in for the
// user-supplied accuracy table.
func (s *socToy) accuracy(o []int) float64 {
	a := 0.5
	for sb := range len(o) / 3 {
		a += 0.04*float64(o[3*sb]) + 0.03*float64(o[3*sb+1]) + 0.02*float64(o[3*sb+2])
	}
	return a
}

// innerSpace has one mapping gene per module, then the DVFS levels.
func (s *socToy) innerSpace(o []int) (*Space, error) {
	var vars []Variable
	for i := range s.modules(o) {
		vars = append(vars, Variable{Name: fmt.Sprintf("m%d", i), Choices: s.units})
	}
	for i := range s.dvfsGenes {
		vars = append(vars, Variable{Name: fmt.Sprintf("dvfs%d", i), Choices: s.dvfsLevels})
	}
	return NewSpace(vars...)
}

func (s *socToy) perf(o, m []int) (lat, en float64) {
	// The clock scales from 0.6 to 1.2 of nominal with the mean level.
	lv := 0.0
	for _, v := range m[len(m)-s.dvfsGenes:] {
		lv += float64(v)
	}
	f := 0.6 + 0.6*lv/float64(s.dvfsGenes*(s.dvfsLevels-1))
	for i, w := range s.modules(o) {
		u := m[i]
		lat += s.lat[w][u] / f
		en += s.en[w][u] * f * f
		if i > 0 && m[i-1] != u {
			lat += 0.3 // write-back and cold misses on a unit change
			en += 0.5
		}
	}
	return lat, en
}

func (s *socToy) innerEval(o []int) EvalFunc[[]int] {
	return func(m []int) (Evaluation, error) {
		lat, en := s.perf(o, m)
		return Evaluation{Objectives: []float64{lat, en}, Constraints: []float64{lat/s.target - 1}}, nil
	}
}

// combine picks m* minimising the product of latency and energy (Eq. 13
// with gamma1 = gamma2 = 1) and reports (-accuracy, latency, energy).
func (s *socToy) combine(o []int, front []Individual[[]int]) (Evaluation, error) {
	best := &front[0]
	for i := range front {
		if front[i].Objectives[0]*front[i].Objectives[1] < best.Objectives[0]*best.Objectives[1] {
			best = &front[i]
		}
	}
	return Evaluation{Objectives: []float64{-s.accuracy(o), best.Objectives[0], best.Objectives[1]}, Info: best.Genome}, nil
}

// standalone maps everything on the GPU at the lowest clock.
func (s *socToy) standalone(o []int) (Evaluation, error) {
	m := make([]int, len(s.modules(o))+s.dvfsGenes)
	lat, en := s.perf(o, m)
	return Evaluation{Objectives: []float64{-s.accuracy(o), lat, en}}, nil
}

func (s *socToy) nested(inner string, workers int, seed uint64) *Nested[[]int, []int] {
	enc := NewDiscrete(s.outer)
	enc.Kind = BlockCrossover
	enc.MutationProb = 0.4
	return &Nested[[]int, []int]{
		Outer: NSGA2[[]int]{Encoding: enc, PopSize: 20, Generations: 6, Seed: seed, Workers: workers},
		Inner: func(ctx context.Context, o []int, seed uint64) (*Result[[]int], error) {
			sp, err := s.innerSpace(o)
			if err != nil {
				return nil, err
			}
			switch inner {
			case "brute":
				bf := BruteForce{Space: sp, Evaluate: s.innerEval(o), MaxEvaluations: 1 << 16}
				return bf.Run(ctx)
			case "random":
				rs := RandomSearch[[]int]{Sampler: sp, Evaluate: s.innerEval(o), Evaluations: 60, Seed: seed}
				return rs.Run(ctx)
			}
			ie := NewDiscrete(sp)
			ie.MutationProb = 0.4
			ie.CrossoverProb = 0.8
			alg := NSGA2[[]int]{Encoding: ie, Evaluate: s.innerEval(o), PopSize: 16, Generations: 8, Seed: seed}
			return alg.Run(ctx)
		},
		Combine:    s.combine,
		Standalone: s.standalone,
	}
}

func TestNestedSearch(t *testing.T) {
	s := newSocToy(t)
	for _, inner := range []string{"nsga2", "brute", "random"} {
		t.Run(inner, func(t *testing.T) {
			res, err := s.nested(inner, 1, 7).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Evaluated) < 20 || len(res.Front) == 0 {
				t.Fatalf("%d outer candidates, front %d", len(res.Evaluated), len(res.Front))
			}
			for _, ind := range res.Evaluated {
				in := InnerOf[[]int, []int](ind)
				if in == nil || (in.Evaluations == 0) != in.Cached || len(in.Compliant) == 0 || in.Fallback {
					t.Fatalf("outer %d: inner outcome %+v", ind.ID, in)
				}
				m := in.Info.([]int)
				lat, en := s.perf(ind.Genome, m)
				if lat != ind.Objectives[1] || en != ind.Objectives[2] {
					t.Fatalf("outer %d: objectives %v do not match its chosen mapping %v", ind.ID, ind.Objectives, m)
				}
				if inner == "brute" {
					// Brute force must find the exact best product.
					sp, _ := s.innerSpace(ind.Genome)
					best := math.Inf(1)
					for g := range sp.All() {
						l, e := s.perf(ind.Genome, g)
						best = min(best, l*e)
					}
					if got := lat * en; math.Abs(got-best) > 1e-9*best {
						t.Fatalf("outer %d: brute force picked product %v, optimum %v", ind.ID, got, best)
					}
				}
			}
		})
	}
}

func TestNestedDeterministicAcrossWorkers(t *testing.T) {
	s := newSocToy(t)
	a, err := s.nested("nsga2", 1, 3).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.nested("nsga2", 2, 3).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Evaluated) != len(b.Evaluated) {
		t.Fatalf("%d vs %d outer candidates", len(a.Evaluated), len(b.Evaluated))
	}
	for i := range a.Evaluated {
		x, y := a.Evaluated[i], b.Evaluated[i]
		ix, iy := InnerOf[[]int, []int](x), InnerOf[[]int, []int](y)
		if !reflect.DeepEqual(x.Genome, y.Genome) || !reflect.DeepEqual(x.Objectives, y.Objectives) ||
			!reflect.DeepEqual(ix.Info, iy.Info) || ix.Evaluations != iy.Evaluations {
			t.Fatalf("candidate %d differs between 1 and 2 workers", i)
		}
	}
	// A repeated outer genome reuses its first outcome, marked as cached.
	first := map[string]*InnerOutcome[[]int]{}
	cached := 0
	for _, ind := range a.Evaluated {
		k := fmt.Sprint(ind.Genome)
		in := InnerOf[[]int, []int](ind)
		if prev, ok := first[k]; ok {
			cached++
			if !in.Cached || in.Evaluations != 0 || !reflect.DeepEqual(prev.Info, in.Info) {
				t.Fatalf("repeated genome %v: outcome %+v, first %+v", ind.Genome, in, prev)
			}
			continue
		}
		if in.Cached {
			t.Fatalf("first evaluation of %v marked cached", ind.Genome)
		}
		first[k] = in
	}
	if cached == 0 {
		t.Fatal("test needs repeated outer genomes")
	}
	// The cache changes nothing but time: the inner search is a function
	// of the outer genome.
	s2 := newSocToy(t)
	n := s2.nested("nsga2", 1, 3)
	for _, ind := range a.Evaluated[:10] {
		seed := splitmix.Mix64(splitmix.Mix64(n.Outer.Seed^0x6e65737465640000) ^ n.Outer.Encoding.Hash(ind.Genome))
		ev, err := n.evaluate(context.Background(), ind.Genome, seed)
		if err != nil || !reflect.DeepEqual(ev.Objectives, ind.Objectives) {
			t.Fatalf("re-running candidate %d gave %v, want %v (%v)", ind.ID, ev.Objectives, ind.Objectives, err)
		}
	}
}

func TestNestedFallback(t *testing.T) {
	s := newSocToy(t)
	s.target = 0.5 // no mapping meets it
	n := s.nested("nsga2", 1, 5)
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ind := range res.Evaluated {
		in := InnerOf[[]int, []int](ind)
		want, _ := s.standalone(ind.Genome)
		if !in.Fallback || len(in.Compliant) != 0 || !reflect.DeepEqual(ind.Objectives, want.Objectives) {
			t.Fatalf("outer %d: fallback %v, objectives %v, standalone %v", ind.ID, in.Fallback, ind.Objectives, want.Objectives)
		}
	}
	for _, r := range NestedRows[[]int, []int]("toy", res) {
		if r.Fallback != (r.Kind == "evaluated") {
			t.Fatalf("%s row of candidate %d: fallback %v", r.Kind, r.Candidate, r.Fallback)
		}
	}
	// Without a standalone evaluation the outer candidates become
	// infeasible by the inner violation.
	n.Standalone = nil
	res, err = n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Front) != 0 {
		t.Fatalf("front of %d with no compliant inner solution", len(res.Front))
	}
	for _, ind := range res.Evaluated {
		if ind.Feasible() || !InnerOf[[]int, []int](ind).Fallback {
			t.Fatalf("outer %d feasible with no compliant mapping", ind.ID)
		}
	}
}

func TestNestedErrors(t *testing.T) {
	s := newSocToy(t)
	n := s.nested("nsga2", 1, 1)
	n.Outer.Evaluate = func([]int) (Evaluation, error) { return Evaluation{}, nil }
	if _, err := n.Run(context.Background()); err == nil {
		t.Fatal("want an error when the outer evaluation is set")
	}
	n = s.nested("nsga2", 1, 1)
	n.Inner = func(context.Context, []int, uint64) (*Result[[]int], error) { return nil, fmt.Errorf("no inner space") }
	if _, err := n.Run(context.Background()); err == nil {
		t.Fatal("want the inner error")
	}
}

func TestNestedRowsRoundTrip(t *testing.T) {
	s := newSocToy(t)
	n := s.nested("nsga2", 1, 9)
	n.KeepInner = true
	n.Outer.KeepGenerations = true
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := NestedRows[[]int, []int]("toy", res)
	counts := map[string]int{}
	inner := 0
	for _, r := range rows {
		counts[r.Kind]++
		wantFallback := r.Kind == "evaluated" && InnerOf[[]int, []int](res.Evaluated[r.Candidate]).Fallback
		if r.Fallback != wantFallback {
			t.Fatalf("%s row of candidate %d: fallback %v, want %v", r.Kind, r.Candidate, r.Fallback, wantFallback)
		}
		if r.Kind == "inner" {
			if r.Parent < 0 || int(r.Parent) >= len(res.Evaluated) {
				t.Fatalf("inner row with parent %d", r.Parent)
			}
			inner++
		}
	}
	wantInner := 0
	for _, ind := range res.Evaluated {
		in := InnerOf[[]int, []int](ind)
		wantInner += in.Evaluations
		if in.Cached != (len(in.All) == 0) {
			t.Fatalf("outer %d: cached %v with %d inner candidates", ind.ID, in.Cached, len(in.All))
		}
	}
	if counts["evaluated"] != len(res.Evaluated) || counts["population"] != 6*20 || inner != wantInner {
		t.Fatalf("row counts %v, want %d evaluated, 120 population, %d inner", counts, len(res.Evaluated), wantInner)
	}
	path := filepath.Join(t.TempDir(), "nested.parquet")
	if err := WriteRows(path, rows, map[string]string{"seed": "9"}); err != nil {
		t.Fatal(err)
	}
	back, meta, err := pqio.Read[Row](path)
	if err != nil {
		t.Fatal(err)
	}
	if meta["gnnsim.seed"] != "9" || len(back) != len(rows) {
		t.Fatalf("read %d rows, meta %v", len(back), meta)
	}
	for i := range rows {
		a, b := rows[i], back[i]
		if len(a.Genes) == 0 {
			a.Genes = nil
		}
		if len(b.Genes) == 0 {
			b.Genes = nil
		}
		a.X, b.X = nil, nil
		if !reflect.DeepEqual(a, b) && !(math.IsInf(a.Crowding, 1) && math.IsInf(b.Crowding, 1)) {
			t.Fatalf("row %d: wrote %+v, read %+v", i, a, b)
		}
	}
}

// BenchmarkNested is the acceptance benchmark: an outer NSGA-II of 100
// candidates for 50 generations, each scored by an inner NSGA-II of 200 for
// 10 generations over a cheap function, on 2 workers (5,000 outer x 2,000
// inner evaluations). As in MaGNAS the outer space has four superblocks
// (18^4 = 104,976 architectures, so repeats are few); the inner space maps
// the stem, the classifier and every module onto four units and picks three
// DVFS levels out of eight, so even the smallest architecture has
// 4^6 x 8^3 inner genomes and every inner search can spend its 2,000
// evaluations on distinct ones. Run with -benchtime=1x.
func BenchmarkNested(b *testing.B) {
	s := newSocToyBlocks(b, 4)
	s.units, s.fixed, s.dvfsGenes, s.dvfsLevels = 4, 2, 3, 8
	for b.Loop() {
		enc := NewDiscrete(s.outer)
		n := &Nested[[]int, []int]{
			Outer: NSGA2[[]int]{Encoding: enc, PopSize: 100, Generations: 50, Seed: 1, Workers: 2},
			Inner: func(ctx context.Context, o []int, seed uint64) (*Result[[]int], error) {
				sp, err := s.innerSpace(o)
				if err != nil {
					return nil, err
				}
				alg := NSGA2[[]int]{Encoding: NewDiscrete(sp), Evaluate: s.innerEval(o), PopSize: 200, Generations: 10, Seed: seed}
				return alg.Run(ctx)
			},
			Combine: s.combine,
		}
		res, err := n.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		inner, cached := 0, 0
		for _, ind := range res.Evaluated {
			in := InnerOf[[]int, []int](ind)
			inner += in.Evaluations
			if in.Cached {
				cached++
			}
		}
		b.ReportMetric(float64(len(res.Evaluated)), "outer-evals")
		b.ReportMetric(float64(cached), "outer-cached")
		b.ReportMetric(float64(inner), "inner-evals")
	}
}
