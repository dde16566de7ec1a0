package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gnnsim"
	"gnnsim/internal/atomicfile"
	"gnnsim/internal/par"
	"gnnsim/predict/gbdt"
)

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
	Params gbdt.Params
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
func DefaultFitParams() gbdt.Params {
	p := gbdt.DefaultParams()
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

// Fitted is the result of Fit: 24 in-memory models, the manifest that
// describes them, and their metrics on the validation split.
type Fitted struct {
	Models   [NumConfigs]*gbdt.Model
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
	if err := checkFitInputs(samples, o); err != nil {
		return nil, err
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
	man := newManifest(samples, splits, o, fnames)
	fixed, err := BestFixed(latencies(train))
	if err != nil {
		return nil, err
	}
	man.BestFixed = names[fixed]

	f := &Fitted{}
	terms, validPred, err := trainModels(train, valid, o, names, fnames, f)
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

// checkFitInputs refuses options and samples Fit cannot train on (unknown
// feature set or baseline, invalid GBDT parameters, no samples, a
// malformed sample) before any split or model is made, so that a bad call
// costs no training.
func checkFitInputs(samples []Sample, o FitOptions) error {
	if !o.Features.valid() {
		return fmt.Errorf("predict: unknown feature set %d", o.Features)
	}
	if err := o.Params.Validate(); err != nil {
		return err
	}
	switch {
	case o.Baseline > LogLinear:
		return fmt.Errorf("predict: unknown baseline %d", o.Baseline)
	case o.Baseline == LogLinear && !o.Log:
		return errors.New("predict: the log-linear baseline needs the log target")
	}
	if len(samples) == 0 {
		return errors.New("predict: no samples to train on")
	}
	for i := range samples {
		if err := checkSample(&samples[i], o.Features); err != nil {
			return fmt.Errorf("predict: sample %d: %w", i, err)
		}
	}
	return nil
}

// newManifest describes a fit of samples with options o before any model
// is trained: format, options, feature names fnames, the hardware and
// modes of the samples in first-seen order, and the data sets of each
// split. Fit adds the best fixed configuration, the models and the
// baseline once they exist. It describes the inputs only, so it is built
// apart from the training.
func newManifest(samples []Sample, splits []Split, o FitOptions, fnames []string) Manifest {
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
	return man
}

// trainModels trains the model of every configuration (names) into
// f.Models, o.Workers at a time, with the log-linear baseline's terms
// first when o asks for it. It returns those terms and each validation
// sample's predicted latency per configuration, which Fit scores. Each
// model writes only its own slots, so the models do not depend on
// o.Workers; a failure reports the lowest configuration that failed. It
// is Fit's parallel pass, kept apart so that what the goroutines share is
// these arguments and results.
func trainModels(train, valid []*Sample, o FitOptions, names, fnames []string, f *Fitted) ([NumConfigs]LinearTerms, [][]float64, error) {
	var terms [NumConfigs]LinearTerms
	lcols := o.Features.linearColumns()
	validPred := make([][]float64, len(valid))
	for i := range validPred {
		validPred[i] = make([]float64, NumConfigs)
	}
	p := o.Params
	p.Workers = 1
	err := par.For(NumConfigs, o.Workers, func(c int) error {
		tr := buildDataset(train, c, o, fnames)
		var va *gbdt.Dataset
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
		m, err := gbdt.Train(tr, va, p)
		if err != nil {
			return fmt.Errorf("predict: model %s: %w", names[c], err)
		}
		f.Models[c] = m
		if va != nil {
			for i, x := range va.X {
				raw, err := m.Predict(x)
				if err != nil {
					return fmt.Errorf("predict: model %s: %w", names[c], err)
				}
				if lin != nil {
					raw += lin.eval(x, lcols)
				}
				validPred[i][c] = toLatency(raw, o.Log)
			}
		}
		return nil
	})
	return terms, validPred, err
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
func buildDataset(ss []*Sample, c int, o FitOptions, names []string) *gbdt.Dataset {
	nf := o.Features.NumFeatures()
	buf := make([]float64, 0, len(ss)*nf)
	d := &gbdt.Dataset{X: make([][]float64, len(ss)), Y: make([]float64, len(ss)), FeatureNames: names}
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
	groups := GroupByDataset(len(samples), func(i int) string { return samples[i].Dataset })
	infos := make([]DatasetInfo, len(groups))
	names := ConfigNames()
	for k, grp := range groups {
		info := DatasetInfo{Name: grp.Name}
		graphIDs := map[int64]bool{}
		var train []*Sample
		for _, i := range grp.Samples {
			graphIDs[samples[i].GraphID] = true
			switch splits[i] {
			case TrainSplit:
				info.Train++
				train = append(train, &samples[i])
			case ValidSplit:
				info.Valid++
			default:
				info.Test++
			}
		}
		info.Graphs = len(graphIDs)
		if len(train) > 0 {
			if f, err := BestFixed(latencies(train)); err == nil {
				info.BestFixed = names[f]
			}
		}
		infos[k] = info
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
		v, err := m.Predict(row)
		if err != nil {
			return -1, fmt.Errorf("predict: model %s: %w", f.Manifest.Models[c].Config, err)
		}
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
