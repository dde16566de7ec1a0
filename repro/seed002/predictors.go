package seed002

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gnnsim/accel"
	"gnnsim/bench"
	"gnnsim/graphs"
	"gnnsim/internal/atomicfile"
	"gnnsim/predict"
)

// This file holds the drivers of 'gnnsim predict': training, evaluating
// and using the per-configuration latency predictors on sweep directories.

// FitSummary is what 'predict train --json' prints: no wall-clock time,
// so the same training prints the same object.
type FitSummary struct {
	Variant    string               `json:"variant"`
	Baseline   string               `json:"baseline"`
	Samples    int                  `json:"samples"`
	BestFixed  string               `json:"best_fixed"`
	Models     []predict.ModelEntry `json:"models"`
	Validation []predict.EvalRow    `json:"validation"`
}

// NewFitSummary summarises a fit on n samples saved to the model
// directory dir.
func NewFitSummary(f *predict.Fitted, n int, dir string) FitSummary {
	return FitSummary{Variant: f.Manifest.Variant(), Baseline: f.Manifest.Baseline, Samples: n,
		BestFixed: f.Manifest.BestFixed, Models: f.Manifest.Models,
		Validation: predict.Rows(f.Validation, &f.Manifest, dir)}
}

// WriteFit prints a fit on n samples in wall time saved to dir: the
// trees per model, the best fixed configuration and the validation split's
// Table 3.
func WriteFit(w io.Writer, f *predict.Fitted, n int, wall time.Duration, dir string) error {
	trees := make([]string, 0, predict.NumConfigs)
	for _, m := range f.Manifest.Models {
		trees = append(trees, fmt.Sprintf("%s=%d", m.Config, m.Trees))
	}
	fmt.Fprintf(w, "trained %s (baseline %s) on %d samples in %.1f s; trees: %s\n", f.Manifest.Variant(), f.Manifest.Baseline, n, wall.Seconds(), strings.Join(trees, " "))
	fmt.Fprintf(w, "best fixed configuration (training split): %s\n", f.Manifest.BestFixed)
	fmt.Fprintln(w, "validation split:")
	return WriteTable3(w, predict.Rows(f.Validation, &f.Manifest, dir))
}

// EvalDirs evaluates the predictor p (loaded from the directory models) on
// every sweep directory of dirs: Table 3's rows, one per data set. A data
// set whose labels are of another mode than the models' gets a warning on
// warn.
func EvalDirs(p *predict.Predictor, models string, dirs []string, warn io.Writer) ([]predict.EvalRow, error) {
	var rows []predict.EvalRow
	man := p.Manifest()
	for _, d := range dirs {
		samples, err := bench.ReadDataset(d)
		if err != nil {
			return nil, err
		}
		sets, err := p.Evaluate(samples)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		for _, s := range sets {
			if !slices.Contains(man.Modes, s.Mode) {
				fmt.Fprintf(warn, "warning: %s has %s labels, the models were trained on %s labels\n", s.Dataset, s.Mode, strings.Join(man.Modes, ","))
			}
		}
		rows = append(rows, predict.Rows(sets, &man, models)...)
	}
	return rows, nil
}

// Prediction is the models' latency of a GCN layer on one graph under
// each configuration, fastest first (a JSON object; its Configs the rows
// of a Parquet file).
type Prediction struct {
	Graph   string            `json:"graph"`
	Nodes   int               `json:"nodes"`
	Edges   int               `json:"edges"`
	F       int               `json:"F"`
	G       int               `json:"G"`
	PEArray string            `json:"pe_array"`
	Best    string            `json:"best"`
	Configs []PredictedCycles `json:"configs"`
}

// PredictedCycles is one configuration's predicted latency and its rank
// (1 = fastest).
type PredictedCycles struct {
	Rank   int     `json:"rank" parquet:"rank"`
	Config string  `json:"config" parquet:"config"`
	Cycles float64 `json:"cycles" parquet:"cycles"`
}

// Predict predicts the latency in cycles of a GCN layer (F input, G
// output features) on g under each of the 24 configurations on hw. A
// graph outside the models' training ranges gets a warning on warn; a
// prediction below one cycle is refused.
func Predict(warn io.Writer, p *predict.Predictor, g *graphs.Graph, F, G int, hw accel.HW) (*Prediction, error) {
	var lat [predict.NumConfigs]float64
	best, err := p.PredictGraph(g, F, G, hw, lat[:])
	if err != nil {
		return nil, err
	}
	names := predict.ConfigNames()
	outside, err := p.Extrapolation(g, F, G, hw)
	if err != nil {
		return nil, err
	}
	for c, v := range lat {
		if !(v >= 1) || math.IsInf(v, 0) {
			why := ""
			if len(outside) > 0 {
				why = "; the graph lies outside what the models were trained on: " + strings.Join(outside, "; ")
			}
			return nil, fmt.Errorf("the models predict %g cycles for %s, not a possible latency%s", v, names[c], why)
		}
	}
	if len(outside) > 0 {
		fmt.Fprintf(warn, "warning: extrapolating beyond the training data (%s): the latencies below are guesses\n", strings.Join(outside, "; "))
	}
	order := make([]int, predict.NumConfigs)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(lat[a], lat[b]) })
	pr := &Prediction{Graph: g.Name, Nodes: g.NumNodes(), Edges: g.NumEdges(), F: F, G: G,
		PEArray: fmt.Sprint(predict.PEArrayOf(hw)), Best: names[best]}
	for rank, c := range order {
		pr.Configs = append(pr.Configs, PredictedCycles{rank + 1, names[c], lat[c]})
	}
	return pr, nil
}

