package gbdt

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
)

// Graphlaxy Medium has 9,171 graphs: a 70/15/15 split gives about 6,400
// training and 1,375 validation rows per configuration model.
const (
	benchTrainRows = 6400
	benchValidRows = 1375
	benchFeatures  = 20
	benchConfigs   = 24
)

func benchParams() Params {
	p := DefaultParams()
	p.NumIterations = 300
	p.NumLeaves = 63
	p.LearningRate = 0.05
	p.Workers = 2
	return p
}

// BenchmarkTrain24 trains the 24 per-configuration models of a Medium-sized
// data set, 300 rounds of up to 63 leaves each (no early stopping, so every
// model builds all 300 trees: the worst case).
func BenchmarkTrain24(b *testing.B) {
	train := make([]*Dataset, benchConfigs)
	for c := range train {
		train[c] = synthetic(benchTrainRows, benchFeatures, c, uint64(c))
	}
	p := benchParams()
	b.ResetTimer()
	for b.Loop() {
		trees := 0
		for c := range train {
			m, err := Train(train[c], nil, p)
			if err != nil {
				b.Fatal(err)
			}
			trees += m.NumTrees()
		}
		b.ReportMetric(float64(trees), "trees")
	}
}

// BenchmarkTrain24Concurrent trains the same 24 models two at a time with
// one worker each: the alternative to parallel histograms for using both
// cores when many models are trained.
func BenchmarkTrain24Concurrent(b *testing.B) {
	train := make([]*Dataset, benchConfigs)
	for c := range train {
		train[c] = synthetic(benchTrainRows, benchFeatures, c, uint64(c))
	}
	p := benchParams()
	p.Workers = 1
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make([]error, len(train))
		for g := range 2 {
			wg.Go(func() {
				for c := g; c < len(train); c += 2 {
					_, errs[c] = Train(train[c], nil, p)
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrain24EarlyStop is BenchmarkTrain24 with a validation set and
// early_stopping_round 30, as the evaluation will train.
func BenchmarkTrain24EarlyStop(b *testing.B) {
	train := make([]*Dataset, benchConfigs)
	valid := make([]*Dataset, benchConfigs)
	for c := range train {
		train[c] = synthetic(benchTrainRows, benchFeatures, c, uint64(c))
		valid[c] = synthetic(benchValidRows, benchFeatures, c, uint64(c+1000))
	}
	p := benchParams()
	p.NumIterations = 1000
	p.EarlyStoppingRound = 30
	b.ResetTimer()
	for b.Loop() {
		trees := 0
		for c := range train {
			m, err := Train(train[c], valid[c], p)
			if err != nil {
				b.Fatal(err)
			}
			trees += m.NumTrees()
		}
		b.ReportMetric(float64(trees), "trees")
	}
}

// BenchmarkTrainOne trains one Medium-sized model with 1 and 2 workers.
func BenchmarkTrainOne(b *testing.B) {
	d := synthetic(benchTrainRows, benchFeatures, 3, 3)
	for _, w := range []int{1, 2} {
		b.Run([]string{"", "workers=1", "workers=2"}[w], func(b *testing.B) {
			p := benchParams()
			p.Workers = w
			for b.Loop() {
				if _, err := Train(d, nil, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchSizes are the model sizes of the prediction benchmarks: LightGBM's
// defaults and the largest models BenchmarkTrain24 builds.
var benchSizes = []struct {
	name          string
	trees, leaves int
}{
	{"trees=50,leaves=31", 50, 31},
	{"trees=100,leaves=31", 100, 31},
	{"trees=300,leaves=63", 300, 63},
}

func benchModel(b *testing.B, trees, leaves int) (*Model, *Ensemble, [][]float64) {
	b.Helper()
	p := benchParams()
	p.NumIterations, p.NumLeaves = trees, leaves
	m, err := Train(synthetic(benchTrainRows, benchFeatures, 3, 3), nil, p)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "m.txt")
	if err := m.SaveFile(path); err != nil {
		b.Fatal(err)
	}
	e, err := LoadModel(path)
	if err != nil {
		b.Fatal(err)
	}
	return m, e, synthetic(1024, benchFeatures, 3, 99).X
}

// nodesVisited is the mean number of internal nodes a prediction of the rows
// of X visits: the cost of a prediction is about this times the cost of one
// (mostly mispredicted) branch.
func nodesVisited(m *Model, X [][]float64) float64 {
	total := 0
	for _, x := range X {
		for i := range m.trees {
			t := &m.trees[i]
			for n := int32(0); n >= 0 && len(t.leftChild) > 0; total++ {
				if x[t.splitFeature[n]] <= t.threshold[n] {
					n = t.leftChild[n]
				} else {
					n = t.rightChild[n]
				}
			}
		}
	}
	return float64(total) / float64(len(X))
}

// BenchmarkPredictLeaves is one prediction through leaves (seed 002:
// 2,311.9 ns with lleaves).
func BenchmarkPredictLeaves(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			m, e, X := benchModel(b, s.trees, s.leaves)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := e.Predict(X[i&1023]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			// After the loop: b.Loop drops metrics reported before it.
			b.ReportMetric(nodesVisited(m, X), "nodes/op")
		})
	}
}

// BenchmarkPredictInMemory is the same prediction from the trainer's Model.
func BenchmarkPredictInMemory(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			m, _, X := benchModel(b, s.trees, s.leaves)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := m.Predict(X[i&1023]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
