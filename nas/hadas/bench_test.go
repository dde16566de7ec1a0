package hadas

import (
	"context"
	"testing"
)

func benchSearcher(b *testing.B) *Searcher {
	b.Helper()
	dir := dataDir(b)
	s := AttentiveNAS()
	curves := map[string]*Curve{}
	var bs []*Backbone
	var cs []*Curve
	for i, a := range Baselines()[:6] {
		c, err := LoadCurve(dir, "cifar-100", "a"+string(rune('0'+i)))
		if err != nil {
			b.Fatal(err)
		}
		bb, err := s.Backbone(a, 100)
		if err != nil {
			b.Fatal(err)
		}
		curves[bb.Arch] = c
		bs, cs = append(bs, bb), append(cs, c)
	}
	px, err := NewProxy("cifar-100", bs, cs)
	if err != nil {
		b.Fatal(err)
	}
	return &Searcher{Space: s, Target: xavierGPU(b), Acc: &Measured{Name: "cifar-100", Curves: curves, Fallback: px}, Classes: 100}
}

// BenchmarkNestedFullBudget is the paper's budget: 450 outer evaluations,
// each with an inner search of 3,500 (about 1.5 million inner
// evaluations), on 2 workers.
func BenchmarkNestedFullBudget(b *testing.B) {
	s := benchSearcher(b)
	cfg := DefaultConfig()
	cfg.Workers = 2
	for b.Loop() {
		res, err := s.Search(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.InnerEvaluations), "inner-evals")
		b.ReportMetric(float64(len(res.Candidates)), "backbones")
	}
}

// BenchmarkInnerEvaluate is one inner evaluation of a5 (settings priced
// once, as in a search).
func BenchmarkInnerEvaluate(b *testing.B) {
	s := benchSearcher(b)
	e, err := s.Prepare(Baselines()[5], DefaultInner())
	if err != nil {
		b.Fatal(err)
	}
	g, err := e.Genome([]int{5, 9, 13, 17}, e.Ref)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate(g); err != nil {
			b.Fatal(err)
		}
	}
}