// WriteText prints the prediction, fastest first, and the predicted best.
func (pr *Prediction) WriteText(w io.Writer) {
	fmt.Fprintf(w, "graph %q: %d nodes, %d edges; F=%d G=%d; %s\n", pr.Graph, pr.Nodes, pr.Edges, pr.F, pr.G, pr.PEArray)
	var best float64
	for _, c := range pr.Configs {
		fmt.Fprintf(w, "%2d  %-6s %14.0f cycles\n", c.Rank, c.Config, c.Cycles)
		if c.Config == pr.Best {
			best = c.Cycles
		}
	}
	fmt.Fprintf(w, "predicted best: %s (%.0f cycles)\n", pr.Best, best)
}

// TrainDirs fits the 24 models on the training split of the sweep
// directories data with the feature set named features (without the log
// target, no baseline) and saves them to out. It returns the fit, the
// number of samples and the fitting's wall time; progress gets a
// heartbeat while the models are fitted.
func TrainDirs(data []string, features string, o predict.FitOptions, out string, progress io.Writer) (*predict.Fitted, int, time.Duration, error) {
	fs, err := predict.ParseFeatureSet(features)
	if err != nil {
		return nil, 0, 0, err
	}
	o.Features = fs
	if !o.Log {
		o.Baseline = predict.NoBaseline
	}
	samples, err := bench.ReadDatasets(data)
	if err != nil {
		return nil, 0, 0, err
	}
	start := time.Now()
	stop := bench.Heartbeat(progress, "predict train: fitting 24 models")
	f, err := predict.Fit(samples, o)
	stop()
	if err != nil {
		return nil, 0, 0, err
	}
	wall := time.Since(start)
	return f, len(samples), wall, f.Save(out)
}

// EvalModels evaluates the model directory models on the sweep
// directories data (EvalDirs; warnings on warn) and writes the rows to a
// Parquet file and their Table 3 to a Markdown file (either path empty:
// not written). It returns the rows and the models' variant.
func EvalModels(models string, data []string, parquetPath, mdPath string, warn io.Writer) ([]predict.EvalRow, string, error) {
	p, err := predict.LoadPredictor(models)
	if err != nil {
		return nil, "", err
	}
	man := p.Manifest()
	variant := man.Variant()
	rows, err := EvalDirs(p, models, data, warn)
	if err != nil {
		return nil, "", err
	}
	if parquetPath != "" {
		meta := map[string]string{"gnnsim.models": models, "gnnsim.data": strings.Join(data, ","), "gnnsim.variant": variant}
		if err := predict.WriteRows(parquetPath, rows, meta); err != nil {
			return nil, "", err
		}
	}
	if mdPath != "" {
		err = atomicfile.Write(mdPath, func(w io.Writer) error { return WriteTable3(w, rows) })
	}
	return rows, variant, err
}

// AblationDirs runs Ablation on the sweep directories data (training, and
// evaluation on their test split) and evalDirs (evaluation), and writes
// out/ablation.parquet, out/table4.md and out/table3.md. It returns the
// rows and the number of training samples.
func AblationDirs(data, evalDirs []string, o predict.FitOptions, out string) ([]predict.EvalRow, int, error) {
	train, err := bench.ReadDatasets(data)
	if err != nil {
		return nil, 0, err
	}
	eval := train
	if len(evalDirs) > 0 {
		extra, err := bench.ReadDatasets(evalDirs)
		if err != nil {
			return nil, 0, err
		}
		eval = append(slices.Clip(train), extra...)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, 0, err
	}
	rows, err := Ablation(train, eval, o, out)
	if err != nil {
		return nil, 0, err
	}
	meta := map[string]string{"gnnsim.data": strings.Join(data, ","), "gnnsim.eval": strings.Join(evalDirs, ",")}
	if err := predict.WriteRows(filepath.Join(out, "ablation.parquet"), rows, meta); err != nil {
		return nil, 0, err
	}
	if err := atomicfile.Write(filepath.Join(out, "table4.md"), func(w io.Writer) error { return WriteTable4(w, rows) }); err != nil {
		return nil, 0, err
	}
	if err := atomicfile.Write(filepath.Join(out, "table3.md"), func(w io.Writer) error { return WriteTable3ByVariant(w, rows) }); err != nil {
		return nil, 0, err
	}
	return rows, len(train), nil
}
