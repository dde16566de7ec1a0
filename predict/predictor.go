package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"gnnsim"
	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/internal/atomicfile"
	"gnnsim/internal/par"
)

// NumConfigs is the number of configurations a predictor covers: seed 002's
// 3 inter-phase dataflows x 8 tilings, one model each.
const NumConfigs = dataflow.NumConfigs

// ConfigNames returns the configuration names in model order, the order of
// dataflow.All: seq-a..seq-h, sp-a..sp-h, pp-a..pp-h.
func ConfigNames() []string {
	names := make([]string, 0, NumConfigs)
	for _, in := range dataflow.Inters {
		for _, t := range dataflow.TilingNames {
			names = append(names, in.String()+"-"+string(t))
		}
	}
	return names
}

// Hardware is what a predictor needs to know of an accelerator: the PE
// count and the PEs aggregation gets under pp. It fixes the tile sizes of
// every configuration for a layer (dataflow.All).
type Hardware struct {
	PEs      int `json:"pes"`
	PPAggPEs int `json:"pp_agg_pes"` // 0 means half, as in accel.HW
}

// resolved returns h with PPAggPEs made explicit, so equal hardware
// compares equal.
func (h Hardware) resolved() Hardware {
	if h.PPAggPEs == 0 {
		h.PPAggPEs = h.PEs / 2
	}
	return h
}

// valid reports whether h, as given (resolve it first to accept
// PPAggPEs 0), is a PE array the configurations can be tiled for.
func (h Hardware) valid() bool {
	return h.PEs >= 2 && h.PEs <= dataflow.MaxDim && h.PPAggPEs >= 1 && h.PPAggPEs < h.PEs
}

func (h Hardware) String() string {
	h = h.resolved()
	return fmt.Sprintf("%d PEs (pp: %d+%d)", h.PEs, h.PPAggPEs, h.PEs-h.PPAggPEs)
}

// Sample is one labelled case: a graph with the sizes of its layer, on one
// hardware point, with the tiles and true latency of every configuration.
type Sample struct {
	Dataset  string // data set label (the runs table's dataset column)
	GraphID  int64  // the graph's id in its sweep; splits are by graph
	Mode     string // accelerator model of the labels (omega | extended)
	Graph    *graphs.Graph
	Features graphs.Features // of Graph, as graphs.ComputeFeatures gives them
	F, G     int
	Hardware Hardware
	// Tiles and Latency are indexed like ConfigNames. Latency is in cycles
	// and positive.
	Tiles   [NumConfigs]dataflow.Tiles
	Latency [NumConfigs]float64
}

// Split is the part of a data set a graph belongs to.
type Split uint8

// The three parts of seed 002's 70/15/15 split.
const (
	TrainSplit Split = iota
	ValidSplit
	TestSplit
)

func (s Split) String() string {
	switch s {
	case TrainSplit:
		return "train"
	case ValidSplit:
		return "valid"
	case TestSplit:
		return "test"
	}
	return fmt.Sprintf("Split(%d)", uint8(s))
}

// Split fractions: 70 % training, 15 % validation, the rest test.
const (
	TrainFraction = 0.70
	ValidFraction = 0.15
)

// splitStream derives the PCG stream of a data set's split from its name,
// so that data sets of equal size get unrelated permutations.
func splitStream(dataset string) uint64 {
	h := fnv.New64a()
	h.Write([]byte("gnnsim/predict split "))
	h.Write([]byte(dataset))
	return h.Sum64()
}

// AssignSplits returns the split of every sample. Splits are by graph and
// per data set: the distinct graph ids of a data set, in increasing order,
// are shuffled by a PCG generator seeded with (seed, FNV-1a of the data set
// name); the first round(0.70 n) go to training, the next round(0.15 n) to
// validation and the rest to test. Every sample of a graph (all its F, G
// and hardware cases) lands in the graph's split. The result depends only on
// seed, the data set names and their sets of graph ids, never on sample
// order.
func AssignSplits(samples []Sample, seed uint64) []Split {
	ids := map[string][]int64{}
	var order []string
	for i := range samples {
		s := &samples[i]
		if _, ok := ids[s.Dataset]; !ok {
			order = append(order, s.Dataset)
		}
		ids[s.Dataset] = append(ids[s.Dataset], s.GraphID)
	}
	of := map[string]map[int64]Split{}
	for _, ds := range order {
		g := ids[ds]
		slices.Sort(g)
		g = slices.Compact(g)
		rng := rand.New(rand.NewPCG(seed, splitStream(ds)))
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		nTrain, nValid := splitCounts(len(g))
		m := make(map[int64]Split, len(g))
		for k, id := range g {
			switch {
			case k < nTrain:
				m[id] = TrainSplit
			case k < nTrain+nValid:
				m[id] = ValidSplit
			default:
				m[id] = TestSplit
			}
		}
		of[ds] = m
	}
	out := make([]Split, len(samples))
	for i := range samples {
		out[i] = of[samples[i].Dataset][samples[i].GraphID]
	}
	return out
}

