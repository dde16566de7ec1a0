package seed001

import (
	"bytes"

	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	accel "gnnsim/accel/gcos"
	"gnnsim/hw"
	"gnnsim/internal/par"
	"gnnsim/internal/pqio"
	"gnnsim/internal/splitmix"
	nas "gnnsim/nas/gcos"
)

// Options configure Run.
type Options struct {
	Out     string // results directory (created if needed)
	Quick   bool   // reduced sizes: <= 60 s
	Seed    uint64
	DataDir string // the layout of ../shared/data; empty: generated/sized data only
	// Workers bounds the goroutines of each parallel step: Figures 1, 7 (one
	// piece per co-search and handcrafted GNN) and 8 run side by side, and
	// each search evaluates its candidates in parallel. <= 0: all pieces at
	// once and all CPUs per search. It never changes the results, nor the
	// order of the log.
	Workers int
	Log     io.Writer
	// Accuracy overrides the trainer (tests); nil: TrainedAccuracy on
	// DataDir (200 epochs; quick: QuickEpochs).
	Accuracy AccuracySource
	// Sizes overrides the run's sizes (zero fields: Quick's or full).
	Sizes Sizes
	// Fig8DenseX prices G-CoS's designs of Figure 8 on dense input
	// features. Off (the default): they skip zero features. The paper's
	// text names only the adjacency's sparsity (Sec. IV-C: the sparsity
	// analyser reads adjacency rows), but its magnitudes need the skip:
	// Fig. 1 shows Cora GNNs above 5E+5 FPS (< 2 us) on the VCU128, and the
	// smallest dense first layer (2,708 x 1,433 x 4 MACs) alone takes
	// 11.5 us at 4,096 MACs per cycle and 330 MHz.
	Fig8DenseX bool
	// Fig8OwnModels runs Figure 8 on our GCN, GIN and GraphSAGE (two
	// layers, hidden 16) against both baselines, the comparison of earlier
	// versions. Off (the default): the paper's setup (Sec. V-B, "we fix the
	// GNN structures and datasets in G-CoS to be the same as the
	// baselines"): G-CoS and HyGCN-like run HyGCN's GNNs (HyGCNModels),
	// G-CoS and AWB-GCN-like AWB-GCN's GCN (AWBGCNModels).
	Fig8OwnModels bool
	// Fig8Only runs Figure 8 alone (no GNN training, no Figures 1 and 7):
	// its full accelerator-search budget takes seconds where the whole
	// reproduction trains for hours.
	Fig8Only bool
}

// Sizes set how much each experiment does.
type Sizes struct {
	Fig1GNNs, Fig1Accels int // random GNNs x random accelerators (paper 300 x 300)
	CoSearch             int // evaluations per co-search (Figure 7)
	HWSearch             int // evaluations per accelerator-only search (Figures 7, 8)
	PoolSize             int // p_max
	// MaxHidden and MaxHeads limit the GNN space (0: Table II's 256 and
	// 16): GNN training time grows with width x heads, from a fraction of a
	// second to minutes per network on two cores.
	MaxHidden, MaxHeads int
	Weights             int // latency weights of Figure 7 (of LatencyWeights, spread)
}

// Full and Quick are the default sizes.
var (
	// QuickEpochs is the training length of a quick run.
	QuickEpochs = 30
	FullSizes   = Sizes{Fig1GNNs: 300, Fig1Accels: 300, CoSearch: 300, HWSearch: 400, PoolSize: 50, Weights: 3}
	QuickSizes  = Sizes{Fig1GNNs: 8, Fig1Accels: 40, CoSearch: 24, HWSearch: 100, PoolSize: 8, MaxHidden: 32, MaxHeads: 2, Weights: 2}
)

// LatencyWeights are the latency weights of Figure 7's co-searches (the
// accuracy weight is 1 - w): the paper trades accuracy for latency by
// "decreasing/increasing the weighting coefficient of the latency".
var LatencyWeights = []float64{0.2, 0.5, 0.8}

// Paper's published relative claims (seed 001, Sec. V-B).
const (
	PaperSpeedupHyGCN = 5.52
	PaperSpeedupAWB   = 1.92
)

