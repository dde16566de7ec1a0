package predict

import (
	"fmt"
	"io"
	"path/filepath"
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
	var order []string
	idx := map[string][]int{}
	for i, s := range ss {
		if _, ok := idx[s.Dataset]; !ok {
			order = append(order, s.Dataset)
		}
		idx[s.Dataset] = append(idx[s.Dataset], i)
	}
	var out []SetMetrics
	for _, ds := range order {
		rows := idx[ds]
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

// seedRow is one row of seed 002's Table 3.
type seedRow struct {
	name                                string
	mape, top1, top3, rnd, fixed, degra float64
}

// seedTable3 is seed 002's Table 3, verbatim.
var seedTable3 = []seedRow{
	{"Graphlaxy.Medium", 3.78, 91.28, 99.62, 93.63, 58.42, 0.56},
	{"Graphlaxy.Large", 4.83, 83.63, 98.20, 96.27, 8.99, 0.86},
	{"Graphlaxy.Small", 17.36, 46.94, 75.51, 97.93, 0.49, 5.12},
	{"SparseSuite.Mix", 13.32, 62.79, 81.40, 89.79, 8.04, 5.24},
	{"QOPTLib", 24.99, 56.41, 74.36, 82.45, 20.98, 14.94},
	{"PATTERN", 40.17, 33.13, 68.56, 84.04, -6.30, 9.40},
	{"TSP", 29.13, 62.18, 92.85, 87.38, 2.18, 4.22},
	{"ENZYMES", 20.23, 19.52, 40.41, 91.95, -3.29, 12.10},
	{"PROTEINS", 15.82, 30.45, 56.76, 91.49, 1.24, 11.56},
	{"REDDIT-BINARY", 14.16, 35.08, 76.45, 85.96, 0.74, 8.68},
}

// seedTable4 is seed 002's Table 4: MAPE and degradation over optimal per
// data set and variant.
var seedTable4 = map[string]map[string][2]float64{
	"Graphlaxy.Medium": {"base": {35.77, 48.12}, "base+features": {10.76, 4.06}, "base+log": {4.95, 0.84}, "base+features+log": {3.78, 0.56}},
	"SparseSuite.Mix":  {"base": {97.04, 92.68}, "base+features": {31.68, 12.52}, "base+log": {19.09, 5.87}, "base+features+log": {13.32, 5.24}},
	"QOPTLib":          {"base": {515.94, 92.94}, "base+features": {152.67, 86.60}, "base+log": {38.22, 21.18}, "base+features+log": {24.99, 14.94}},
}

// SeedName returns the name seed 002 gives the data set ds ("" when the
// seed has no such set): Graphlaxy.medium is Graphlaxy.Medium, and our
// Matrix Market networks (SuiteSparse) stand for its SparseSuite.Mix.
func SeedName(ds string) string {
	l := strings.ToLower(ds)
	if l == "suitesparse" || l == "sparsesuite.mix" {
		return "SparseSuite.Mix"
	}
	for _, r := range seedTable3 {
		if strings.ToLower(r.name) == l {
			return r.name
		}
	}
	return ""
}

func seedRowOf(ds string) (seedRow, bool) {
	n := SeedName(ds)
	for _, r := range seedTable3 {
		if r.name == n {
			return r, true
		}
	}
	return seedRow{}, false
}

func cell(ours float64, seed float64, ok bool) string {
	if !ok {
		return fmt.Sprintf("%.2f (—)", ours)
	}
	return fmt.Sprintf("%.2f (%.2f)", ours, seed)
}

// WriteTable3 writes rows as a Markdown table shaped like seed 002's Table
// 3, each figure followed by the seed's for the same data set in
// parentheses ("—" where the seed has no such set).
func WriteTable3(w io.Writer, rows []EvalRow) error {
	var b strings.Builder
	b.WriteString("| Data set | Split | Graphs | MAPE ↓ | Top-1 acc. (%) ↑ | Top-3 acc. (%) ↑ | Impr. over random (%) ↑ | Impr. over best fixed (%) ↑ | Degr. over optimal (%) ↓ |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		s, ok := seedRowOf(r.Dataset)
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", r.Dataset, r.Split, r.Graphs,
			cell(r.MAPE, s.mape, ok), cell(r.Top1, s.top1, ok), cell(r.Top3, s.top3, ok),
			cell(r.ImprovementVsRandom, s.rnd, ok), cell(r.ImprovementVsBestFixed, s.fixed, ok),
			cell(r.DegradationVsOptimal, s.degra, ok))
	}
	b.WriteString("\nIn parentheses: seed 002's Table 3 (STONNE-Omega labels); — where the seed has no such data set.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTable4 writes rows as a Markdown table shaped like seed 002's Table
// 4 (MAPE and degradation over optimal per data set and variant), with the
// seed's figures in their own columns.
func WriteTable4(w io.Writer, rows []EvalRow) error {
	var b strings.Builder
	b.WriteString("| Data set | Model | MAPE ↓ | seed MAPE | Degr. over optimal (%) ↓ | seed degr. |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		sm, sd := "—", "—"
		if v, ok := seedTable4[SeedName(r.Dataset)][r.Variant]; ok {
			sm, sd = fmt.Sprintf("%.2f", v[0]), fmt.Sprintf("%.2f", v[1])
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f | %s | %.2f | %s |\n", r.Dataset, r.Variant, r.MAPE, sm, r.DegradationVsOptimal, sd)
	}
	b.WriteString("\nseed: seed 002's Table 4 (STONNE-Omega labels); — where the seed has no such data set.\n")
	if slices.ContainsFunc(rows, func(r EvalRow) bool { return r.Baseline == LogLinear.String() }) {
		b.WriteString("The +log models here are boosted from the log-linear baseline (the seed's start from the mean).\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Variants lists the four models of seed 002's ablation, in Table 4's
// order.
var Variants = [4]struct {
	Features FeatureSet
	Log      bool
}{{Base, false}, {Full, false}, {Base, true}, {Full, true}}

// Ablation trains the four variants of Table 4 on train with o (its
// Features and Log are overridden, and its Baseline only applies to the
// +log variants), saves each to dir/<variant>, loads it
// back and evaluates it on eval (Predictor.Evaluate: pass the training
// samples again to get their test split). Rows come grouped by data set,
// then in Variants order, as Table 4 lists them.
func Ablation(train, eval []Sample, o FitOptions, dir string) ([]EvalRow, error) {
	var per [len(Variants)][]EvalRow
	baseline := o.Baseline
	for v, vr := range Variants {
		o.Features, o.Log = vr.Features, vr.Log
		o.Baseline = NoBaseline
		if vr.Log {
			o.Baseline = baseline
		}
		f, err := Fit(train, o)
		if err != nil {
			return nil, fmt.Errorf("predict: ablation %s: %w", Variant(vr.Features, vr.Log), err)
		}
		md := filepath.Join(dir, Variant(vr.Features, vr.Log))
		if err := f.Save(md); err != nil {
			return nil, err
		}
		p, err := LoadPredictor(md)
		if err != nil {
			return nil, err
		}
		sets, err := p.Evaluate(eval)
		if err != nil {
			return nil, err
		}
		man := p.Manifest()
		per[v] = Rows(sets, &man, md)
	}
	var out []EvalRow
	for i := range per[0] {
		for v := range per {
			out = append(out, per[v][i])
		}
	}
	return out, nil
}