func splitCounts(n int) (train, valid int) {
	train = int(math.Round(TrainFraction * float64(n)))
	valid = min(int(math.Round(ValidFraction*float64(n))), n-train)
	return train, valid
}

// FitOptions configure Fit.
type FitOptions struct {
	Features FeatureSet
	// Log trains on log(latency); the predictor returns exp of the model
	// output (seed 002's "+log").
	Log bool
	// Baseline is what the trees of a Log model are boosted from (it must
	// be NoBaseline without Log).
	Baseline Baseline
	// Params are the GBDT parameters of every model. Params.Workers is
	// ignored: Fit trains Workers models at once, one goroutine each.
	Params Params
	// SplitSeed seeds AssignSplits.
	SplitSeed uint64
	// Workers is the number of models trained at once; <= 0 means
	// runtime.GOMAXPROCS(0). It never changes the result.
	Workers int
}

// DefaultFitParams are the GBDT parameters of DefaultFitOptions, chosen on
// the validation splits of Graphlaxy Medium (extended and omega labels) for
// the trade-off between accuracy and prediction cost: at most 30 trees of
// up to 31 leaves, learning rate 0.25, LightGBM's min_data_in_leaf 20,
// early stopping after 10 rounds without improvement. With the log-linear
// baseline they reach the accuracy of about 2,000 trees boosted from the
// mean, at about 1 µs per prediction through leaves.
func DefaultFitParams() Params {
	p := DefaultParams()
	p.NumIterations = 30
	p.LearningRate = 0.25
	p.NumLeaves = 31
	p.MinDataInLeaf = 20
	p.EarlyStoppingRound = 10
	p.Seed = 1
	return p
}

// DefaultFitOptions returns the options of the recommended predictor: all
// features, log target boosted from the log-linear baseline,
// DefaultFitParams, split seed 1.
func DefaultFitOptions() FitOptions {
	return FitOptions{Features: Full, Log: true, Baseline: LogLinear, Params: DefaultFitParams(), SplitSeed: 1}
}

// Baseline is the starting point the trees of a model are boosted from.
type Baseline uint8

const (
	// NoBaseline starts from the mean target (LightGBM's
	// boost_from_average): seed 002's method, the model file is the whole
	// model.
	NoBaseline Baseline = iota
	// LogLinear starts a log-latency model from a per-configuration linear
	// regression of log(latency) on the logs of the size-like features
	// (V, E, F, G and, in the Full set, S1..S6; see LinearBaseline.Inputs),
	// fitted by ridge least squares on the training split. The trees, in
	// the model file, learn the residual; the baseline's coefficients are
	// in the manifest and the predictor adds them back, as LightGBM's
	// init_score is added back by its user. Trees approximate the power
	// laws latency follows by steps, so they need many rounds to get them
	// to 1 %; from the baseline they only correct it, which gives the same
	// accuracy with far fewer trees (see the package documentation for the
	// figures).
	LogLinear
)

var baselineNames = [...]string{NoBaseline: "none", LogLinear: "loglinear"}

// String returns "none" or "loglinear".
func (b Baseline) String() string {
	if int(b) < len(baselineNames) {
		return baselineNames[b]
	}
	return fmt.Sprintf("Baseline(%d)", uint8(b))
}

// ParseBaseline parses "none" or "loglinear".
func ParseBaseline(s string) (Baseline, error) {
	for i, n := range baselineNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Baseline(i), nil
		}
	}
	return 0, fmt.Errorf("predict: unknown baseline %q (want none or loglinear)", s)
}

// LinearBaseline is the log-linear baseline of a model directory.
type LinearBaseline struct {
	// Inputs names the inputs: the logs of the size-like feature columns,
	// "log(V)", "log(E)", "log(F)", "log(G)" and, for the full set,
	// "log(S1)".."log(S6)" (values are floored at 1e-12 before the log).
	Inputs []string `json:"inputs"`
	// Ridge is the L2 penalty per training row on the standardised inputs.
	Ridge float64 `json:"ridge"`
	// Terms are the coefficients per configuration, in model order.
	Terms []LinearTerms `json:"terms"`
}

