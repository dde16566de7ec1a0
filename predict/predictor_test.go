package predict

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/predict/gbdt"
)

// testHW is the default accelerator with its pp split made explicit.
var testHW = func() accel.HW {
	h := accel.DefaultHW()
	h.PPAggPEs = 256
	return h
}()

// syntheticSamples returns n labelled samples of data set ds: random graphs
// of 8..300 nodes, F and G cycled as in the Graphlaxy presets, the tiles
// dataflow.All gives for testHW, and a made-up but structured latency per
// configuration built from the composite features (so the models have
// something to learn and the configurations differ).
func syntheticSamples(t testing.TB, n int, ds string, seed uint64) []Sample {
	t.Helper()
	spec := graphs.GenSpec{Generator: "er", Seed: seed, MinNodes: 8, MaxNodes: 300, Params: map[string]float64{"avg_degree": 6}}
	out := make([]Sample, n)
	for i := range out {
		g, err := graphs.Generate(spec, i)
		if err != nil {
			t.Fatal(err)
		}
		F, G := []int{16, 32, 64}[i%3], []int{16, 32}[i%2]
		s := Sample{Dataset: ds, GraphID: int64(i), Mode: "extended", Graph: g, Features: graphs.ComputeFeatures(g), F: F, G: G, Hardware: PEArrayOf(testHW)}
		cfgs, err := dataflow.All(dataflow.Dims{V: g.NumNodes(), F: F, G: G}, testHW.PEs, testHW.PPAggPEs)
		if err != nil {
			t.Fatal(err)
		}
		for c, cfg := range cfgs {
			s.Tiles[c] = cfg.Tiles
			comp := dataflow.Composite(g, F, G, cfg.Tiles)
			var l float64
			switch cfg.Inter {
			case dataflow.Seq:
				l = comp[5] + comp[1]
			case dataflow.SP:
				l = 0.9*(comp[5]+comp[1]) + 40
			default:
				l = 1.1*max(comp[4]/float64(cfg.Tiles.Va)+comp[2], comp[1]) + 60
			}
			s.Latency[c] = math.Round(l*(1+0.2*s.Features.Clustering) + 20)
		}
		out[i] = s
	}
	return out
}

func testFitOptions() FitOptions {
	o := DefaultFitOptions()
	o.Params.NumIterations = 20
	o.Params.NumLeaves = 15
	o.Params.MinDataInLeaf = 5
	o.Params.EarlyStoppingRound = 5
	o.Workers = 2
	return o
}

