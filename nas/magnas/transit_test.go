package magnas

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gnnsim/workload"
)

// TestLimitedEnumeration: Limited yields CountLimited distinct mappings,
// each within its bound, and every mapping within the bound (checked on
// all 2^n mappings of a short model).
func TestLimitedEnumeration(t *testing.T) {
	s := newToySearcher(t)
	arch := Uniform(4, workload.Superblock{Depth: 2, Op: workload.GIN, FFN: false, FFNHidden: 96})
	e, err := s.Engine(arch, BlockWise, DefaultInner())
	if err != nil {
		t.Fatal(err)
	}
	tb := e.T
	n := tb.Blocks()
	if n > 16 {
		t.Fatalf("model of %d blocks: too long to check all mappings", n)
	}
	for _, k := range []int{NoTransitions, 1, 2, 3, n} {
		want := 0
		m := make([]int, n)
		for bits := range 1 << n {
			for i := range m {
				m[i] = bits >> i & 1
			}
			if _, _, tr := tb.Eval(m, 0); tr <= max(k, 0) {
				want++
			}
		}
		got := map[string]bool{}
		for m := range tb.Limited(k) {
			if _, _, tr := tb.Eval(m, 0); tr > max(k, 0) {
				t.Errorf("k=%d: %v has %d transitions", k, m, tr)
			}
			got[fmtInts(m)] = true
		}
		if len(got) != want || tb.CountLimited(k) != float64(want) {
			t.Errorf("k=%d: Limited yields %d, CountLimited %g, brute force %d", k, len(got), tb.CountLimited(k), want)
		}
	}
}

func fmtInts(m []int) string {
	b := make([]byte, len(m))
	for i, u := range m {
		b[i] = byte('0' + u)
	}
	return string(b)
}

// TestRepairTransitions: a repaired mapping keeps the allowed units and
// ends within its bound; one already within it is unchanged.
func TestRepairTransitions(t *testing.T) {
	s := newToySearcher(t)
	e, err := s.Engine(Baseline(s.Net, workload.GIN), BlockWise, DefaultInner())
	if err != nil {
		t.Fatal(err)
	}
	tb := e.T
	r := rand.New(rand.NewPCG(1, 2))
	m := make([]int, tb.Blocks())
	for trial := range 200 {
		for i := range m {
			m[i] = tb.Allowed[i][r.IntN(len(tb.Allowed[i]))]
		}
		k := trial % 4
		_, _, before := tb.Eval(m, 0)
		orig := slices.Clone(m)
		if !tb.repairTransitions(m, k) {
			t.Fatalf("repair failed on %v", orig)
		}
		_, _, tr := tb.Eval(m, 0)
		if tr > k {
			t.Errorf("k=%d: repaired %v still has %d transitions", k, m, tr)
		}
		if before <= k && !slices.Equal(m, orig) {
			t.Errorf("k=%d: compliant %v changed to %v", k, orig, m)
		}
	}
}

