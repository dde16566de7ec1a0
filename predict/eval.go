package predict

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/internal/pqio"
)

// SetMetrics are the Table 3 metrics of one data set.
type SetMetrics struct {
	Dataset string
	// Split is the part evaluated: "test" (or "valid" during Fit) for a
	// data set the models were trained on and for Graphlaxy sets, "all"
	// for every other set.
	Split string
	// Graphs is the number of distinct graphs; Metrics.Graphs counts the
	// cases (graph, F, G, hardware), equal to it in seed 002's sets.
	Graphs    int
	Mode      string // accelerator model(s) of the labels
	BestFixed string // the fixed configuration compared with
	Metrics
}

// usesTestSplit says whether data set ds is evaluated on its test split
// only: sets the models were trained on must be (their other graphs were
// seen), and Graphlaxy sets are by seed 002's protocol even when a model
// was trained on another one.
func (m *Manifest) usesTestSplit(ds string) bool {
	if _, ok := m.trained(ds); ok {
		return true
	}
	return strings.HasPrefix(strings.ToLower(ds), "graphlaxy")
}

// Evaluate predicts every sample of the evaluated parts of samples and
// returns the metrics per data set, in order of first appearance. The
// test split of a trained-on or Graphlaxy data set is recomputed with the
// manifest's split seed; a trained-on set must hold the graphs it held in
// training (same graph and split counts), otherwise its test split would
// not be the held-out one and Evaluate refuses it. The best fixed
// configuration is the set's own (from its training split) for trained-on
// sets and the manifest's overall one for the others.
func (p *Predictor) Evaluate(samples []Sample) ([]SetMetrics, error) {
	splits := AssignSplits(samples, p.man.SplitSeed)
	for _, info := range datasetInfos(samples, splits) {
		t, ok := p.man.trained(info.Name)
		if !ok {
			continue
		}
		if t.Graphs != info.Graphs || t.Train != info.Train || t.Valid != info.Valid || t.Test != info.Test {
			return nil, fmt.Errorf("predict: data set %s has %d graphs (%d/%d/%d samples train/valid/test), but the models were trained on a set of that name with %d graphs (%d/%d/%d): its test split would not be the held-out one",
				info.Name, info.Graphs, info.Train, info.Valid, info.Test, t.Graphs, t.Train, t.Valid, t.Test)
		}
	}
	var ss []*Sample
	for i := range samples {
		s := &samples[i]
		if p.man.usesTestSplit(s.Dataset) && splits[i] != TestSplit {
			continue
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("predict: no samples to evaluate among %d", len(samples))
	}
	pred := make([][]float64, len(ss))
	backing := make([]float64, len(ss)*NumConfigs)
	for i, s := range ss {
		pred[i] = backing[i*NumConfigs : (i+1)*NumConfigs]
		if _, err := p.PredictSample(s, pred[i]); err != nil {
			return nil, fmt.Errorf("predict: %s graph %d: %w", s.Dataset, s.GraphID, err)
		}
	}
	return evaluateGroups(ss, pred, &p.man, TestSplit)
}

// evaluateGroups computes SetMetrics per data set of ss (first-appearance
// order) from predictions pred[i] of ss[i]. split names the part evaluated
// for the sets that are split.
func evaluateGroups(ss []*Sample, pred [][]float64, man *Manifest, split Split) ([]SetMetrics, error) {
	names := ConfigNames()
	var out []SetMetrics
	for _, grp := range GroupByDataset(len(ss), func(i int) string { return ss[i].Dataset }) {
		ds, rows := grp.Name, grp.Samples
		truth := make([][]float64, len(rows))
		pr := make([][]float64, len(rows))
		var modes []string
		graphIDs := map[int64]bool{}
		for k, i := range rows {
			truth[k] = ss[i].Latency[:]
			pr[k] = pred[i]
			graphIDs[ss[i].GraphID] = true
			if !slices.Contains(modes, ss[i].Mode) {
				modes = append(modes, ss[i].Mode)
			}
		}
		fixed := man.BestFixed
		if t, ok := man.trained(ds); ok && t.BestFixed != "" {
			fixed = t.BestFixed
		}
		fi := slices.Index(names, fixed)
		m, err := Evaluate(truth, pr, fi)
		if err != nil {
			return nil, fmt.Errorf("predict: data set %s: %w", ds, err)
		}
		sp := "all"
		if man.usesTestSplit(ds) {
			sp = split.String()
		}
		out = append(out, SetMetrics{Dataset: ds, Split: sp, Graphs: len(graphIDs), Mode: strings.Join(modes, ","), BestFixed: fixed, Metrics: m})
	}
	return out, nil
}

// EvalRow is one row of an evaluation table: a model directory's metrics
// on one data set, all in percent. It is written to Parquet (column names
// in the tags) and, with its JSON keys, by 'gnnsim predict eval --json'.
type EvalRow struct {
	Variant   string `parquet:"variant" json:"-"`  // Table 4 name, e.g. base+features+log
	Baseline  string `parquet:"baseline" json:"-"` // none | loglinear (what the trees start from)
	Models    string `parquet:"models" json:"-"`   // model directory
	Dataset   string `parquet:"dataset" json:"dataset"`
	Split     string `parquet:"split" json:"-"` // test | all
	Mode      string `parquet:"mode" json:"-"`
	Graphs    int64  `parquet:"n_graphs" json:"n_graphs"`
	Cases     int64  `parquet:"n_cases" json:"-"`
	BestFixed string `parquet:"best_fixed" json:"-"`

	MAPE                   float64 `parquet:"mape" json:"mape"`
	Top1                   float64 `parquet:"top1" json:"top1"`
	Top3                   float64 `parquet:"top3" json:"top3"`
	ImprovementVsRandom    float64 `parquet:"improvement_vs_random" json:"improvement_vs_random"`
	ImprovementVsBestFixed float64 `parquet:"improvement_vs_best_fixed" json:"improvement_vs_best_fixed"`
	DegradationVsOptimal   float64 `parquet:"degradation_vs_optimal" json:"degradation_vs_optimal"`
}

// Rows turns per-set metrics of the models in dir into table rows.
func Rows(sets []SetMetrics, man *Manifest, dir string) []EvalRow {
	rows := make([]EvalRow, len(sets))
	for i, s := range sets {
		rows[i] = EvalRow{
			Variant: man.Variant(), Baseline: man.Baseline, Models: dir, Dataset: s.Dataset, Split: s.Split, Mode: s.Mode,
			Graphs: int64(s.Graphs), Cases: int64(s.Metrics.Graphs), BestFixed: s.BestFixed,
			MAPE: s.MAPE, Top1: s.Top1, Top3: s.Top3,
			ImprovementVsRandom: s.ImprovementVsRandom, ImprovementVsBestFixed: s.ImprovementVsBestFixed,
			DegradationVsOptimal: s.DegradationVsOptimal,
		}
	}
	return rows
}

// WriteRows writes evaluation rows to a Parquet file (atomically, with
// meta as key-value metadata).
func WriteRows(path string, rows []EvalRow, meta map[string]string) error {
	if err := pqio.Write(path, rows, meta); err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	return nil
}