// Published absolute anchors for Figure 8. The papers give speed-ups over
// PyG-CPU, not latencies per data set; the one absolute latency in reach is
// Reddit's on the CPU, from which the speed-ups imply each accelerator's.
const (
	// PaperRedditCPUms is a two-layer GNN on Reddit under PyG on an Intel
	// Xeon E5-2680 (seed 001, Sec. I: "2.94E+5 milliseconds", citing
	// AWB-GCN), of PaperRedditGFLOPs (seed 001, Sec. I: "19G FLOPs").
	PaperRedditCPUms  = 2.94e5
	PaperRedditGFLOPs = 19
	// HyGCNOverCPU is HyGCN's average speed-up over PyG-CPU (Yan et al.,
	// HPCA 2020, abstract: "on average 1509x").
	HyGCNOverCPU = 1509
	// AWBOverHyGCN is AWB-GCN's average speed-up over HyGCN (seed 001,
	// Sec. I, quoting AWB-GCN: "7.4x over HyGCN").
	AWBOverHyGCN = 7.4
)

// Published speed-ups over PyG-CPU (Xeon E5-2680 v3) per data set, the
// common baseline through which G-CoS compares with HyGCN and AWB-GCN (Sec.
// V-B). G-CoS's text does not give them; GCoD (You, Geng et al., HPCA 2022,
// arXiv 2112.11594; Lin's group, as G-CoS, with the same method: "We follow
// most of these baselines to report the relative speedups over PyG-CPU on
// an Intel Xeon E5-2680 v3 CPU") does.
var (
	// AWBOverCPU is AWB-GCN's on its GCN (602-64-41 on Reddit, hidden 16 on
	// the citation graphs): GCoD, Table VI, row "AWB-GCN": "1063x 913x
	// 466x 1425x 9242x" (Cora, CiteSeer, Pubmed, NELL, Reddit).
	AWBOverCPU = map[string]float64{"cora": 1063, "citeseer": 913, "pubmed": 466, "nell": 1425, "reddit": 9242}
	// HyGCNGCNOverCPU is HyGCN's on GCN: the bar labels of GCoD's Fig. 9
	// (citation graphs) and Fig. 10 (Reddit), "The normalized inference
	// speedups (w.r.t. PyG-CPU)", read by the bars' positions (HyGCN's bar
	// stands left of AWB-GCN's in every group).
	HyGCNGCNOverCPU = map[string]float64{"cora": 351, "citeseer": 87, "pubmed": 427, "reddit": 1721}
)

// Fig1Row is one random GNN / accelerator pair.
type Fig1Row struct {
	GNN        int64   `parquet:"gnn"`
	Accel      int64   `parquet:"accel"`
	Arch       string  `parquet:"arch"`
	Accuracy   float64 `parquet:"accuracy"`
	LatencyPS  int64   `parquet:"latency_ps"`
	Throughput float64 `parquet:"throughput"` // inferences per second
	Feasible   bool    `parquet:"feasible"`
	Good       bool    `parquet:"good"` // in the good corner
}

// Fig7Row is one point of Figure 7.
type Fig7Row struct {
	Dataset     string  `parquet:"dataset"`
	Method      string  `parquet:"method"` // "G-CoS" or a handcrafted GNN
	LatWeight   float64 `parquet:"lat_weight"`
	Arch        string  `parquet:"arch"`
	Accel       string  `parquet:"accel"`
	Accuracy    float64 `parquet:"accuracy"`
	LatencyPS   int64   `parquet:"latency_ps"`
	Evaluations int64   `parquet:"evaluations"`
}

