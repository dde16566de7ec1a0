package seed001

import (
	"bytes"
	"cmp"
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
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/internal/par"
	"gnnsim/internal/pqio"
	"gnnsim/internal/splitmix"
	nas "gnnsim/nas/gcos"
	"gnnsim/workload"
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

// Fig8Row is one design's latency for one GNN on one data set.
type Fig8Row struct {
	Dataset      string  `parquet:"dataset"`
	Model        string  `parquet:"model"`
	Design       string  `parquet:"design"`
	Accel        string  `parquet:"accel"`
	LatencyPS    int64   `parquet:"latency_ps"`
	DRAMBytes    int64   `parquet:"dram_bytes"`
	SpeedupHyGCN float64 `parquet:"speedup_hygcn"` // of G-CoS's design over HyGCN-like (same for each row of a case)
	SpeedupAWB   float64 `parquet:"speedup_awb"`
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
	// Geometric means of G-CoS's speed-ups over the baselines.
	SpeedupHyGCN, SpeedupAWB float64
	// CoraGCNMicros is the handcrafted GCN on Cora on its searched
	// accelerator (the order-of-magnitude check).
	CoraGCNMicros float64
	// CoraGCNMACs are the MACs of that GCN with Cora's sparse input
	// features, CoraGCNDenseMACs with dense ones.
	CoraGCNMACs, CoraGCNDenseMACs int64
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
	sz := FullSizes
	if o.Quick {
		sz = QuickSizes
	}
	for _, p := range []struct{ dst, src *int }{{&sz.Fig1GNNs, &o.Sizes.Fig1GNNs}, {&sz.Fig1Accels, &o.Sizes.Fig1Accels},
		{&sz.CoSearch, &o.Sizes.CoSearch}, {&sz.HWSearch, &o.Sizes.HWSearch}, {&sz.PoolSize, &o.Sizes.PoolSize},
		{&sz.MaxHidden, &o.Sizes.MaxHidden}, {&sz.MaxHeads, &o.Sizes.MaxHeads}, {&sz.Weights, &o.Sizes.Weights}} {
		if *p.src < 0 {
			return Report{}, fmt.Errorf("seed001: negative size %d", *p.src)
		}
		if *p.src > 0 {
			*p.dst = *p.src
		}
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
	rep := Report{Out: o.Out, Sizes: sz}
	data, features, err := datasets(o.DataDir)
	if err != nil {
		return rep, err
	}
	rep.Features = features
	if rep.CoraGCNMACs, rep.CoraGCNDenseMACs, err = gcnMACs(data[0]); err != nil {
		return rep, err
	}
	// Accuracy oracles for the data sets with labels (Cora, CiteSeer).
	oracles := map[string]Oracle{}
	for _, ds := range data[:2] {
		if o.Quick && ds.Name != "cora" {
			continue // the quick run trains on Cora only
		}
		or, err := o.Accuracy(ctx, ds)
		if err != nil {
			return rep, fmt.Errorf("seed001: accuracy on %s: %w", ds.Name, err)
		}
		or.Search, or.Report = nas.Memo(or.Search), nas.Memo(or.Report)
		oracles[ds.Name] = or
		rep.AccuracyFrom = append(rep.AccuracyFrom, ds.Name+": "+or.From)
	}
	// Figures 1, 7 (each co-search and each handcrafted GNN) and 8 depend
	// on nothing but the data and the oracles, whose answers are pure
	// functions of the architecture (cached, safe for concurrent use): they
	// run side by side, each writing its own slot.
	var tasks []func(o *Options) error
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
	var fig7Rows []Fig7Row
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
	tasks = append(tasks, func(o *Options) (err error) {
		o.logf("seed001: figure 8")
		rep.Fig8, rep.SpeedupHyGCN, rep.SpeedupAWB, err = fig8(ctx, o, data, sz)
		return err
	})
	if err := runTasks(&o, tasks); err != nil {
		return rep, err
	}
	rep.Fig7 = fig7Rows
	for _, r := range rep.Fig8 {
		if r.Dataset == "cora" && r.Model == "GCN" && r.Design == "G-CoS" {
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

// Published sizes of the data sets (Planetoid as in PyG; Reddit as in
// GraphSAGE / PyG), used when a graph is not on disk, with the density of
// their input features (what the first layer's product skips):
//
//   - Cora: 49,216 non-zeros of 2,708 x 1,433 (MISSION section 12; the
//     count of ind.cora in ../shared/data),
//   - CiteSeer: 105,165 of 3,327 x 3,703 (the full Planetoid count, as
//     nas/fgnas records it; the count of ind.citeseer),
//   - PubMed: 988,031 of 19,717 x 500 (the full Planetoid count, as
//     nas/fgnas records it; ../shared/data lacks ind.pubmed.allx, and the
//     1,060 rows it has are 9.99 % non-zero),
//   - Reddit: dense (our assumption: GraphSAGE's Reddit features are
//     averaged GloVe word vectors and post statistics, not bags of words).
var published = []nas.Dataset{
	{Name: "cora", Size: workload.Size{Nodes: 2708, NNZ: 10556}, Features: 1433, FeatureDensity: 49216.0 / (2708 * 1433), Classes: 7},
	{Name: "citeseer", Size: workload.Size{Nodes: 3327, NNZ: 9104}, Features: 3703, FeatureDensity: 105165.0 / (3327 * 3703), Classes: 6},
	{Name: "pubmed", Size: workload.Size{Nodes: 19717, NNZ: 88648}, Features: 500, FeatureDensity: 988031.0 / (19717 * 500), Classes: 3},
	{Name: "reddit", Size: workload.Size{Nodes: 232965, NNZ: 114615892}, Features: 602, Classes: 41},
}

// Datasets returns Cora, CiteSeer, PubMed and Reddit: with their graphs
// and measured feature densities when on disk, else their published sizes
// and densities (Reddit always by size: its 115 M entries are priced from
// the average row).
func Datasets(dir string) ([]nas.Dataset, error) {
	out, _, err := datasets(dir)
	return out, err
}

// datasets is Datasets, with a line per data set saying how dense its
// features are and where that comes from.
func datasets(dir string) ([]nas.Dataset, []string, error) {
	out := slices.Clone(published)
	var from []string
	for i := range out {
		ds := &out[i]
		p, err := loadPlanetoid(dir, ds.Name)
		if err != nil {
			return nil, nil, err
		}
		src := "published count (data not on disk)"
		if ds.FeatureDensity == 0 {
			src = "dense (assumed)"
		}
		if p != nil {
			if p.Features.Cols != ds.Features {
				return nil, nil, fmt.Errorf("seed001: %s has %d features, want %d", ds.Name, p.Features.Cols, ds.Features)
			}
			ds.Graph = p.Graph
			// Measured: over every row, or over the rows present when the
			// files lack some (PubMed without allx), an estimate.
			if d, rows := p.FeatureDensity(); rows > 0 && d > 0 {
				ds.FeatureDensity = d
				src = fmt.Sprintf("measured from the Planetoid files (%d of %d rows)", rows, p.NumNodes())
			}
		}
		from = append(from, fmt.Sprintf("%s: %d features, %.2f %% non-zero, %s", ds.Name, ds.Features, 100*cmp.Or(ds.FeatureDensity, 1), src))
	}
	return out, from, nil
}

// loadPlanetoid loads a Planetoid data set (planetoid/ind, the files
// package train reads) when the data is present; nil when not.
func loadPlanetoid(dir, name string) (*graphs.Planetoid, error) {
	if dir == "" || name == "reddit" {
		return nil, nil
	}
	path := filepath.Join(dir, "planetoid", "ind", "ind."+name)
	if !graphs.IsPlanetoid(path) {
		return nil, nil
	}
	p, err := graphs.LoadPlanetoid(path)
	if err != nil {
		return nil, fmt.Errorf("seed001: %w", err)
	}
	return p, nil
}

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

// Fig8Models are the GNNs of Figure 8: GCN, GIN (MLP aggregation) and
// GraphSAGE, two layers of hidden width 16.
func Fig8Models(classes int) ([]string, []nas.Arch) {
	hc := nas.Handcrafted(classes)
	gin := hc["GCN"]
	for i := range gin.Layers {
		gin.Layers[i].Attention, gin.Layers[i].Aggregation = nas.AttSkip, nas.AggMLP
	}
	return []string{"GCN", "GIN", "GraphSAGE"}, []nas.Arch{hc["GCN"], gin, hc["GraphSAGE"]}
}

// fig8 compares the searched accelerator of each model and data set with
// the two baselines.
func fig8(ctx context.Context, o *Options, data []nas.Dataset, sz Sizes) ([]Fig8Row, float64, float64, error) {
	var rows []Fig8Row
	var logH, logA float64
	n := 0
	base := []accel.Config{accel.HyGCN(), accel.AWBGCN()}
	for di, ds := range data {
		names, archs := Fig8Models(ds.Classes)
		p, err := nas.NewProblem(ds, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		for mi, a := range archs {
			best, _, err := tuneAccel(ctx, o, ds, a, sz, uint64(100+10*di+mi))
			if err != nil {
				return nil, 0, 0, err
			}
			var lat [2]int64
			var bytes [2]int64
			for bi, c := range base {
				u, err := accel.New(c)
				if err != nil {
					return nil, 0, 0, err
				}
				cost, err := p.Latency(a, u)
				if err != nil {
					return nil, 0, 0, err
				}
				lat[bi], bytes[bi] = cost.TimePS, cost.DRAMBytes
			}
			sh := float64(lat[0]) / float64(best.LatencyPS)
			sa := float64(lat[1]) / float64(best.LatencyPS)
			logH += math.Log(sh)
			logA += math.Log(sa)
			n++
			for _, r := range []struct {
				design, accel string
				lat, bytes    int64
			}{{"G-CoS", describe(best.Design.HW), best.LatencyPS, best.DRAMBytes},
				{"HyGCN-like", describe(base[0]), lat[0], bytes[0]}, {"AWB-GCN-like", describe(base[1]), lat[1], bytes[1]}} {
				rows = append(rows, Fig8Row{Dataset: ds.Name, Model: names[mi], Design: r.design, Accel: r.accel,
					LatencyPS: r.lat, DRAMBytes: r.bytes, SpeedupHyGCN: sh, SpeedupAWB: sa})
			}
			o.logf("seed001: %s %s: G-CoS %.1f us, %.2fx over HyGCN-like, %.2fx over AWB-GCN-like", ds.Name, names[mi], float64(best.LatencyPS)/1e6, sh, sa)
		}
	}
	return rows, math.Exp(logH / float64(n)), math.Exp(logA / float64(n)), nil
}

func writeTables(rep *Report) error {
	meta := map[string]string{"seed": "001", "generator": "gnnsim repro seed001"}
	if err := pqio.Write(filepath.Join(rep.Out, "fig1_pairs.parquet"), rep.Fig1, meta); err != nil {
		return fmt.Errorf("seed001: %w", err)
	}
	if err := pqio.Write(filepath.Join(rep.Out, "fig7_frontier.parquet"), rep.Fig7, meta); err != nil {
		return fmt.Errorf("seed001: %w", err)
	}
	if err := pqio.Write(filepath.Join(rep.Out, "fig8_speedup.parquet"), rep.Fig8, meta); err != nil {
		return fmt.Errorf("seed001: %w", err)
	}
	return nil
}