// TestTransitionLimitedSearch: the constrained-transition engine returns
// a non-empty front of mappings within their bound, by enumeration when
// the space fits the budget and by repaired NSGA-II when it does not; the
// unconstrained search seeded with those fronts is never worse at any of
// their points (each is weakly dominated by an unconstrained front point).
func TestTransitionLimitedSearch(t *testing.T) {
	s := newToySearcher(t)
	arch := Baseline(s.Net, workload.SAGE)
	for _, tc := range []struct{ k, pop, gens int }{
		{1, 40, 4},    // 2 + 2 x 33 = 68 mappings: enumerated
		{2, 200, 10},  // 1,124: enumerated
		{2, 40, 4},    // over the budget of 160: repaired search
		{3, 40, 4},    // 11,000+: repaired search
		{-1, 40, 4},   // standalone only
		{5, 100, 10},  // a looser bound
		{2, 100, 100}, // enumerated within a larger budget
	} {
		enumerated := tc.k == -1 || e0Count(t, s, arch, tc.k) <= float64(tc.pop*tc.gens)
		cfg := DefaultInner()
		cfg.PopSize, cfg.Generations = tc.pop, tc.gens
		cfg.Limits.MaxTransitions = tc.k
		e, err := s.Engine(arch, BlockWise, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(context.Background(), 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Front) == 0 || res.Fallback {
			t.Fatalf("k=%d: empty constrained front (fallback %v)", tc.k, res.Fallback)
		}
		if n := len(res.Search.Evaluated); n > tc.pop*tc.gens {
			t.Errorf("k=%d: %d evaluations over the budget %d", tc.k, n, tc.pop*tc.gens)
		}
		if enumerated && len(res.Search.Evaluated) != int(e.T.CountLimited(tc.k)) {
			t.Errorf("k=%d: %d evaluated, want all %g", tc.k, len(res.Search.Evaluated), e.T.CountLimited(tc.k))
		}
		lim := max(tc.k, 0)
		distributed := 0
		for _, p := range res.Front {
			if p.Transitions > lim {
				t.Errorf("k=%d: front mapping with %d transitions", tc.k, p.Transitions)
			}
			if p.Transitions > 0 {
				distributed++
			}
		}
		if tc.k > 0 && distributed == 0 {
			t.Errorf("k=%d: the front holds only standalone mappings", tc.k)
		}
		if tc.k != 2 || tc.pop != 200 {
			continue
		}
		// The unconstrained search, seeded with the constrained front.
		ucfg := DefaultInner()
		ucfg.PopSize, ucfg.Generations = tc.pop, tc.gens
		for _, p := range res.Front {
			ucfg.Seeds = append(ucfg.Seeds, p.Mapping)
		}
		ue, err := s.Engine(arch, BlockWise, ucfg)
		if err != nil {
			t.Fatal(err)
		}
		ures, err := ue.Run(context.Background(), 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Front {
			ok := false
			for _, u := range ures.Front {
				ok = ok || (u.TimePS <= c.TimePS*(1+1e-12) && u.EnergyPJ <= c.EnergyPJ*(1+1e-12))
			}
			if !ok {
				t.Errorf("constrained point %.4g ps / %.4g pJ beats the whole unconstrained front", c.TimePS, c.EnergyPJ)
			}
		}
		if ures.Best.Score > res.Best.Score*(1+1e-12) {
			t.Errorf("unconstrained m* score %g worse than the constrained one %g", ures.Best.Score, res.Best.Score)
		}
	}
}

func e0Count(t *testing.T, s *Searcher, arch Arch, k int) float64 {
	t.Helper()
	e, err := s.Engine(arch, BlockWise, DefaultInner())
	if err != nil {
		t.Fatal(err)
	}
	return e.T.CountLimited(k)
}

// TestStandaloneFallback: a DSA that refuses some segment keeps every
// other one; the refused ones go to a unit that runs them.
func TestStandaloneFallback(t *testing.T) {
	c := dsaCosts(t)
	m, err := PyramidModel(Uniform(4, workload.Superblock{Depth: 4, Op: workload.GIN, PreFC: true, FFN: true, FFNHidden: 320}))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := c.Table(m, LayerWise)
	if err != nil {
		t.Fatal(err)
	}
	refusing := 0
	for u := range tb.Units {
		fb := tb.StandaloneFallback(u, 0)
		if sm := tb.Standalone(u); sm != nil && !slices.Equal(sm, fb) {
			t.Errorf("%s runs everything, but its fallback mapping differs from its standalone one", tb.Units[u])
		}
		for i, v := range fb {
			can := slices.Contains(tb.Allowed[i], u)
			if !slices.Contains(tb.Allowed[i], v) || (can && v != u) {
				t.Errorf("%s: segment %s on %s", tb.Units[u], tb.Segments[i].Name, tb.Units[v])
			}
			if !can {
				refusing++
			}
		}
	}
	if refusing == 0 {
		t.Errorf("no default DSA refuses a segment of the Pyramid ViG-M: the capacity checks do not bind")
	}
}