// Report is what Run produced.
type Report struct {
	Out, ReportPath string
	Sizes           Sizes
	AccuracyFrom    []string
	Fig1            []Fig1Row
	GoodFraction    float64 // of Fig 1's pairs in the good corner
	Fig7            []Fig7Row
	Fig8            []Fig8Row
	// Fig8Sets summarises Figure 8 per data set.
	Fig8Sets []Fig8Set
	// RedditSensitivity re-prices Reddit's cases at RedditGammas.
	RedditSensitivity []SensRow
	// Geometric and arithmetic means of G-CoS's speed-ups over the
	// baselines (the paper says "average" without saying which).
	SpeedupHyGCN, SpeedupAWB float64
	ArithHyGCN, ArithAWB     float64
	// Geometric means over the variants (baselines()).
	SpeedupHyGCNSparseX, SpeedupAWBHBM float64
	// CoraGCNMicros is the handcrafted GCN on Cora on its searched
	// accelerator (the order-of-magnitude check).
	CoraGCNMicros float64
	// CoraGCNMACs are the MACs of that GCN with Cora's sparse input
	// features, CoraGCNDenseMACs with dense ones.
	CoraGCNMACs, CoraGCNDenseMACs int64
	// Fig8DenseX is Options.Fig8DenseX: G-CoS's designs priced on dense
	// input features.
	Fig8DenseX bool
	// Fig8OwnModels is Options.Fig8OwnModels: Figure 8 on our models
	// against both baselines instead of each baseline's own GNNs.
	Fig8OwnModels bool
	// Fig8Only is Options.Fig8Only: Figures 1 and 7 were not run.
	Fig8Only bool
	// Features says, per data set, how dense its input features are and
	// where the figure comes from.
	Features []string
}

