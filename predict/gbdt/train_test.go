package gbdt

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// synthetic returns n rows of nf features shaped like graph features (a
// log-spread size, fractions, small integers) and a smooth, interacting
// log-latency-like target for configuration c, plus a little noise.
func synthetic(n, nf, c int, seed uint64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := &Dataset{X: make([][]float64, n), Y: make([]float64, n)}
	for i := range n {
		x := make([]float64, nf)
		for j := range x {
			switch j % 4 {
			case 0:
				x[j] = math.Exp(rng.Float64() * 7) // 1 .. 1100, like node counts
			case 1:
				x[j] = rng.Float64() // densities, quantiles
			case 2:
				x[j] = float64(rng.IntN(8)) // tiling factors
			default:
				x[j] = rng.NormFloat64()
			}
		}
		cf := float64(c%8 + 1)
		y := math.Log(x[0])*(1+0.1*cf) + 2*x[1%nf]*x[2%nf] - 0.5*math.Abs(x[3%nf])
		if x[1%nf] > 0.5 {
			y += cf / 4
		}
		d.X[i] = x
		d.Y[i] = y + 0.01*rng.NormFloat64()
	}
	return d
}

func modelText(t testing.TB, m *Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestStepFunctions: a step function of one or two features is fitted
// exactly, and new points between training values go to the nearer side.
func TestStepFunctions(t *testing.T) {
	step1 := func(x []float64) float64 {
		switch {
		case x[0] <= 10:
			return 1
		case x[0] <= 20:
			return 5
		default:
			return -3
		}
	}
	step2 := func(x []float64) float64 {
		v := 0.0
		if x[0] > 3 {
			v += 1
		}
		if x[1] > 5 {
			v += 2
		}
		return v
	}
	for _, c := range []struct {
		name string
		nf   int
		f    func([]float64) float64
		p    func(*Params)
	}{
		{"one feature, one round", 1, step1, func(p *Params) { p.NumIterations = 1; p.LearningRate = 1 }},
		{"two features, one round", 2, step2, func(p *Params) { p.NumIterations = 1; p.LearningRate = 1 }},
		{"two features, shrinkage", 2, step2, func(p *Params) { p.NumIterations = 400; p.LearningRate = 0.1 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &Dataset{}
			for i := range 30 {
				for j := range 10 {
					x := []float64{float64(i), float64(j)}[:c.nf]
					d.X = append(d.X, x)
					d.Y = append(d.Y, c.f(x))
				}
			}
			p := DefaultParams()
			p.MinDataInLeaf = 1
			p.NumLeaves = 8
			c.p(&p)
			m, err := Train(d, nil, p)
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range d.X {
				got, _ := m.Predict(x)
				if math.Abs(got-d.Y[i]) > 1e-9 {
					t.Fatalf("row %v: predicted %v, want %v", x, got, d.Y[i])
				}
			}
			// Thresholds sit halfway between training values.
			for _, x := range [][]float64{{10.4, 5.4}, {10.6, 5.6}, {20.3, 4.2}, {3.4, 0}, {3.6, 9}} {
				got, _ := m.Predict(x[:c.nf])
				if want := c.f(roundHalf(x[:c.nf])); math.Abs(got-want) > 1e-9 {
					t.Errorf("between training values at %v: %v, want %v", x, got, want)
				}
			}
		})
	}
}

func roundHalf(x []float64) []float64 {
	r := make([]float64, len(x))
	for i, v := range x {
		r[i] = math.Round(v)
	}
	return r
}

// TestTrainingLossMonotone: without bagging, each round's leaf values are
// shrunken means of the residuals, which cannot raise the training L2.
func TestTrainingLossMonotone(t *testing.T) {
	d := synthetic(1500, 8, 3, 7)
	for _, ff := range []float64{1, 0.5} {
		p := DefaultParams()
		p.NumIterations = 150
		p.FeatureFraction = ff
		p.Seed = 3
		m, err := Train(d, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		l := m.Log.TrainL2
		if len(l) != p.NumIterations {
			t.Fatalf("feature_fraction %v: %d rounds logged, want %d", ff, len(l), p.NumIterations)
		}
		for i := 1; i < len(l); i++ {
			if l[i] > l[i-1]*(1+1e-12) {
				t.Fatalf("feature_fraction %v: training L2 rose at round %d: %v -> %v", ff, i, l[i-1], l[i])
			}
		}
		if l[len(l)-1] > l[0]/20 {
			t.Errorf("feature_fraction %v: training L2 only fell from %v to %v", ff, l[0], l[len(l)-1])
		}
	}
}

// TestDeterminism: the same seed gives the same file byte for byte, for any
// number of workers; another seed gives another model.
func TestDeterminism(t *testing.T) {
	d := synthetic(3000, 12, 5, 11) // 36k row-features: the parallel path runs
	p := DefaultParams()
	p.NumIterations = 40
	p.NumLeaves = 31
	p.FeatureFraction = 0.7
	p.BaggingFraction = 0.8
	p.BaggingFreq = 1
	p.Seed = 42
	var files [][]byte
	for _, w := range []int{1, 2, 2, 3} {
		p.Workers = w
		m, err := Train(d, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, modelText(t, m))
	}
	for i := 1; i < len(files); i++ {
		if !bytes.Equal(files[0], files[i]) {
			t.Fatalf("run %d differs from run 0", i)
		}
	}
	p.Seed = 43
	m, err := Train(d, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(files[0], modelText(t, m)) {
		t.Error("seeds 42 and 43 gave the same model")
	}
}

// TestRoundTrip is the acceptance test: for models of several shapes,
// leaves' predictions from the saved file equal the trainer's in-memory
// predictions (within 1e-9 relative; by construction they are identical).
func TestRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		nf   int
		p    func(*Params)
	}{
		{"default", 10, func(p *Params) {}},
		{"bagging, deep", 20, func(p *Params) {
			p.NumLeaves, p.BaggingFraction, p.BaggingFreq, p.FeatureFraction, p.LambdaL2 = 63, 0.7, 2, 0.8, 1
		}},
		{"stumps, one feature", 1, func(p *Params) { p.MaxDepth = 1 }},
		{"few bins", 6, func(p *Params) { p.MaxBin = 4 }},
		{"constant model", 4, func(p *Params) { p.MinDataInLeaf = 5000 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			train := synthetic(2000, c.nf, 1, 1)
			test := synthetic(1000, c.nf, 1, 2)
			p := DefaultParams()
			p.NumIterations = 60
			c.p(&p)
			m, err := Train(train, nil, p)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "m.txt")
			if err := m.SaveFile(path); err != nil {
				t.Fatal(err)
			}
			e, err := LoadModel(path)
			if err != nil {
				t.Fatal(err)
			}
			if e.NumTrees() != m.NumTrees() || e.NumFeatures() != c.nf {
				t.Fatalf("loaded %d trees, %d features; trained %d, %d", e.NumTrees(), e.NumFeatures(), m.NumTrees(), c.nf)
			}
			want := make([]float64, len(test.X))
			got := make([]float64, len(test.X))
			if err := m.PredictBatch(test.X, want); err != nil {
				t.Fatal(err)
			}
			if err := e.PredictBatch(test.X, got); err != nil {
				t.Fatal(err)
			}
			exact := 0
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("row %d: leaves %v, trainer %v", i, got[i], want[i])
				}
				if got[i] == want[i] {
					exact++
				}
				single, err := e.Predict(test.X[i])
				if err != nil || single != got[i] {
					t.Fatalf("row %d: Predict %v (%v), PredictBatch %v", i, single, err, got[i])
				}
			}
			if exact != len(want) {
				t.Errorf("%d of %d predictions bit-identical (expected all)", exact, len(want))
			}
			if c.name == "constant model" {
				if m.NumTrees() != 1 || m.trees[0].numLeaves() != 1 || want[0] != m.Log.InitScore {
					t.Errorf("constant model: %d trees, prediction %v, mean %v", m.NumTrees(), want[0], m.Log.InitScore)
				}
			}
		})
	}
}

