package soc

import (
	"testing"

	"gnnsim/workload"
)

// BenchmarkEvaluate is one Eq. 6-7 evaluation of ViG-S block-wise (34
// segments) on the default SoC, costs already tabulated.
func BenchmarkEvaluate(b *testing.B) {
	s := Default()
	e := mustEvaluator(b, s, vigS(b, workload.MRConv), Blocks)
	set, _ := s.Setting(DVFS{"gpu": 905.25})
	benchEvaluate(b, e, randomMapping(Blocks, len(e.Segments()), 2, 1), set)
}

// benchEvaluate times EvaluateAt of m at set on e, after one evaluation
// that fills its tables.
func benchEvaluate(b *testing.B, e *Evaluator, m Mapping, set Setting) {
	var r Result
	if err := e.EvaluateAt(&r, m, set); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := e.EvaluateAt(&r, m, set); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateLayers is one evaluation of GoogleNet layer-wise (141
// segments) under a mixed mapping: runs of a block's layers on one unit
// are planned as one on first use, then looked up.
func BenchmarkEvaluateLayers(b *testing.B) {
	s := Default()
	e := mustEvaluator(b, s, zooModel(b, "googlenet"), Layers)
	benchEvaluate(b, e, randomMapping(Layers, len(e.Segments()), 2, 1), s.top())
}

// BenchmarkEvaluateCold includes building the evaluator and tabulating the
// costs at one setting: the cost of the first evaluation.
func BenchmarkEvaluateCold(b *testing.B) {
	s := Default()
	model := vigS(b, workload.MRConv)
	b.ReportAllocs()
	for b.Loop() {
		e := mustEvaluator(b, s, model, Blocks)
		if _, err := e.Evaluate(MapAll(Blocks, 1, len(e.Segments())), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipeline1000 streams 1,000 frames of ViG-S through a mixed
// block-wise mapping.
func BenchmarkPipeline1000(b *testing.B) {
	s := Default()
	e := mustEvaluator(b, s, vigS(b, workload.MRConv), Blocks)
	m := randomMapping(Blocks, len(e.Segments()), 2, 1)
	set, _ := s.Setting(nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Pipeline(m, set, PipelineOptions{Frames: 1000}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateParallel is BenchmarkEvaluate from every core at once
// (search loops evaluate mappings in parallel on one Evaluator).
func BenchmarkEvaluateParallel(b *testing.B) {
	s := Default()
	e := mustEvaluator(b, s, vigS(b, workload.MRConv), Blocks)
	n := len(e.Segments())
	set, _ := s.Setting(nil)
	if _, err := e.Evaluate(MapAll(Blocks, 0, n), nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		m := randomMapping(Blocks, n, 2, 5)
		var r Result
		for pb.Next() {
			if err := e.EvaluateAt(&r, m, set); err != nil {
				b.Fatal(err)
			}
		}
	})
}