// gcnMACs returns the MACs of the handcrafted GCN on ds, as given and with
// dense input features.
func gcnMACs(ds nas.Dataset) (sparse, dense int64, err error) {
	u, err := accel.New(accel.Default())
	if err != nil {
		return 0, 0, err
	}
	ds.CheapOrder = true // as Figure 8 prices G-CoS's designs (gcosSetup)
	for i, d := range []float64{ds.FeatureDensity, 0} {
		ds.FeatureDensity = d
		p, err := nas.NewProblem(ds, nil)
		if err != nil {
			return 0, 0, err
		}
		c, err := p.Latency(nas.Handcrafted(ds.Classes)["GCN"], u)
		if err != nil {
			return 0, 0, err
		}
		if i == 0 {
			sparse = c.MACs
		} else {
			dense = c.MACs
		}
	}
	return sparse, dense, nil
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// Run runs the reproduction.
func Run(ctx context.Context, o Options) (Report, error) {
	if o.Out == "" {
		return Report{}, errors.New("seed001: no output directory")
	}
	sz, err := o.sizes()
	if err != nil {
		return Report{}, err
	}
	if o.Accuracy == nil {
		epochs := 0
		if o.Quick {
			epochs = QuickEpochs
		}
		o.Accuracy = TrainedAccuracy(o.DataDir, epochs, o.Seed)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return Report{}, fmt.Errorf("seed001: %w", err)
	}
	rep := Report{Out: o.Out, Sizes: sz, Fig8DenseX: o.Fig8DenseX, Fig8OwnModels: o.Fig8OwnModels, Fig8Only: o.Fig8Only}
	data, features, err := datasets(o.DataDir)
	if err != nil {
		return rep, err
	}
	rep.Features = features
	if rep.CoraGCNMACs, rep.CoraGCNDenseMACs, err = gcnMACs(data[0]); err != nil {
		return rep, err
	}
	oracles, err := o.oracles(ctx, data, &rep)
	if err != nil {
		return rep, err
	}
	// Figures 1, 7 (each co-search and each handcrafted GNN) and 8 depend
	// on nothing but the data and the oracles, whose answers are pure
	// functions of the architecture (cached, safe for concurrent use): they
	// run side by side, each writing its own slot.
	var tasks []func(o *Options) error
	var fig7Rows []Fig7Row
	if !o.Fig8Only {
		tasks = append(tasks, func(o *Options) error {
			o.logf("seed001: figure 1 (%d x %d pairs)", sz.Fig1GNNs, sz.Fig1Accels)
			var err error
			rep.Fig1, rep.GoodFraction, err = fig1(ctx, o, data[0], oracles[data[0].Name], sz)
			return err
		})
		fig7Data := data[:2]
		if o.Quick {
			fig7Data = data[:1]
		}
		for _, ds := range fig7Data {
			or := oracles[ds.Name]
			for wi, w := range sz.weights() {
				slot := len(fig7Rows)
				fig7Rows = append(fig7Rows, Fig7Row{})
				tasks = append(tasks, func(o *Options) (err error) {
					if slot == 0 {
						o.logf("seed001: figure 7")
					}
					fig7Rows[slot], err = fig7Search(ctx, o, ds, or, sz, wi, w)
					return err
				})
			}
			for hi, name := range nas.HandcraftedNames {
				slot := len(fig7Rows)
				fig7Rows = append(fig7Rows, Fig7Row{})
				tasks = append(tasks, func(o *Options) (err error) {
					fig7Rows[slot], err = fig7Handcrafted(ctx, o, ds, or, sz, hi, name)
					return err
				})
			}
		}
	}
	tasks = append(tasks, func(o *Options) (err error) {
		o.logf("seed001: figure 8")
		f8, err := fig8(ctx, o, data, sz)
		rep.Fig8, rep.Fig8Sets, rep.RedditSensitivity = f8.rows, f8.sets, f8.sens
		rep.SpeedupHyGCN, rep.SpeedupAWB = f8.geo[0], f8.geo[1]
		rep.ArithHyGCN, rep.ArithAWB = f8.arith[0], f8.arith[1]
		rep.SpeedupHyGCNSparseX, rep.SpeedupAWBHBM = f8.geo[2], f8.geo[3]
		return err
	})
	if err := runTasks(&o, tasks); err != nil {
		return rep, err
	}
	rep.Fig7 = fig7Rows
	for _, r := range rep.Fig8 {
		// The hidden-16 GCN: ours, or AWB-GCN's (HyGCN's is 128 wide).
		if r.Dataset == "cora" && r.Model == "GCN" && r.Design == "G-CoS" && r.Comparison != CompareHyGCN {
			rep.CoraGCNMicros = float64(r.LatencyPS) / 1e6
		}
	}
	if err := writeTables(&rep); err != nil {
		return rep, err
	}
	if err := writeFigures(&rep); err != nil {
		return rep, err
	}
	if err := writeReport(&rep); err != nil {
		return rep, err
	}
	return rep, ctx.Err()
}

// sizes returns the run's sizes: the quick or full defaults, with each
// size o.Sizes gives (non-zero) instead.
func (o *Options) sizes() (Sizes, error) {
	sz := FullSizes
	if o.Quick {
		sz = QuickSizes
	}
	for _, p := range []struct{ dst, src *int }{{&sz.Fig1GNNs, &o.Sizes.Fig1GNNs}, {&sz.Fig1Accels, &o.Sizes.Fig1Accels},
		{&sz.CoSearch, &o.Sizes.CoSearch}, {&sz.HWSearch, &o.Sizes.HWSearch}, {&sz.PoolSize, &o.Sizes.PoolSize},
		{&sz.MaxHidden, &o.Sizes.MaxHidden}, {&sz.MaxHeads, &o.Sizes.MaxHeads}, {&sz.Weights, &o.Sizes.Weights}} {
		if *p.src < 0 {
			return sz, fmt.Errorf("seed001: negative size %d", *p.src)
		}
		if *p.src > 0 {
			*p.dst = *p.src
		}
	}
	return sz, nil
}

// oracles returns the accuracy oracles (memoised) of the data sets with
// labels (Cora, CiteSeer; Cora only in a quick run, none for Figure 8
// alone) and notes where each one's accuracy comes from in rep.
func (o *Options) oracles(ctx context.Context, data []nas.Dataset, rep *Report) (map[string]Oracle, error) {
	oracles := map[string]Oracle{}
	for _, ds := range data[:2] {
		if o.Fig8Only {
			break // Figure 8 needs no accuracy
		}
		if o.Quick && ds.Name != "cora" {
			continue // the quick run trains on Cora only
		}
		or, err := o.Accuracy(ctx, ds)
		if err != nil {
			return nil, fmt.Errorf("seed001: accuracy on %s: %w", ds.Name, err)
		}
		or.Search, or.Report = nas.Memo(or.Search), nas.Memo(or.Report)
		oracles[ds.Name] = or
		rep.AccuracyFrom = append(rep.AccuracyFrom, ds.Name+": "+or.From)
	}
	return oracles, nil
}

// The data sets (published sizes, Reddit's degree profile, measured
// feature densities) live in nas/gcos, where sweeps reach them too.
var published = nas.Published()

// Reddit's published size and the exponent of its degree profile
// (nas/gcos.RedditGamma says why).
const (
	RedditNodes   = nas.RedditNodes
	RedditEntries = nas.RedditEntries
	RedditGamma   = nas.RedditGamma
)

// RedditGammas are the exponents the report's sensitivity of Figure 8 on
// Reddit sweeps.
var RedditGammas = []float64{2.1, 2.5, 3.0}

// RedditRows returns the degree profile of Reddit at exponent gamma
// (nas/gcos.RedditRows).
func RedditRows(gamma float64) ([]int32, error) { return nas.RedditRows(gamma) }

// Datasets returns Cora, CiteSeer, PubMed and Reddit (nas/gcos.Datasets).
func Datasets(dir string) ([]nas.Dataset, error) { return nas.Datasets(dir) }

// datasets is Datasets with a line per data set saying where its numbers
// come from.
func datasets(dir string) ([]nas.Dataset, []string, error) { return nas.DatasetsExplained(dir) }

func workers(w int) int {
	if w <= 0 {
		return 0
	}
	return w
}

// space returns the joint space of the run's sizes.
func (sz Sizes) space(classes int) (*nas.Space, error) {
	if sz.MaxHidden == 0 && sz.MaxHeads == 0 {
		return nas.NewSpace(classes)
	}
	h, k := sz.MaxHidden, sz.MaxHeads
	if h == 0 {
		h = nas.HiddenChoices[len(nas.HiddenChoices)-1]
	}
	if k == 0 {
		k = nas.HeadChoices[len(nas.HeadChoices)-1]
	}
	return nas.NewSmallSpace(classes, h, k)
}

// weights returns Figure 7's latency weights: n of LatencyWeights, spread.
func (sz Sizes) weights() []float64 {
	n := min(max(sz.Weights, 1), len(LatencyWeights))
	if n == 1 {
		return LatencyWeights[len(LatencyWeights)/2:][:1]
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = LatencyWeights[i*(len(LatencyWeights)-1)/(n-1)]
	}
	return out
}

// randomArchs draws n distinct GNNs of sp.
func randomArchs(n int, sp *nas.Space, seed uint64) ([]nas.Arch, error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed001))
	enc := sp.Encoding()
	seen := map[nas.Arch]bool{}
	var out []nas.Arch
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		d, err := sp.Decode(enc.Sample(r))
		if err != nil {
			return nil, err
		}
		if !seen[d.Arch] {
			seen[d.Arch] = true
			out = append(out, d.Arch)
		}
	}
	return out, nil
}