// LinearTerms are one configuration's baseline: Intercept + sum_k
// Coef[k] * input_k.
type LinearTerms struct {
	Intercept float64   `json:"intercept"`
	Coef      []float64 `json:"coef"`
}

// eval returns the baseline of a feature row whose baseline inputs are
// the columns cols.
func (t *LinearTerms) eval(row []float64, cols []int) float64 {
	s := t.Intercept
	for k, j := range cols {
		s += t.Coef[k] * logInput(row[j])
	}
	return s
}

// dot returns the baseline of the inputs z (logs already taken), in the
// same order of operations as eval, so both give the same bits.
func (t *LinearTerms) dot(z []float64) float64 {
	s := t.Intercept
	for k, w := range t.Coef {
		s += w * z[k]
	}
	return s
}

// linearRidge is the ridge penalty per row on standardised inputs: enough
// to keep the nearly collinear S1..S6 from taking large opposite
// coefficients, far too small to bias the fit.
const linearRidge = 1e-3

// fitLinear fits the log-linear baseline on columns cols of d by ridge
// least squares on standardised inputs; inputs that are constant over d
// get coefficient 0.
func fitLinear(d *Dataset, cols []int) (LinearTerms, error) {
	n, k := len(d.X), len(cols)
	z := make([]float64, n*k)
	for i, x := range d.X {
		for q, j := range cols {
			z[i*k+q] = logInput(x[j])
		}
	}
	ymean := 0.0
	for _, y := range d.Y {
		ymean += y
	}
	ymean /= float64(n)
	mean := make([]float64, k)
	sd := make([]float64, k)
	for q := range k {
		for i := range n {
			mean[q] += z[i*k+q]
		}
		mean[q] /= float64(n)
		for i := range n {
			dv := z[i*k+q] - mean[q]
			sd[q] += dv * dv
		}
		sd[q] = math.Sqrt(sd[q] / float64(n))
	}
	t := LinearTerms{Intercept: ymean, Coef: make([]float64, k)}
	// Inputs that do not vary (up to rounding) cannot be fitted.
	var use []int
	for q := range k {
		if sd[q] > 1e-9*max(1, math.Abs(mean[q])) {
			use = append(use, q)
		}
	}
	if len(use) == 0 {
		return t, nil
	}
	m := len(use)
	a := mat.NewSymDense(m, nil)
	b := mat.NewVecDense(m, nil)
	row := make([]float64, m)
	for i := range n {
		for u, q := range use {
			row[u] = (z[i*k+q] - mean[q]) / sd[q]
		}
		r := d.Y[i] - ymean
		for u := range m {
			b.SetVec(u, b.AtVec(u)+row[u]*r)
			for v := u; v < m; v++ {
				a.SetSym(u, v, a.At(u, v)+row[u]*row[v])
			}
		}
	}
	for u := range m {
		a.SetSym(u, u, a.At(u, u)+linearRidge*float64(n))
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return t, errors.New("predict: the log-linear baseline's normal equations are not positive definite")
	}
	var w mat.VecDense
	if err := ch.SolveVecTo(&w, b); err != nil {
		return t, fmt.Errorf("predict: log-linear baseline: %w", err)
	}
	for u, q := range use {
		t.Coef[q] = w.AtVec(u) / sd[q]
		t.Intercept -= t.Coef[q] * mean[q]
	}
	return t, nil
}

// Variant names the feature set and target as seed 002's Table 4 does:
// "base", "base+features", "base+log" or "base+features+log".
func Variant(fs FeatureSet, log bool) string {
	v := "base"
	if fs == Full {
		v += "+features"
	}
	if log {
		v += "+log"
	}
	return v
}

// ManifestFile is the name of the manifest in a model directory.
const ManifestFile = "manifest.json"

// ManifestFormat identifies the manifest layout.
const ManifestFormat = "gnnsim-latency-models/1"