func TestEarlyStopping(t *testing.T) {
	train := synthetic(600, 6, 2, 21)
	valid := synthetic(300, 6, 2, 22)
	for i := range train.Y { // noisy labels make the model overfit
		train.Y[i] += 2 * math.Sin(float64(i)*12.9898)
	}
	p := DefaultParams()
	p.NumIterations = 1000
	p.LearningRate = 0.3
	p.MinDataInLeaf = 2
	p.NumLeaves = 63
	p.EarlyStoppingRound = 10
	m, err := Train(train, valid, p)
	if err != nil {
		t.Fatal(err)
	}
	v := m.Log.ValidL2
	best := slices.Index(v, slices.Min(v))
	if !m.Log.StoppedEarly || m.NumTrees() != best+1 || len(v) != best+1+p.EarlyStoppingRound {
		t.Fatalf("stopped early %v after %d rounds with %d trees; best round %d", m.Log.StoppedEarly, len(v), m.NumTrees(), best)
	}
	// The kept model scores the best validation L2.
	pred := make([]float64, len(valid.X))
	if err := m.PredictBatch(valid.X, pred); err != nil {
		t.Fatal(err)
	}
	if l2 := meanSquaredError(pred, valid.Y); math.Abs(l2-v[best]) > 1e-9*v[best] {
		t.Errorf("kept model validation L2 %v, best round's %v", l2, v[best])
	}
	// Ending at num_iterations before early stopping fires also keeps the
	// best round (training is deterministic, so the rounds are the same).
	p.NumIterations = best + 5
	m, err = Train(train, valid, p)
	if err != nil {
		t.Fatal(err)
	}
	if m.Log.StoppedEarly || len(m.Log.ValidL2) != best+5 || m.NumTrees() != best+1 {
		t.Errorf("num_iterations %d: stopped early %v, %d rounds, %d trees; want false, %d, %d",
			p.NumIterations, m.Log.StoppedEarly, len(m.Log.ValidL2), m.NumTrees(), best+5, best+1)
	}
}