func randomAccels(n int, seed uint64) ([]accel.Config, error) {
	sp, err := nas.NewHardwareSpace(nas.Handcrafted(2)["GCN"])
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0xacce1))
	enc := sp.Encoding()
	out := make([]accel.Config, n)
	for i := range out {
		d, err := sp.Decode(enc.Sample(r))
		if err != nil {
			return nil, err
		}
		out[i] = d.HW
	}
	return out, nil
}

// fig1 evaluates every pair of random GNNs and accelerators on ds. The
// good corner: pairs in the top decile of both accuracy and throughput.
func fig1(ctx context.Context, o *Options, ds nas.Dataset, or Oracle, sz Sizes) ([]Fig1Row, float64, error) {
	sp, err := sz.space(ds.Classes)
	if err != nil {
		return nil, 0, err
	}
	archs, err := randomArchs(sz.Fig1GNNs, sp, splitmix.Mix64(o.Seed^1))
	if err != nil {
		return nil, 0, err
	}
	cfgs, err := randomAccels(sz.Fig1Accels, splitmix.Mix64(o.Seed^2))
	if err != nil {
		return nil, 0, err
	}
	p, err := nas.NewProblem(ds, nil)
	if err != nil {
		return nil, 0, err
	}
	accs := make([]float64, len(archs))
	if err := par.For(len(archs), workers(o.Workers), func(i int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		a, err := or.Report(archs[i])
		accs[i] = a
		return err
	}); err != nil {
		return nil, 0, fmt.Errorf("seed001: figure 1: %w", err)
	}
	units := make([]*accel.Template, len(cfgs))
	for j, c := range cfgs {
		if units[j], err = accel.New(c); err != nil {
			return nil, 0, err
		}
	}
	rows := make([]Fig1Row, len(archs)*len(cfgs))
	if err := par.For(len(archs), workers(o.Workers), func(i int) error {
		for j, u := range units {
			c, err := p.Latency(archs[i], u)
			if err != nil {
				return err
			}
			ok, _ := hw.Feasible(u)
			rows[i*len(cfgs)+j] = Fig1Row{GNN: int64(i), Accel: int64(j), Arch: archs[i].String(), Accuracy: accs[i],
				LatencyPS: c.TimePS, Throughput: 1e12 / float64(max(c.TimePS, 1)), Feasible: ok}
		}
		return ctx.Err()
	}); err != nil {
		return nil, 0, fmt.Errorf("seed001: figure 1: %w", err)
	}
	qa := quantile(rows, func(r Fig1Row) float64 { return r.Accuracy }, 0.9)
	qt := quantile(rows, func(r Fig1Row) float64 { return r.Throughput }, 0.9)
	good := 0
	for i := range rows {
		if rows[i].Accuracy >= qa && rows[i].Throughput >= qt {
			rows[i].Good = true
			good++
		}
	}
	return rows, float64(good) / float64(len(rows)), nil
}