// Manifest describes a model directory: what the 24 models take and
// predict, what they were trained on, and the choices evaluation needs
// (split seed, best fixed configurations).
type Manifest struct {
	Format        string `json:"format"`
	GnnsimVersion string `json:"gnnsim_version"`
	Features      string `json:"features"` // base | full
	Log           bool   `json:"log"`      // models output log(cycles)
	// Baseline is "none" (the model files are the whole models) or
	// "loglinear" (Linear holds what the predictor adds to the trees).
	Baseline     string          `json:"baseline"`
	Linear       *LinearBaseline `json:"linear,omitempty"`
	Target       string          `json:"target"` // always "cycles"
	FeatureNames []string        `json:"feature_names"`
	// Models lists the configurations in ConfigNames order with their files
	// (relative to the directory).
	Models []ModelEntry `json:"models"`
	// Hardware lists the hardware points of the training samples; the
	// predictor refuses others, whose tile sizes it never saw.
	Hardware []Hardware `json:"hardware"`
	Modes    []string   `json:"modes"` // accelerator models of the labels
	// BestFixed is the configuration with the least total latency over the
	// whole training split; data sets not trained on are compared with it.
	BestFixed string        `json:"best_fixed"`
	SplitSeed uint64        `json:"split_seed"`
	TrainedOn []DatasetInfo `json:"trained_on"`
	Params    Params        `json:"params"`
}

// ModelEntry is one configuration's model file.
type ModelEntry struct {
	Config string `json:"config"`
	File   string `json:"file"`
	Trees  int    `json:"trees"`
}

// DatasetInfo records a data set a predictor was trained on.
type DatasetInfo struct {
	Name   string `json:"name"`
	Graphs int    `json:"graphs"` // distinct graphs (the split is by graph)
	Train  int    `json:"train_samples"`
	Valid  int    `json:"valid_samples"`
	Test   int    `json:"test_samples"`
	// BestFixed is the configuration with the least total latency over the
	// set's own training split: its test split is compared with it.
	BestFixed string `json:"best_fixed"`
}

// Variant returns the Table 4 name of the models.
func (m *Manifest) Variant() string {
	fs, _ := ParseFeatureSet(m.Features)
	return Variant(fs, m.Log)
}

func (m *Manifest) trained(dataset string) (DatasetInfo, bool) {
	for _, d := range m.TrainedOn {
		if d.Name == dataset {
			return d, true
		}
	}
	return DatasetInfo{}, false
}

// Fitted is the result of Fit: 24 in-memory models, the manifest that
// describes them, and their metrics on the validation split.
type Fitted struct {
	Models   [NumConfigs]*Model
	Manifest Manifest
	// Validation holds the metrics of every data set on its validation
	// split: the figures to choose parameters by (the test split stays
	// untouched until the final evaluation).
	Validation []SetMetrics
}