func TestTrainErrors(t *testing.T) {
	good := func() *Dataset { return synthetic(50, 3, 0, 1) }
	cases := []struct {
		name  string
		edit  func(d, v *Dataset, p *Params)
		valid bool
	}{
		{"NaN feature", func(d, v *Dataset, p *Params) { d.X[3][1] = math.NaN() }, false},
		{"Inf feature", func(d, v *Dataset, p *Params) { d.X[3][1] = math.Inf(1) }, false},
		{"NaN target", func(d, v *Dataset, p *Params) { d.Y[7] = math.NaN() }, false},
		{"ragged", func(d, v *Dataset, p *Params) { d.X[4] = d.X[4][:2] }, false},
		{"short Y", func(d, v *Dataset, p *Params) { d.Y = d.Y[:10] }, false},
		{"empty", func(d, v *Dataset, p *Params) { d.X, d.Y = nil, nil }, false},
		{"bad name", func(d, v *Dataset, p *Params) { d.FeatureNames = []string{"a", "b c", "d"} }, false},
		{"name count", func(d, v *Dataset, p *Params) { d.FeatureNames = []string{"a"} }, false},
		{"valid width", func(d, v *Dataset, p *Params) { v.X[0] = append(v.X[0], 1) }, true},
		{"valid NaN", func(d, v *Dataset, p *Params) { v.Y[0] = math.NaN() }, true},
		{"early stop without valid", func(d, v *Dataset, p *Params) { p.EarlyStoppingRound = 5 }, false},
		{"zero params", func(d, v *Dataset, p *Params) { *p = Params{} }, false},
		{"learning rate", func(d, v *Dataset, p *Params) { p.LearningRate = math.NaN() }, false},
		{"max bin", func(d, v *Dataset, p *Params) { p.MaxBin = 1000 }, false},
		{"bagging", func(d, v *Dataset, p *Params) { p.BaggingFraction = 0 }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, v, p := good(), good(), DefaultParams()
			c.edit(d, v, &p)
			if !c.valid {
				v = nil
			}
			if _, err := Train(d, v, p); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func TestBinMapper(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, maxBin := range []int{2, 3, 16, 255, 256} {
		vals := make([]float64, 5000)
		for i := range vals {
			switch i % 3 {
			case 0:
				vals[i] = 7 // a heavy repeated value
			default:
				vals[i] = math.Exp(rng.NormFloat64() * 3)
			}
		}
		raw := slices.Clone(vals)
		m := newBinMapper(vals, maxBin)
		if m.numBins() > maxBin || m.numBins() < 2 {
			t.Fatalf("max_bin %d: %d bins", maxBin, m.numBins())
		}
		if !slices.IsSorted(m.upper) {
			t.Fatalf("max_bin %d: thresholds not sorted", maxBin)
		}
		counts := make([]int, m.numBins())
		for _, v := range raw {
			b := int(m.bin(v))
			counts[b]++
			// Bin b <=> upper[b-1] < v <= upper[b].
			if (b < len(m.upper) && v > m.upper[b]) || (b > 0 && v <= m.upper[b-1]) {
				t.Fatalf("max_bin %d: %v in bin %d", maxBin, v, b)
			}
		}
		if slices.Contains(counts, 0) {
			t.Errorf("max_bin %d: empty bin among %v", maxBin, counts)
		}
		if maxBin >= 16 && m.numBins() < maxBin*9/10 {
			t.Errorf("max_bin %d: only %d bins for 3000+ distinct values", maxBin, m.numBins())
		}
	}
	// Few distinct values: one bin each, cut halfway.
	m := newBinMapper([]float64{3, 1, 2, 2, 1}, 255)
	if !slices.Equal(m.upper, []float64{1.5, 2.5}) {
		t.Errorf("thresholds %v, want [1.5 2.5]", m.upper)
	}
	// Adjacent floats: the cut must still separate them.
	a := 1.0
	b := math.Nextafter(a, 2)
	m = newBinMapper([]float64{a, b}, 255)
	if m.bin(a) == m.bin(b) {
		t.Errorf("adjacent floats share a bin (threshold %v)", m.upper)
	}
}

func TestModelPredictErrors(t *testing.T) {
	m, err := Train(synthetic(100, 3, 0, 1), nil, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{{1, 2}, {1, 2, 3, 4}, {1, math.NaN(), 3}} {
		if _, err := m.Predict(x); err == nil {
			t.Errorf("Predict(%v) accepted", x)
		}
	}
}