func quantile[T any](rows []T, f func(T) float64, q float64) float64 {
	if len(rows) == 0 {
		return math.NaN()
	}
	v := make([]float64, len(rows))
	for i, r := range rows {
		v[i] = f(r)
	}
	slices.Sort(v)
	return v[min(len(v)-1, int(q*float64(len(v))))]
}

// describe names an accelerator design compactly.
func describe(c accel.Config) string {
	var b strings.Builder
	for i, s := range c.Subs {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%d PEs %s/%s %dx%dx%d", s.PEs, s.Kernel, s.Tiling, s.TileM, s.TileK, s.TileN)
		if s.Rebalance {
			b.WriteString(" rebalanced")
		}
	}
	fmt.Fprintf(&b, "; by %s", c.Alloc)
	if c.Repurpose {
		b.WriteString(", re-purposed")
	}
	if c.ShareWeights {
		b.WriteString(", shared weights")
	}
	if c.Scheme == accel.Hybrid {
		b.WriteString(", hybrid pipeline")
	}
	return b.String()
}

// runTasks runs tasks on up to o.Workers goroutines (all at once when
// Workers <= 0) and returns the error of the first task that failed. Each
// task logs to a buffer of its own, copied to o.Log once every task before
// it has finished: the log reads as a serial run's would.
func runTasks(o *Options, tasks []func(o *Options) error) error {
	logs := make([]bytes.Buffer, len(tasks))
	done := make([]bool, len(tasks))
	var mu sync.Mutex
	next := 0
	w := o.Workers
	if w <= 0 {
		w = len(tasks)
	}
	return par.For(len(tasks), w, func(i int) error {
		to := *o
		if o.Log != nil {
			to.Log = &logs[i]
		}
		err := tasks[i](&to)
		if o.Log != nil {
			mu.Lock()
			defer mu.Unlock()
			for done[i] = true; next < len(tasks) && done[next]; next++ {
				if _, werr := o.Log.Write(logs[next].Bytes()); werr != nil && err == nil {
					err = fmt.Errorf("seed001: log: %w", werr)
				}
			}
		}
		return err
	})
}