// Fit trains one model per configuration on the training split of samples
// (AssignSplits with o.SplitSeed), with early stopping on the validation
// split as o.Params say. Models are trained o.Workers at a time, each by one
// goroutine, so the result does not depend on the worker count.
func Fit(samples []Sample, o FitOptions) (*Fitted, error) {
	if !o.Features.valid() {
		return nil, fmt.Errorf("predict: unknown feature set %d", o.Features)
	}
	if err := o.Params.Validate(); err != nil {
		return nil, err
	}
	switch {
	case o.Baseline > LogLinear:
		return nil, fmt.Errorf("predict: unknown baseline %d", o.Baseline)
	case o.Baseline == LogLinear && !o.Log:
		return nil, errors.New("predict: the log-linear baseline needs the log target")
	}
	if len(samples) == 0 {
		return nil, errors.New("predict: no samples to train on")
	}
	for i := range samples {
		if err := checkSample(&samples[i], o.Features); err != nil {
			return nil, fmt.Errorf("predict: sample %d: %w", i, err)
		}
	}
	splits := AssignSplits(samples, o.SplitSeed)
	var train, valid []*Sample
	for i, sp := range splits {
		switch sp {
		case TrainSplit:
			train = append(train, &samples[i])
		case ValidSplit:
			valid = append(valid, &samples[i])
		}
	}
	if len(train) == 0 || (len(valid) == 0 && o.Params.EarlyStoppingRound > 0) {
		return nil, fmt.Errorf("predict: %d samples give %d training and %d validation samples; need both", len(samples), len(train), len(valid))
	}

	names := ConfigNames()
	fnames := o.Features.Names()
	man := Manifest{
		Format:        ManifestFormat,
		GnnsimVersion: gnnsim.Version,
		Features:      o.Features.String(),
		Log:           o.Log,
		Baseline:      o.Baseline.String(),
		Target:        "cycles",
		FeatureNames:  fnames,
		SplitSeed:     o.SplitSeed,
		Params:        o.Params,
	}
	man.Params.Workers = 0
	for i := range samples {
		s := &samples[i]
		if h := s.Hardware.resolved(); !slices.Contains(man.Hardware, h) {
			man.Hardware = append(man.Hardware, h)
		}
		if !slices.Contains(man.Modes, s.Mode) {
			man.Modes = append(man.Modes, s.Mode)
		}
	}
	man.TrainedOn = datasetInfos(samples, splits)
	fixed, err := BestFixed(latencies(train))
	if err != nil {
		return nil, err
	}
	man.BestFixed = names[fixed]

	f := &Fitted{}
	var terms [NumConfigs]LinearTerms
	lcols := o.Features.linearColumns()
	validPred := make([][]float64, len(valid))
	for i := range validPred {
		validPred[i] = make([]float64, NumConfigs)
	}
	p := o.Params
	p.Workers = 1
	// Each model writes only its own slots, so the models do not depend on
	// o.Workers; a failure reports the lowest configuration that failed.
	err = par.For(NumConfigs, o.Workers, func(c int) error {
		tr := buildDataset(train, c, o, fnames)
		var va *Dataset
		if len(valid) > 0 {
			va = buildDataset(valid, c, o, fnames)
		}
		var lin *LinearTerms
		if o.Baseline == LogLinear {
			t, err := fitLinear(tr, lcols)
			if err != nil {
				return fmt.Errorf("predict: model %s: %w", names[c], err)
			}
			terms[c] = t
			lin = &terms[c]
			for i, x := range tr.X {
				tr.Y[i] -= lin.eval(x, lcols)
			}
			if va != nil {
				for i, x := range va.X {
					va.Y[i] -= lin.eval(x, lcols)
				}
			}
		}
		m, err := Train(tr, va, p)
		if err != nil {
			return fmt.Errorf("predict: model %s: %w", names[c], err)
		}
		f.Models[c] = m
		if va != nil {
			for i, x := range va.X {
				raw := m.predict(x)
				if lin != nil {
					raw += lin.eval(x, lcols)
				}
				validPred[i][c] = toLatency(raw, o.Log)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for c, m := range f.Models {
		man.Models = append(man.Models, ModelEntry{Config: names[c], File: names[c] + ".txt", Trees: m.NumTrees()})
	}
	if o.Baseline == LogLinear {
		man.Linear = &LinearBaseline{Inputs: o.Features.linearInputNames(), Ridge: linearRidge, Terms: terms[:]}
	}
	f.Manifest = man
	if len(valid) > 0 {
		sets, err := evaluateGroups(valid, validPred, &man, ValidSplit)
		if err != nil {
			return nil, err
		}
		f.Validation = sets
	}
	return f, nil
}

// toLatency turns a raw model output (trees plus baseline) into a latency
// in cycles: exp of it for a model of log(latency).
func toLatency(raw float64, log bool) float64 {
	if log {
		return math.Exp(raw)
	}
	return raw
}

func checkSample(s *Sample, fs FeatureSet) error {
	if s.F <= 0 || s.G <= 0 {
		return fmt.Errorf("graph %d of %s: F = %d, G = %d, want > 0", s.GraphID, s.Dataset, s.F, s.G)
	}
	if !s.Hardware.resolved().valid() {
		return fmt.Errorf("graph %d of %s: hardware of %d PEs with %d for pp aggregation is not a valid PE array", s.GraphID, s.Dataset, s.Hardware.PEs, s.Hardware.PPAggPEs)
	}
	if fs == Full && s.Graph == nil {
		return fmt.Errorf("graph %d of %s: the full feature set needs the graph's CSR", s.GraphID, s.Dataset)
	}
	for c, l := range s.Latency {
		if !(l > 0) || math.IsInf(l, 0) {
			return fmt.Errorf("graph %d of %s: latency of %s is %v, want a positive finite number", s.GraphID, s.Dataset, ConfigNames()[c], l)
		}
	}
	return nil
}

// buildDataset returns the rows and targets of configuration c for the
// samples, in one backing array.
func buildDataset(ss []*Sample, c int, o FitOptions, names []string) *Dataset {
	nf := o.Features.NumFeatures()
	buf := make([]float64, 0, len(ss)*nf)
	d := &Dataset{X: make([][]float64, len(ss)), Y: make([]float64, len(ss)), FeatureNames: names}
	for i, s := range ss {
		start := len(buf)
		buf = o.Features.AppendRow(buf, s.Graph, &s.Features, s.F, s.G, s.Tiles[c])
		d.X[i] = buf[start:len(buf):len(buf)]
		d.Y[i] = s.Latency[c]
		if o.Log {
			d.Y[i] = math.Log(d.Y[i])
		}
	}
	return d
}

func latencies(ss []*Sample) [][]float64 {
	out := make([][]float64, len(ss))
	for i, s := range ss {
		out[i] = s.Latency[:]
	}
	return out
}

func datasetInfos(samples []Sample, splits []Split) []DatasetInfo {
	var infos []DatasetInfo
	idx := map[string]int{}
	graphsOf := map[string]map[int64]bool{}
	trainOf := map[string][]*Sample{}
	for i := range samples {
		s := &samples[i]
		k, ok := idx[s.Dataset]
		if !ok {
			k = len(infos)
			idx[s.Dataset] = k
			infos = append(infos, DatasetInfo{Name: s.Dataset})
			graphsOf[s.Dataset] = map[int64]bool{}
		}
		graphsOf[s.Dataset][s.GraphID] = true
		switch splits[i] {
		case TrainSplit:
			infos[k].Train++
			trainOf[s.Dataset] = append(trainOf[s.Dataset], s)
		case ValidSplit:
			infos[k].Valid++
		default:
			infos[k].Test++
		}
	}
	names := ConfigNames()
	for k := range infos {
		infos[k].Graphs = len(graphsOf[infos[k].Name])
		if tr := trainOf[infos[k].Name]; len(tr) > 0 {
			if f, err := BestFixed(latencies(tr)); err == nil {
				infos[k].BestFixed = names[f]
			}
		}
	}
	return infos
}

// PredictSample predicts a sample with the in-memory models, exactly as a
// Predictor loaded from the saved directory does through leaves (the two
// agree to the last bit: the tree sums are added in the same order).
func (f *Fitted) PredictSample(s *Sample, out []float64) (int, error) {
	if len(out) < NumConfigs {
		return -1, fmt.Errorf("predict: output has room for %d latencies, need %d", len(out), NumConfigs)
	}
	fs, err := ParseFeatureSet(f.Manifest.Features)
	if err != nil {
		return -1, err
	}
	if err := checkSample(s, fs); err != nil {
		return -1, fmt.Errorf("predict: %w", err)
	}
	row := make([]float64, 0, fs.NumFeatures())
	lcols := fs.linearColumns()
	for c, m := range f.Models {
		row = fs.AppendRow(row[:0], s.Graph, &s.Features, s.F, s.G, s.Tiles[c])
		v := m.predict(row)
		if f.Manifest.Linear != nil {
			v += f.Manifest.Linear.Terms[c].eval(row, lcols)
		}
		out[c] = toLatency(v, f.Manifest.Log)
	}
	return ArgMin(out[:NumConfigs]), nil
}

// Save writes the models and the manifest to dir (created if needed). Each
// file is written atomically and the manifest last, so a directory with a
// manifest is complete.
func (f *Fitted) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	for c, m := range f.Models {
		if err := m.SaveFile(filepath.Join(dir, f.Manifest.Models[c].File)); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(&f.Manifest, "", "  ")
	if err != nil {
		return fmt.Errorf("predict: manifest: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, ManifestFile), append(data, '\n')); err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	return nil
}

// maxManifestBytes bounds the manifest LoadPredictor reads.
const maxManifestBytes = 1 << 20

// Predictor predicts the latency of all 24 configurations of a GCN layer on
// a graph with the models of a directory, through leaves. It is safe for
// concurrent use.
type Predictor struct {
	man      Manifest
	features FeatureSet
	models   [NumConfigs]*Ensemble
	// linearCols are the columns of the log-linear baseline's inputs.
	linearCols []int
	scratch    sync.Pool // *predictScratch
}

// LoadPredictor reads a model directory written by Fitted.Save (or by hand:
// a manifest and 24 LightGBM v2/v3 text models with the feature columns the
// manifest names). Everything is checked: the manifest's format, feature
// set, configuration order and hardware, and every model's width and
// feature names.
func LoadPredictor(dir string) (*Predictor, error) {
	path := filepath.Join(dir, ManifestFile)
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	defer fh.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(fh, maxManifestBytes+1)); err != nil {
		return nil, fmt.Errorf("predict: reading %s: %w", path, err)
	}
	if buf.Len() > maxManifestBytes {
		return nil, fmt.Errorf("predict: %s is larger than %d bytes", path, maxManifestBytes)
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	var man Manifest
	if err := dec.Decode(&man); err != nil {
		return nil, fmt.Errorf("predict: %s: %w", path, err)
	}
	p := &Predictor{man: man}
	if err := p.checkManifest(); err != nil {
		return nil, fmt.Errorf("predict: %s: %w", path, err)
	}
	for c, e := range man.Models {
		if filepath.IsAbs(e.File) || strings.Contains(filepath.ToSlash(e.File), "..") {
			return nil, fmt.Errorf("predict: %s: model file %q must be a plain name inside the directory", path, e.File)
		}
		m, err := LoadModel(filepath.Join(dir, e.File))
		if err != nil {
			return nil, err
		}
		if !slices.Equal(m.FeatureNames(), man.FeatureNames) {
			return nil, fmt.Errorf("predict: %s: features %v, the manifest says %v", e.File, m.FeatureNames(), man.FeatureNames)
		}
		p.models[c] = m
	}
	p.scratch.New = func() any { return new(predictScratch) }
	return p, nil
}

func (p *Predictor) checkManifest() error {
	m := &p.man
	if m.Format != ManifestFormat {
		return fmt.Errorf("format %q, want %q", m.Format, ManifestFormat)
	}
	fs, err := ParseFeatureSet(m.Features)
	if err != nil {
		return err
	}
	p.features = fs
	p.linearCols = fs.linearColumns()
	if !slices.Equal(m.FeatureNames, fs.Names()) {
		return fmt.Errorf("feature_names %v do not match feature set %s %v", m.FeatureNames, fs, fs.Names())
	}
	if m.Target != "cycles" {
		return fmt.Errorf("target %q, want cycles", m.Target)
	}
	names := ConfigNames()
	if len(m.Models) != NumConfigs {
		return fmt.Errorf("%d models, want %d", len(m.Models), NumConfigs)
	}
	for c, e := range m.Models {
		if e.Config != names[c] {
			return fmt.Errorf("model %d is %q, want %q (configurations in the order %s)", c, e.Config, names[c], strings.Join(names, " "))
		}
	}
	if !slices.Contains(names, m.BestFixed) {
		return fmt.Errorf("best_fixed %q is not a configuration", m.BestFixed)
	}
	for _, d := range m.TrainedOn {
		if d.BestFixed != "" && !slices.Contains(names, d.BestFixed) {
			return fmt.Errorf("trained_on %s: best_fixed %q is not a configuration", d.Name, d.BestFixed)
		}
	}
	switch m.Baseline {
	case NoBaseline.String():
		if m.Linear != nil {
			return errors.New("baseline none with linear terms")
		}
	case LogLinear.String():
		if err := checkLinear(m, fs); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown baseline %q (want none or loglinear)", m.Baseline)
	}
	if len(m.Hardware) == 0 {
		return errors.New("no hardware listed")
	}
	for i, h := range m.Hardware {
		if !h.valid() {
			return fmt.Errorf("hardware %d: %d PEs with %d for pp aggregation is not a valid PE array", i, h.PEs, h.PPAggPEs)
		}
	}
	return nil
}

func checkLinear(m *Manifest, fs FeatureSet) error {
	l := m.Linear
	switch {
	case !m.Log:
		return errors.New("the log-linear baseline needs log: true")
	case l == nil:
		return errors.New("baseline loglinear without linear terms")
	case !slices.Equal(l.Inputs, fs.linearInputNames()):
		return fmt.Errorf("linear inputs %v, want %v", l.Inputs, fs.linearInputNames())
	case len(l.Terms) != NumConfigs:
		return fmt.Errorf("%d sets of linear terms, want %d", len(l.Terms), NumConfigs)
	}
	for c, t := range l.Terms {
		if len(t.Coef) != len(l.Inputs) {
			return fmt.Errorf("linear terms of %s: %d coefficients for %d inputs", m.Models[c].Config, len(t.Coef), len(l.Inputs))
		}
		if !finite(t.Intercept) || slices.ContainsFunc(t.Coef, func(x float64) bool { return !finite(x) }) {
			return fmt.Errorf("linear terms of %s: a coefficient is not finite", m.Models[c].Config)
		}
	}
	return nil
}

// Manifest returns the directory's manifest.
func (p *Predictor) Manifest() Manifest { return p.man }

// FeatureSet returns the feature set the models take.
func (p *Predictor) FeatureSet() FeatureSet { return p.features }

// Hardware returns the hardware points the models were trained on.
func (p *Predictor) Hardware() []Hardware { return slices.Clone(p.man.Hardware) }

func (p *Predictor) checkHardware(hw Hardware) error {
	if slices.Contains(p.man.Hardware, hw.resolved()) {
		return nil
	}
	var known []string
	for _, h := range p.man.Hardware {
		known = append(known, h.String())
	}
	return fmt.Errorf("predict: the models were trained on %s, not on %s: its tile sizes are outside what they learnt", strings.Join(known, ", "), hw)
}

// Predict writes the predicted latency in cycles of every configuration
// (ConfigNames order) of a GCN layer with F input and G output features on
// graph g, whose features are gf, into out[:NumConfigs], and returns the
// index of the predicted best (ArgMin). hw must be a hardware point the
// models were trained on. g may be nil for a Base predictor. It does not
// allocate.
func (p *Predictor) Predict(g *graphs.Graph, gf *graphs.Features, F, G int, hw Hardware, out []float64) (int, error) {
	if len(out) < NumConfigs {
		return -1, fmt.Errorf("predict: output has room for %d latencies, need %d", len(out), NumConfigs)
	}
	if err := p.checkHardware(hw); err != nil {
		return -1, err
	}
	if p.features == Full && g == nil {
		return -1, errors.New("predict: the full feature set needs the graph")
	}
	if gf.Nodes <= 0 {
		return -1, errors.New("predict: the graph has no nodes")
	}
	h := hw.resolved()
	cfgs, err := dataflow.All(dataflow.Dims{V: gf.Nodes, F: F, G: G}, h.PEs, h.PPAggPEs)
	if err != nil {
		return -1, fmt.Errorf("predict: %w", err)
	}
	var tiles [NumConfigs]dataflow.Tiles
	for c := range cfgs {
		tiles[c] = cfgs[c].Tiles
	}
	return p.predictTiles(g, gf, F, G, &tiles, out)
}

// PredictGraph is Predict for a graph whose features are not at hand: it
// computes them first (graphs.ComputeFeatures, which allocates).
func (p *Predictor) PredictGraph(g *graphs.Graph, F, G int, hw Hardware, out []float64) (int, error) {
	if g == nil {
		return -1, errors.New("predict: nil graph")
	}
	gf := graphs.ComputeFeatures(g)
	return p.Predict(g, &gf, F, G, hw, out)
}

// PredictSample is Predict for a labelled sample, with the tiles recorded
// in it (those the labels were simulated with).
func (p *Predictor) PredictSample(s *Sample, out []float64) (int, error) {
	if len(out) < NumConfigs {
		return -1, fmt.Errorf("predict: output has room for %d latencies, need %d", len(out), NumConfigs)
	}
	if err := checkSample(s, p.features); err != nil {
		return -1, fmt.Errorf("predict: %w", err)
	}
	if err := p.checkHardware(s.Hardware); err != nil {
		return -1, err
	}
	return p.predictTiles(s.Graph, &s.Features, s.F, s.G, &s.Tiles, out)
}

// maxLinearInputs is the most inputs a log-linear baseline has (Full).
const maxLinearInputs = 4 + dataflow.NumComposite

// predictScratch is the per-call working memory of a prediction, pooled so
// that predictions do not allocate (leaves takes the row through an
// interface, so a stack array would escape).
type predictScratch struct {
	rows [NumConfigs][NumFullFeatures]float64
	z    [NumConfigs][maxLinearInputs]float64 // baseline inputs of each row
}

func (p *Predictor) predictTiles(g *graphs.Graph, gf *graphs.Features, F, G int, tiles *[NumConfigs]dataflow.Tiles, out []float64) (int, error) {
	sc := p.scratch.Get().(*predictScratch)
	defer p.scratch.Put(sc)
	nf := p.features.NumFeatures()
	nz := len(p.linearCols)
	for c := range tiles {
		// seq and sp share their tiles: reuse the row (S5 is O(V)) and
		// the logs of the baseline inputs.
		same := slices.Index(tiles[:c], tiles[c])
		if same >= 0 {
			sc.rows[c] = sc.rows[same]
		} else {
			p.features.AppendRow(sc.rows[c][:0:nf], g, gf, F, G, tiles[c])
		}
		row := sc.rows[c][:nf]
		v, err := p.models[c].Predict(row)
		if err != nil {
			return -1, fmt.Errorf("predict: model %s: %w", p.man.Models[c].Config, err)
		}
		if p.man.Linear != nil {
			z := sc.z[c][:nz]
			if same >= 0 {
				copy(z, sc.z[same][:nz])
			} else {
				for k, j := range p.linearCols {
					// V, E, F and G are the same in every row.
					if c > 0 && row[j] == sc.rows[0][j] {
						z[k] = sc.z[0][k]
					} else {
						z[k] = logInput(row[j])
					}
				}
			}
			v += p.man.Linear.Terms[c].dot(z)
		}
		out[c] = toLatency(v, p.man.Log)
	}
	return ArgMin(out[:NumConfigs]), nil
}