// fitAndLoad trains on samples, saves the models and loads them back
// through leaves, as a user of a model directory would. It returns both, so
// round-trip tests can compare them.
func fitAndLoad(tb testing.TB, samples []Sample, o FitOptions) (*Fitted, *Predictor) {
	tb.Helper()
	f, err := Fit(samples, o)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	if err := f.Save(dir); err != nil {
		tb.Fatal(err)
	}
	p, err := LoadPredictor(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return f, p
}

func TestConfigNames(t *testing.T) {
	names := ConfigNames()
	if len(names) != NumConfigs || names[0] != "seq-a" || names[8] != "sp-a" || names[23] != "pp-h" {
		t.Fatalf("ConfigNames = %v", names)
	}
	cfgs, err := dataflow.All(dataflow.Dims{V: 10, F: 16, G: 16}, 512, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cfgs {
		if c.Name() != names[i] {
			t.Errorf("config %d: dataflow.All says %s, ConfigNames %s", i, c.Name(), names[i])
		}
	}
}

func TestAssignSplits(t *testing.T) {
	// Two data sets; set "a" has two cases (F, G) per graph.
	var ss []Sample
	for id := range 200 {
		ss = append(ss, Sample{Dataset: "a", GraphID: int64(id), F: 16}, Sample{Dataset: "a", GraphID: int64(id), F: 32})
	}
	for id := range 41 {
		ss = append(ss, Sample{Dataset: "b", GraphID: int64(1000 + id)})
	}
	sp := AssignSplits(ss, 7)
	count := map[string][3]int{}
	byGraph := map[[2]int64]Split{}
	for i, s := range ss {
		key := [2]int64{int64(len(s.Dataset)), s.GraphID}
		if prev, ok := byGraph[key]; ok && prev != sp[i] {
			t.Fatalf("graph %d of %s is in two splits", s.GraphID, s.Dataset)
		}
		byGraph[key] = sp[i]
		c := count[s.Dataset]
		c[sp[i]]++
		count[s.Dataset] = c
	}
	// 200 graphs: 140/30/30 (x2 cases); 41 graphs: round(28.7)=29, round(6.15)=6, 6.
	if got := count["a"]; got != [3]int{280, 60, 60} {
		t.Errorf("set a: train/valid/test samples %v, want [280 60 60]", got)
	}
	if got := count["b"]; got != [3]int{29, 6, 6} {
		t.Errorf("set b: train/valid/test samples %v, want [29 6 6]", got)
	}

	// Independent of sample order; dependent on the seed.
	rev := slices.Clone(ss)
	slices.Reverse(rev)
	sr := AssignSplits(rev, 7)
	for i := range ss {
		if sr[len(ss)-1-i] != sp[i] {
			t.Fatal("splits depend on sample order")
		}
	}
	other := AssignSplits(ss, 8)
	if slices.Equal(other, sp) {
		t.Error("seeds 7 and 8 give the same split")
	}
	if !slices.Equal(AssignSplits(ss, 7), sp) {
		t.Error("same seed, different split")
	}
}

// The round trip: every model's predictions through leaves equal the
// trainer's in-memory predictions on the whole test split, for every
// variant of the ablation and both baselines.
func TestFitRoundTrip(t *testing.T) {
	samples := syntheticSamples(t, 160, "synthetic", 1)
	splits := AssignSplits(samples, 1)
	for _, c := range []struct {
		fs       FeatureSet
		log      bool
		baseline Baseline
	}{
		{Base, false, NoBaseline}, {Full, false, NoBaseline},
		{Base, true, NoBaseline}, {Full, true, NoBaseline},
		{Base, true, LogLinear}, {Full, true, LogLinear},
	} {
		name := Variant(c.fs, c.log) + "/" + c.baseline.String()
		t.Run(name, func(t *testing.T) {
			o := testFitOptions()
			o.Features, o.Log, o.Baseline = c.fs, c.log, c.baseline
			f, p := fitAndLoad(t, samples, o)
			if (p.Manifest().Linear != nil) != (c.baseline == LogLinear) {
				t.Fatalf("manifest linear terms %v for baseline %s", p.Manifest().Linear != nil, c.baseline)
			}
			tested := 0
			var mem, lv [NumConfigs]float64
			for i := range samples {
				if splits[i] != TestSplit {
					continue
				}
				s := &samples[i]
				bm, err := f.PredictSample(s, mem[:])
				if err != nil {
					t.Fatal(err)
				}
				bl, err := p.PredictSample(s, lv[:])
				if err != nil {
					t.Fatal(err)
				}
				for k := range mem {
					if d := math.Abs(mem[k] - lv[k]); d > 1e-9*math.Abs(mem[k]) {
						t.Fatalf("sample %d %s: leaves %v, in memory %v", i, ConfigNames()[k], lv[k], mem[k])
					}
					// The raw model outputs too, model by model.
					row := c.fs.AppendRow(nil, s.Graph, &s.Features, s.F, s.G, s.Tiles[k])
					want, _ := f.Models[k].Predict(row)
					got, err := p.models[k].Predict(row)
					if err != nil || math.Abs(got-want) > 1e-9*math.Abs(want) {
						t.Fatalf("model %s: leaves %v (%v), in memory %v", ConfigNames()[k], got, err, want)
					}
				}
				if bm != bl {
					t.Fatalf("sample %d: best %d in memory, %d through leaves", i, bm, bl)
				}
				tested++
			}
			if tested == 0 {
				t.Fatal("empty test split")
			}
		})
	}
}

// Fit gives the same files whatever the worker count.
func TestFitDeterministic(t *testing.T) {
	samples := syntheticSamples(t, 100, "synthetic", 2)
	var dirs []string
	for _, w := range []int{1, 2, 5} {
		o := testFitOptions()
		o.Workers = w
		f, err := Fit(samples, o)
		if err != nil {
			t.Fatal(err)
		}
		d := t.TempDir()
		if err := f.Save(d); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	files, _ := filepath.Glob(filepath.Join(dirs[0], "*"))
	if len(files) != NumConfigs+1 {
		t.Fatalf("%d files in the model directory, want %d", len(files), NumConfigs+1)
	}
	for _, f := range files {
		want, _ := os.ReadFile(f)
		for _, d := range dirs[1:] {
			got, err := os.ReadFile(filepath.Join(d, filepath.Base(f)))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s differs between worker counts", filepath.Base(f))
			}
		}
	}
}

// The log-linear baseline helps: on the same trees it fits the synthetic
// labels better than boosting from the mean (the reason it exists).
func TestLogLinearBaselineHelps(t *testing.T) {
	samples := syntheticSamples(t, 200, "synthetic", 3)
	mape := map[Baseline]float64{}
	for _, b := range []Baseline{NoBaseline, LogLinear} {
		o := testFitOptions()
		o.Baseline = b
		f, err := Fit(samples, o)
		if err != nil {
			t.Fatal(err)
		}
		mape[b] = f.Validation[0].MAPE
	}
	if !(mape[LogLinear] < mape[NoBaseline]) {
		t.Fatalf("validation MAPE with the log-linear baseline %.2f %%, without %.2f %%", mape[LogLinear], mape[NoBaseline])
	}
}

func TestFitLinearExact(t *testing.T) {
	// log y = 2 + 0.5 log V - 1 log S2 exactly: the fit recovers it (the
	// ridge is tiny against 400 rows of spread inputs).
	fs := Full
	cols := fs.linearColumns()
	d := &gbdt.Dataset{}
	for i := range 400 {
		row := make([]float64, fs.NumFeatures())
		for j := range row {
			row[j] = float64(1 + (i*(j+3))%97)
		}
		d.X = append(d.X, row)
		d.Y = append(d.Y, 2+0.5*math.Log(row[ColV])-math.Log(row[ColS1+1]))
	}
	tm, err := fitLinear(d, cols)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range d.X {
		if got := tm.eval(x, cols); math.Abs(got-d.Y[i]) > 0.02 {
			t.Fatalf("row %d: baseline %v, want %v (terms %+v)", i, got, d.Y[i], tm)
		}
	}
	// A constant input gets no coefficient.
	for _, x := range d.X {
		x[ColG] = 16
	}
	tm, err = fitLinear(d, cols)
	if err != nil {
		t.Fatal(err)
	}
	if k := slices.Index(cols, ColG); tm.Coef[k] != 0 {
		t.Fatalf("constant input G has coefficient %v", tm.Coef[k])
	}
}

func TestFitErrors(t *testing.T) {
	samples := syntheticSamples(t, 30, "synthetic", 4)
	for _, c := range []struct {
		name string
		mut  func([]Sample, *FitOptions) []Sample
	}{
		{"no samples", func(ss []Sample, o *FitOptions) []Sample { return nil }},
		{"one graph (no validation split)", func(ss []Sample, o *FitOptions) []Sample { return ss[:1] }},
		{"zero latency", func(ss []Sample, o *FitOptions) []Sample { ss[3].Latency[5] = 0; return ss }},
		{"NaN latency", func(ss []Sample, o *FitOptions) []Sample { ss[3].Latency[5] = math.NaN(); return ss }},
		{"zero F", func(ss []Sample, o *FitOptions) []Sample { ss[2].F = 0; return ss }},
		{"no hardware", func(ss []Sample, o *FitOptions) []Sample { ss[4].Hardware = PEArray{}; return ss }},
		{"full set without graph", func(ss []Sample, o *FitOptions) []Sample { ss[1].Graph = nil; return ss }},
		{"loglinear without log", func(ss []Sample, o *FitOptions) []Sample { o.Log = false; return ss }},
		{"bad params", func(ss []Sample, o *FitOptions) []Sample { o.Params.NumLeaves = 1; return ss }},
		{"unknown feature set", func(ss []Sample, o *FitOptions) []Sample { o.Features = 9; return ss }},
		{"unknown baseline", func(ss []Sample, o *FitOptions) []Sample { o.Baseline = 7; return ss }},
	} {
		o := testFitOptions()
		ss := c.mut(slices.Clone(samples), &o)
		if _, err := Fit(ss, o); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func savedModels(t *testing.T) (string, []Sample) {
	t.Helper()
	samples := syntheticSamples(t, 80, "synthetic", 5)
	f, err := Fit(samples, testFitOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := f.Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir, samples
}

// Predict (tiles from dataflow.All) agrees with PredictSample (tiles of the
// sample, here also from dataflow.All), PredictGraph computes the same
// features, and neither Predict nor PredictSample allocates.
func TestPredictorPredict(t *testing.T) {
	dir, samples := savedModels(t)
	p, err := LoadPredictor(dir)
	if err != nil {
		t.Fatal(err)
	}
	var a, b, c [NumConfigs]float64
	for i := range samples[:10] {
		s := &samples[i]
		ba, err := p.Predict(s.Graph, &s.Features, s.F, s.G, accel.DefaultHW(), a[:])
		if err != nil {
			t.Fatal(err)
		}
		bb, err := p.PredictSample(s, b[:])
		if err != nil {
			t.Fatal(err)
		}
		bc, err := p.PredictGraph(s.Graph, s.F, s.G, testHW, c[:])
		if err != nil {
			t.Fatal(err)
		}
		if a != b || a != c || ba != bb || ba != bc || ba != ArgMin(a[:]) {
			t.Fatalf("sample %d: Predict %v (%d), PredictSample %v (%d), PredictGraph %v (%d)", i, a, ba, b, bb, c, bc)
		}
		for k, v := range a {
			if !(v > 0) {
				t.Fatalf("sample %d: %s predicted %v", i, ConfigNames()[k], v)
			}
		}
	}
	s := &samples[0]
	// The race detector makes sync.Pool drop items at random, so the
	// scratch memory is reallocated: count allocations only without it.
	if !raceEnabled() {
		if n := testing.AllocsPerRun(50, func() { p.Predict(s.Graph, &s.Features, s.F, s.G, testHW, a[:]) }); n != 0 {
			t.Errorf("Predict allocates %v times", n)
		}
		if n := testing.AllocsPerRun(50, func() { p.PredictSample(s, a[:]) }); n != 0 {
			t.Errorf("PredictSample allocates %v times", n)
		}
	}

	// Errors: unknown hardware, short output, no graph for the full set.
	big := accel.DefaultHW()
	big.PEs = 1024
	if _, err := p.Predict(s.Graph, &s.Features, s.F, s.G, big, a[:]); err == nil || !strings.Contains(err.Error(), "trained on") {
		t.Errorf("other hardware: %v", err)
	}
	if _, err := p.Predict(s.Graph, &s.Features, s.F, s.G, testHW, a[:5]); err == nil {
		t.Error("short output accepted")
	}
	if _, err := p.Predict(nil, &s.Features, s.F, s.G, testHW, a[:]); err == nil {
		t.Error("full set without graph accepted")
	}
	if _, err := p.Predict(s.Graph, &s.Features, 0, s.G, testHW, a[:]); err == nil {
		t.Error("F = 0 accepted")
	}
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, st := range bi.Settings {
		if st.Key == "-race" {
			return st.Value == "true"
		}
	}
	return false
}

// LoadPredictor refuses directories that do not hold what the manifest
// says.
func TestLoadPredictorErrors(t *testing.T) {
	dir, _ := savedModels(t)
	manData, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var man Manifest
	if err := json.Unmarshal(manData, &man); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mut  func(dir string, m *Manifest)
		want string
	}{
		{"format", func(_ string, m *Manifest) { m.Format = "other/2" }, "format"},
		{"feature set", func(_ string, m *Manifest) { m.Features = "base" }, "feature_names"},
		{"config order", func(_ string, m *Manifest) { m.Models[0], m.Models[1] = m.Models[1], m.Models[0] }, "want \"seq-a\""},
		{"too few models", func(_ string, m *Manifest) { m.Models = m.Models[:23] }, "23 models"},
		{"best fixed", func(_ string, m *Manifest) { m.BestFixed = "xx-z" }, "best_fixed"},
		{"baseline", func(_ string, m *Manifest) { m.Baseline = "quadratic" }, "baseline"},
		{"linear inputs", func(_ string, m *Manifest) { m.Linear.Inputs = m.Linear.Inputs[1:] }, "linear inputs"},
		{"linear terms", func(_ string, m *Manifest) { m.Linear.Terms[3].Coef = m.Linear.Terms[3].Coef[:2] }, "2 coefficients"},
		{"linear without log", func(_ string, m *Manifest) { m.Log = false }, "log: true"},
		{"no hardware", func(_ string, m *Manifest) { m.Hardware = nil }, "hardware"},
		{"bad hardware", func(_ string, m *Manifest) { m.Hardware[0].PPAggPEs = 512 }, "PE array"},
		{"escaping file", func(_ string, m *Manifest) { m.Models[2].File = "../seq-c.txt" }, "plain name"},
		{"missing model", func(d string, _ *Manifest) { os.Remove(filepath.Join(d, "pp-h.txt")) }, "pp-h.txt"},
		{"truncated model", func(d string, _ *Manifest) {
			b, _ := os.ReadFile(filepath.Join(d, "sp-d.txt"))
			os.WriteFile(filepath.Join(d, "sp-d.txt"), b[:len(b)/2], 0o644)
		}, "sp-d.txt"},
		{"v4 model", func(d string, _ *Manifest) {
			b, _ := os.ReadFile(filepath.Join(d, "seq-e.txt"))
			os.WriteFile(filepath.Join(d, "seq-e.txt"), bytes.Replace(b, []byte("version=v3"), []byte("version=v4"), 1), 0o644)
		}, "v4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := t.TempDir()
			files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
			for _, f := range files {
				b, _ := os.ReadFile(f)
				os.WriteFile(filepath.Join(d, filepath.Base(f)), b, 0o644)
			}
			var m Manifest
			json.Unmarshal(manData, &m)
			c.mut(d, &m)
			b, _ := json.Marshal(&m)
			os.WriteFile(filepath.Join(d, ManifestFile), b, 0o644)
			_, err := LoadPredictor(d)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
	// Unknown manifest keys are refused (a typo never passes silently).
	d := t.TempDir()
	os.WriteFile(filepath.Join(d, ManifestFile), append(manData[:len(manData)-2], []byte(`,"extra":1}`)...), 0o644)
	if _, err := LoadPredictor(d); err == nil {
		t.Error("unknown manifest key accepted")
	}
	if _, err := LoadPredictor(t.TempDir()); err == nil {
		t.Error("empty directory accepted")
	}
}

// BenchmarkPredictor is the predictor's cost for one 250-node graph: all 24
// predictions with feature extraction (the composite features S1..S6 per
// distinct tiling, and the graph features too in "graph-features"), with
// models of the size DefaultFitParams grows on Graphlaxy Medium (30 trees
// of up to 31 leaves; early stopping is off so that the synthetic labels
// get as many trees). bench.BenchmarkPredictorMedium measures the models
// trained on Medium itself.
func BenchmarkPredictor(b *testing.B) {
	samples := syntheticSamples(b, 1500, "synthetic", 6)
	o := DefaultFitOptions()
	o.Params.EarlyStoppingRound = 0
	o.Workers = 2
	f, p := fitAndLoad(b, samples, o)
	g, err := graphs.Generate(graphs.GenSpec{Generator: "er", Seed: 9, MinNodes: 250, MaxNodes: 250, Params: map[string]float64{"avg_degree": 4}}, 0)
	if err != nil {
		b.Fatal(err)
	}
	gf := graphs.ComputeFeatures(g)
	trees := 0
	for _, m := range f.Models {
		trees += m.NumTrees()
	}
	var out [NumConfigs]float64
	b.Run("stored-features", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Predict(g, &gf, 32, 16, testHW, out[:]); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(trees)/float64(NumConfigs), "trees/model")
	})
	b.Run("graph-features", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.PredictGraph(g, 32, 16, testHW, out[:]); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(trees)/float64(NumConfigs), "trees/model")
	})
}

func TestPEArrayValid(t *testing.T) {
	for _, c := range []struct {
		h             PEArray
		raw, resolved bool
	}{
		{PEArray{PEs: 512, PPAggPEs: 256}, true, true},
		{PEArray{PEs: 512, PPAggPEs: 1}, true, true},
		{PEArray{PEs: 512}, false, true}, // 0: half of the PEs
		{PEArray{PEs: 2}, false, true},
		{PEArray{PEs: 1}, false, false},
		{PEArray{PEs: 512, PPAggPEs: 512}, false, false},
		{PEArray{PEs: 512, PPAggPEs: -1}, false, false},
		{PEArray{PEs: dataflow.MaxDim + 2, PPAggPEs: 8}, false, false},
	} {
		if got := c.h.valid(); got != c.raw {
			t.Errorf("%+v.valid() = %v, want %v", c.h, got, c.raw)
		}
		if got := c.h.resolved().valid(); got != c.resolved {
			t.Errorf("%+v.resolved().valid() = %v, want %v", c.h, got, c.resolved)
		}
	}
}

func TestGroupByDataset(t *testing.T) {
	labels := []string{"b", "a", "b", "c", "a", "b"}
	got := GroupByDataset(len(labels), func(i int) string { return labels[i] })
	want := []DatasetGroup{{"b", []int{0, 2, 5}}, {"a", []int{1, 4}}, {"c", []int{3}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GroupByDataset = %v, want %v", got, want)
	}
	if g := GroupByDataset(0, nil); g != nil {
		t.Errorf("no samples: %v", g)
	}
}