// fig7Search runs the co-search at latency weight w (the wi-th).
func fig7Search(ctx context.Context, o *Options, ds nas.Dataset, or Oracle, sz Sizes, wi int, w float64) (Fig7Row, error) {
	sp, err := sz.space(ds.Classes)
	if err != nil {
		return Fig7Row{}, err
	}
	p, err := nas.NewProblem(ds, or.Search)
	if err != nil {
		return Fig7Row{}, err
	}
	p.Fitness.Acc, p.Fitness.Lat = 1-w, w
	res, err := p.Search(ctx, sp, nas.Options{PoolSize: sz.PoolSize, Evaluations: sz.CoSearch, Seed: splitmix.Mix64(o.Seed ^ uint64(10+wi)), Workers: o.Workers})
	if err != nil {
		return Fig7Row{}, err
	}
	b := res.Top[0]
	test, err := or.Report(b.Design.Arch)
	if err != nil {
		return Fig7Row{}, err
	}
	o.logf("seed001: %s G-CoS w=%.1f: %.3f (validation %.3f) in %.1f us", ds.Name, w, test, b.Accuracy, float64(b.LatencyPS)/1e6)
	return Fig7Row{Dataset: ds.Name, Method: "G-CoS", LatWeight: w, Arch: b.Design.Arch.String(), Accel: describe(b.Design.HW),
		Accuracy: test, LatencyPS: b.LatencyPS, Evaluations: int64(len(res.Evaluated))}, nil
}

// fig7Handcrafted tunes the accelerator of the hi-th handcrafted GNN with
// the co-search's search (latency only).
func fig7Handcrafted(ctx context.Context, o *Options, ds nas.Dataset, or Oracle, sz Sizes, hi int, name string) (Fig7Row, error) {
	a := nas.Handcrafted(ds.Classes)[name]
	b, n, err := tuneAccel(ctx, o, ds, a, sz, uint64(20+hi))
	if err != nil {
		return Fig7Row{}, err
	}
	accv, err := or.Report(a)
	if err != nil {
		return Fig7Row{}, err
	}
	o.logf("seed001: %s %s: %.3f in %.1f us", ds.Name, name, accv, float64(b.LatencyPS)/1e6)
	return Fig7Row{Dataset: ds.Name, Method: name, Arch: a.String(), Accel: describe(b.Design.HW),
		Accuracy: accv, LatencyPS: b.LatencyPS, Evaluations: int64(n)}, nil
}

// tuneAccel searches the accelerator of a fixed GNN for latency alone.
func tuneAccel(ctx context.Context, o *Options, ds nas.Dataset, a nas.Arch, sz Sizes, salt uint64) (nas.Candidate, int, error) {
	p, err := nas.NewProblem(ds, nil)
	if err != nil {
		return nas.Candidate{}, 0, err
	}
	p.Fitness.Acc, p.Fitness.Lat = 0, 1
	sp, err := nas.NewHardwareSpace(a)
	if err != nil {
		return nas.Candidate{}, 0, err
	}
	res, err := p.Search(ctx, sp, nas.Options{PoolSize: sz.PoolSize, Evaluations: sz.HWSearch, Seed: splitmix.Mix64(o.Seed ^ salt), Workers: o.Workers})
	if err != nil {
		return nas.Candidate{}, 0, err
	}
	return res.Top[0], len(res.Evaluated), nil
}

func writeTables(rep *Report) error {
	meta := map[string]string{"seed": "001", "generator": "gnnsim repro seed001"}
	if !rep.Fig8Only {
		if err := pqio.Write(filepath.Join(rep.Out, "fig1_pairs.parquet"), rep.Fig1, meta); err != nil {
			return fmt.Errorf("seed001: %w", err)
		}
		if err := pqio.Write(filepath.Join(rep.Out, "fig7_frontier.parquet"), rep.Fig7, meta); err != nil {
			return fmt.Errorf("seed001: %w", err)
		}
	}
	if err := pqio.Write(filepath.Join(rep.Out, "fig8_speedup.parquet"), rep.Fig8, meta); err != nil {
		return fmt.Errorf("seed001: %w", err)
	}
	if err := pqio.Write(filepath.Join(rep.Out, "fig8_per_dataset.parquet"), rep.Fig8Sets, meta); err != nil {
		return fmt.Errorf("seed001: %w", err)
	}
	if len(rep.RedditSensitivity) > 0 {
		if err := pqio.Write(filepath.Join(rep.Out, "fig8_reddit_gamma.parquet"), rep.RedditSensitivity, meta); err != nil {
			return fmt.Errorf("seed001: %w", err)
		}
	}
	return nil
}
