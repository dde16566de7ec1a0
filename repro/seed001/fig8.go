package seed001

import (
	"context"
	"fmt"
	"gnnsim/graphs"
	"math"

	accel "gnnsim/accel/gcos"
	"gnnsim/hw"
	nas "gnnsim/nas/gcos"
	"gnnsim/workload"
)

// Figure 8 (seed 001, Sec. V-B): "For a fair comparison, we fix the GNN
// structures and datasets in G-CoS to be the same as the baselines and only
// search for the accelerator parameters." Each comparison runs its
// baseline's own GNNs on the paper's four data sets: G-CoS against
// HyGCN-like on HyGCN's GCN, GraphSAGE and GIN (HyGCNModels), G-CoS
// against AWB-GCN-like on AWB-GCN's GCN (AWBGCNModels). For each GNN and
// data set G-CoS's accelerator is searched alone (tuneAccel, the budget of
// Sizes.HWSearch). Options.Fig8OwnModels runs instead our three GNNs
// (Fig8Models) against both baselines.

// The comparisons of Figure 8 (Fig8Row.Comparison).
const (
	CompareHyGCN = "HyGCN"   // G-CoS vs HyGCN-like on HyGCN's GNNs
	CompareAWB   = "AWB-GCN" // G-CoS vs AWB-GCN-like on AWB-GCN's GCN
	CompareBoth  = "both"    // our GNNs against both (Options.Fig8OwnModels)
)

// HyGCN's GNNs (Yan et al., HPCA 2020, arXiv 2001.02514, Table 5
// "Configuration of convolution layers"): GCN "Add & |a|-128", GraphSage
// "25" sampled neighbours, "Max & |a|-128", GINConv "Add & |a|-128-128"
// (DiffPool runs only on the multi-graph IMDB-BIN and COLLAB, outside the
// paper's data sets). Table 5 gives one configuration for every layer and
// does not say how many layers: two here, as G-CoS's GNNs.
const (
	HyGCNWidth  = 128 // every layer combines to 128 wide
	HyGCNFanout = 25  // GraphSage's sampled neighbours per vertex
)

// Fig8Row is one design's latency for one GNN on one data set.
type Fig8Row struct {
	// Comparison is the baseline whose GNNs the case runs (CompareHyGCN,
	// CompareAWB, or CompareBoth with Options.Fig8OwnModels).
	Comparison string `parquet:"comparison"`
	Dataset    string `parquet:"dataset"`
	Model      string `parquet:"model"`
	Arch       string `parquet:"arch"`
	// Sampling is the fraction of the adjacency's entries the GNN's
	// layers keep (HyGCN's GraphSAGE: its fan-out of 25 as a rate).
	Sampling  float64 `parquet:"sampling"`
	Design    string  `parquet:"design"`
	Accel     string  `parquet:"accel"`
	LatencyPS int64   `parquet:"latency_ps"`
	DRAMBytes int64   `parquet:"dram_bytes"`
	MACs      int64   `parquet:"macs"`
	// ComputePS is the time computation alone takes (per phase the
	// slowest sub-accelerator's or engine's compute cycles, no wait for
	// memory), MemoryBoundPS the off-chip bytes at the design's bandwidth:
	// the two lower bounds of its latency, which say which term dominates.
	// AggregationPS is the time of the phases that walk the adjacency
	// (on HyGCN-like with the combination pipelined after them).
	ComputePS     int64 `parquet:"compute_ps"`
	MemoryBoundPS int64 `parquet:"memory_bound_ps"`
	AggregationPS int64 `parquet:"aggregation_ps"`
	// Speed-ups of G-CoS's design over HyGCN-like and AWB-GCN-like (the
	// same for each row of a case); 0 where the case's comparison does not
	// include that baseline.
	SpeedupHyGCN float64 `parquet:"speedup_hygcn"`
	SpeedupAWB   float64 `parquet:"speedup_awb"`
}

// Fig8Models are our GNNs of Figure 8 with Options.Fig8OwnModels: GCN, GIN
// (MLP aggregation) and GraphSAGE, two layers of hidden width 16.
func Fig8Models(classes int) ([]string, []nas.Arch) {
	hc := nas.Handcrafted(classes)
	gin := hc["GCN"]
	for i := range gin.Layers {
		gin.Layers[i].Attention, gin.Layers[i].Aggregation = workload.AttConstant, workload.AggMLP
	}
	return []string{"GCN", "GIN", "GraphSAGE"}, []nas.Arch{hc["GCN"], gin, hc["GraphSAGE"]}
}

// HyGCNModels returns HyGCN's GNNs (Table 5) on ds, two layers each:
//
//	GCN        sum over A+I, combination to HyGCNWidth
//	GraphSAGE  max over HyGCNFanout sampled neighbours, combination to
//	           HyGCNWidth (workload.SAGEMax: PyG's SAGEConv, which combines
//	           [x || max], 2F wide; Table 5's |a|-128 combines the
//	           aggregate alone. Every design runs the same kernels.)
//	GIN        sum over A+I, MLP |a|-128-128
//
// The fan-out becomes the sampling rate that keeps HyGCNFanout entries of
// every longer row in total (fanoutRate): the template scales every row by
// one rate, so long rows keep more than 25 and short ones fewer, with the
// same number of entries in all.
func HyGCNModels(ds nas.Dataset) ([]string, []nas.Arch) {
	layer := func(att workload.Attention, agg workload.Aggregation, rate float64) nas.Layer {
		return nas.Layer{Attention: att, Aggregation: agg, Activation: workload.ActReLU, Hidden: HyGCNWidth, Heads: 1, Sampling: rate}
	}
	two := func(l nas.Layer) nas.Arch { return nas.Arch{Layers: [2]nas.Layer{l, l}} }
	rate := fanoutRate(ds, HyGCNFanout)
	return []string{"GCN", "GraphSAGE", "GIN"}, []nas.Arch{
		two(layer(workload.AttGCN, workload.AggAdd, 1)),
		two(layer(workload.AttConstant, workload.AggMax, rate)),
		two(layer(workload.AttConstant, workload.AggMLP, 1)),
	}
}

// AWBGCNModels returns AWB-GCN's GNN on data set ds (Geng et al., MICRO
// 2020): a two-layer GCN (AWB-GCN accelerates GCN inference only) whose
// hidden layer is AWBGCNHidden wide. An unknown data set is an error.
func AWBGCNModels(ds nas.Dataset) ([]string, []nas.Arch, error) {
	h, ok := AWBGCNHidden[ds.Name]
	if !ok {
		return nil, nil, fmt.Errorf("seed001: AWB-GCN's GCN has no published width for data set %q (have cora, citeseer, pubmed, nell, reddit)", ds.Name)
	}
	gcn := nas.Handcrafted(ds.Classes)["GCN"]
	gcn.Layers[0].Hidden = h
	return []string{"GCN"}, []nas.Arch{gcn}, nil
}

// AWBGCNHidden is the hidden width of AWB-GCN's two-layer GCN per data set.
// AWB-GCN's own layer table was not in reach; two later papers re-state it:
// GCNAX (Li et al., HPCA 2021), Table II "Structure and data density of the
// 2-layer GCN for the graph datasets": "1433-16-7 3703-16-6 500-16-3
// 61,278-64-186 602-64-41" (Cora, Citeseer, Pubmed, Nell, Reddit); GCoD (You
// et al., HPCA 2022, Sec. VI-A): "16 hidden units for the three citation
// graphs and 64 hidden units for the NELL and Reddit graphs, following a
// SOTA GCN accelerator [13]" ([13] = AWB-GCN). (The "19G FLOPs" of seed
// 001's Sec. I is cited to [4], not to AWB-GCN, so it does not fix the
// width.)
var AWBGCNHidden = map[string]int{"cora": 16, "citeseer": 16, "pubmed": 16, "nell": 64, "reddit": 64}

// fanoutRate returns the fraction of ds's adjacency entries that sampling
// k neighbours per vertex keeps: sum over rows of min(length, k) over all
// entries (average rows when ds has no row profile).
func fanoutRate(ds nas.Dataset, k int) float64 {
	ptr := rowPtrOf(ds)
	if ptr == nil {
		s := ds.Size
		if s.NNZ == 0 {
			return 1
		}
		return min(1, float64(k)*float64(s.Nodes)/float64(s.NNZ))
	}
	var kept, all int64
	for i := 1; i < len(ptr); i++ {
		d := int64(ptr[i] - ptr[i-1])
		kept += min(d, int64(k))
		all += d
	}
	if all == 0 {
		return 1
	}
	return float64(kept) / float64(all)
}

// baseline is a baseline design of Figure 8 and how its work is priced.
type baseline struct {
	name string
	cfg  accel.Config
	// dense: the design does not skip zero input features. HyGCN
	// aggregates the raw features before combining them (HPCA 2020,
	// Table 5) and its sparsity elimination works on the adjacency only
	// (Table 4 stores Cora's features dense); AWB-GCN multiplies the sparse
	// X by W first (MICRO 2020).
	dense bool
	// cheap: the design runs a narrowing GCN layer as A(XW)
	// (workload.Layer.CheapOrder): AWB-GCN does (MICRO 2020, its SpMM
	// chain A x (X x W)); HyGCN's aggregation-then-combination pipeline
	// does not.
	cheap bool
}

// Indices into baselines().
const (
	bHyGCN = iota
	bAWB
	bHyGCNSparseX
	bAWBHBM
	nBaselines
)

// baselines returns Figure 8's two baselines as their papers size them,
// then two variants that show what moves the comparison: HyGCN-like
// skipping zero input features (combining them first, as the other
// designs may) and AWB-GCN-like on G-CoS's 460 GB/s HBM instead of the
// D5005's DDR4.
func baselines() []baseline {
	awbHBM := accel.AWBGCN()
	awbHBM.Name, awbHBM.HBMBytesPerSec = "awb-gcn-like-hbm", accel.HBMBytesPerSec
	hySparse := accel.HyGCN()
	hySparse.Name = "hygcn-like-sparse-x"
	return []baseline{bHyGCN: {"HyGCN-like", accel.HyGCN(), true, false}, bAWB: {"AWB-GCN-like", accel.AWBGCN(), false, true},
		bHyGCNSparseX: {"HyGCN-like, sparse X", hySparse, false, false}, bAWBHBM: {"AWB-GCN-like, 460 GB/s HBM", awbHBM, false, true}}
}

// gcosSetup is how Figure 8 prices G-CoS's designs: the GNN as PyG runs it
// (G-CoS parses PyG models, Sec. IV-C; PyG's GCNConv applies its linear
// map before propagating: CheapOrder), zero input features skipped unless
// dense is set (Options.Fig8DenseX).
func gcosSetup(ds nas.Dataset, dense bool) nas.Dataset {
	if dense {
		ds.FeatureDensity = 0
	}
	ds.CheapOrder = true
	return ds
}

// fig8Case is one GNN of one comparison on one data set.
type fig8Case struct {
	comparison, model string
	arch              nas.Arch
	bases             []int // indices into baselines(): the comparison's baseline, then its variant
	salt              uint64
}

// fig8Cases returns the cases of data set ds (the di-th): each baseline's
// own GNNs, or ours against both baselines.
func fig8Cases(ds nas.Dataset, di int, own bool) ([]fig8Case, error) {
	var out []fig8Case
	if own {
		names, archs := Fig8Models(ds.Classes)
		for mi, a := range archs {
			out = append(out, fig8Case{CompareBoth, names[mi], a, []int{bHyGCN, bAWB, bHyGCNSparseX, bAWBHBM}, uint64(100 + 10*di + mi)})
		}
		return out, nil
	}
	names, archs := HyGCNModels(ds)
	for mi, a := range archs {
		out = append(out, fig8Case{CompareHyGCN, names[mi], a, []int{bHyGCN, bHyGCNSparseX}, uint64(200 + 10*di + mi)})
	}
	names, archs, err := AWBGCNModels(ds)
	if err != nil {
		return nil, err
	}
	for mi, a := range archs {
		out = append(out, fig8Case{CompareAWB, names[mi], a, []int{bAWB, bAWBHBM}, uint64(300 + 10*di + mi)})
	}
	return out, nil
}

// Fig8Set is Figure 8 summarised per data set: geometric means over the
// GNNs of G-CoS's speed-ups, and the balance AWB-GCN's static row mapping
// would have on the data set's rows.
type Fig8Set struct {
	Dataset      string  `parquet:"dataset"`
	SpeedupHyGCN float64 `parquet:"speedup_hygcn"`
	SpeedupAWB   float64 `parquet:"speedup_awb"`
	// AWBStaticBalance is the PE utilisation of AWB-GCN's 4,096 PEs dealt
	// the rows of A+I round robin, before rebalancing (AWB-GCN reports
	// 32.5 % on average over its data sets).
	AWBStaticBalance float64 `parquet:"awb_static_balance"`
	// Speed-ups over the variants of baselines(): HyGCN-like with sparse
	// input features, AWB-GCN-like on 460 GB/s.
	SpeedupHyGCNSparseX float64 `parquet:"speedup_hygcn_sparse_x"`
	SpeedupAWBHBM       float64 `parquet:"speedup_awb_hbm"`
}

// SensRow is one case of Figure 8 on Reddit at another degree exponent:
// the designs searched at RedditGamma, re-priced (0: the case's comparison
// does not include that baseline).
type SensRow struct {
	Gamma        float64 `parquet:"gamma"`
	Comparison   string  `parquet:"comparison"`
	Model        string  `parquet:"model"`
	SpeedupHyGCN float64 `parquet:"speedup_hygcn"`
	SpeedupAWB   float64 `parquet:"speedup_awb"`
	// The profile at Gamma: its longest row and the share of the entries
	// in its longest 1 % of rows (graphs.RowStats).
	MaxDegree    int64   `parquet:"max_degree"`
	Top1PctShare float64 `parquet:"top1pct_share"`
	// G-CoS's design on the case: latency and its two lower bounds
	// (Fig8Row's ComputePS, MemoryBoundPS), which say whether the row
	// lengths (compute) or the entries' traffic (memory) set it.
	GCoSLatencyPS     int64 `parquet:"gcos_latency_ps"`
	GCoSComputePS     int64 `parquet:"gcos_compute_ps"`
	GCoSMemoryBoundPS int64 `parquet:"gcos_memory_bound_ps"`
	// GCoSAggregationPS is the time of its phases that walk the adjacency.
	GCoSAggregationPS int64 `parquet:"gcos_aggregation_ps"`
}

// fig8Out is what fig8 returns.
type fig8Out struct {
	rows       []Fig8Row
	sets       []Fig8Set
	sens       []SensRow
	geo, arith [nBaselines]float64 // over the cases of each of baselines()
}

// priced is a GNN's cost on one design with where its time goes.
type priced struct {
	cost hw.Cost
	// computePS is the time computation alone takes: per phase, the
	// slowest sub-accelerator's (engine's) compute cycles, with no wait
	// for memory; aggPS the time of the phases that walk the adjacency
	// (aggregations, with the combination pipelined after them on a
	// Hybrid design).
	computePS, aggPS int64
}

// price runs a on cfg over d as Problem.Latency does, phase by phase
// (accel/gcos's Explain).
func price(d nas.Dataset, a nas.Arch, cfg accel.Config) (priced, error) {
	var out priced
	if err := d.Validate(); err != nil {
		return out, err
	}
	m, err := a.Model(d)
	if err != nil {
		return out, err
	}
	works, err := d.Works(m)
	if err != nil {
		return out, err
	}
	u, err := accel.New(cfg)
	if err != nil {
		return out, err
	}
	var comp, agg int64
	for _, w := range works {
		c, tr, err := u.Explain(w)
		if err != nil {
			return out, fmt.Errorf("seed001: %s on %s: %w", a, d.Name, err)
		}
		out.cost = out.cost.Add(c)
		for _, kt := range tr {
			var slowest int64
			for _, st := range kt.Subs {
				slowest = max(slowest, st.Compute)
			}
			comp += slowest
			if kt.Aggregation {
				agg += kt.Cycles
			}
		}
	}
	out.computePS, out.aggPS = hw.PS(comp, u.ClockHz()), hw.PS(agg, u.ClockHz())
	return out, nil
}

// caseLatency prices a on G-CoS's design (its data set as gcosSetup
// gives it) and on each baseline (ds, dense or in the cheap order as the
// baseline runs it).
func caseLatency(ds, gds nas.Dataset, a nas.Arch, best accel.Config, base []baseline) (gcos priced, bl []priced, err error) {
	if gcos, err = price(gds, a, best); err != nil {
		return gcos, nil, err
	}
	for _, b := range base {
		d := ds
		if b.dense {
			d.FeatureDensity = 0
		}
		d.CheapOrder = b.cheap
		c, err := price(d, a, b.cfg)
		if err != nil {
			return gcos, nil, err
		}
		bl = append(bl, c)
	}
	return gcos, bl, nil
}

// memoryBound returns the time c's off-chip bytes take at cfg's
// bandwidth, in ps.
func memoryBound(c hw.Cost, cfg accel.Config) (int64, error) {
	u, err := accel.New(cfg)
	if err != nil {
		return 0, err
	}
	return int64(math.Round(float64(c.DRAMBytes) / u.Config().HBMBytesPerSec * 1e12)), nil
}

// speedups returns the speed-ups of G-CoS's latency g over the case's
// baselines bl (at c.bases' indices; NaN elsewhere).
func speedups(c fig8Case, g priced, bl []priced) [nBaselines]float64 {
	var sp [nBaselines]float64
	for i := range sp {
		sp[i] = math.NaN()
	}
	for k, bi := range c.bases {
		sp[bi] = float64(bl[k].cost.TimePS) / float64(g.cost.TimePS)
	}
	return sp
}

// zeroNaN returns x, or 0 for NaN (a speed-up the case does not have).
func zeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// geoMean accumulates logarithms per baseline.
type geoMean struct {
	logs, sums [nBaselines]float64
	n          [nBaselines]int
}

func (m *geoMean) add(sp [nBaselines]float64) {
	for i, x := range sp {
		if !math.IsNaN(x) {
			m.logs[i] += math.Log(x)
			m.sums[i] += x
			m.n[i]++
		}
	}
}

// geo returns the geometric mean over baseline i's cases (0 without any).
func (m *geoMean) geo(i int) float64 {
	if m.n[i] == 0 {
		return 0
	}
	return math.Exp(m.logs[i] / float64(m.n[i]))
}

func (m *geoMean) arith(i int) float64 {
	if m.n[i] == 0 {
		return 0
	}
	return m.sums[i] / float64(m.n[i])
}

// fig8 searches G-CoS's accelerator for every case, compares it with the
// case's baselines, and re-prices Reddit's cases at other degree
// exponents.
func fig8(ctx context.Context, o *Options, data []nas.Dataset, sz Sizes) (fig8Out, error) {
	var out fig8Out
	var all geoMean
	base := baselines()
	for di, ds := range data {
		cases, err := fig8Cases(ds, di, o.Fig8OwnModels)
		if err != nil {
			return out, err
		}
		var set geoMean
		bests := make([]accel.Config, len(cases))
		for ci, c := range cases {
			gds := gcosSetup(ds, o.Fig8DenseX)
			best, _, err := tuneAccel(ctx, o, gds, c.arch, sz, c.salt)
			if err != nil {
				return out, err
			}
			bests[ci] = best.Design.HW
			var bs []baseline
			for _, bi := range c.bases {
				bs = append(bs, base[bi])
			}
			g, bl, err := caseLatency(ds, gds, c.arch, bests[ci], bs)
			if err != nil {
				return out, err
			}
			sp := speedups(c, g, bl)
			all.add(sp)
			set.add(sp)
			row := func(design string, cfg accel.Config, pr priced) error {
				mb, err := memoryBound(pr.cost, cfg)
				out.rows = append(out.rows, Fig8Row{Comparison: c.comparison, Dataset: ds.Name, Model: c.model, Arch: c.arch.String(), Sampling: c.arch.Layers[0].Sampling,
					Design: design, Accel: describe(cfg), LatencyPS: pr.cost.TimePS, DRAMBytes: pr.cost.DRAMBytes, MACs: pr.cost.MACs,
					ComputePS: pr.computePS, MemoryBoundPS: mb, AggregationPS: pr.aggPS, SpeedupHyGCN: zeroNaN(sp[bHyGCN]), SpeedupAWB: zeroNaN(sp[bAWB])})
				return err
			}
			if err := row("G-CoS", bests[ci], g); err != nil {
				return out, err
			}
			for k, bi := range c.bases {
				if bi == bHyGCN || bi == bAWB { // the variants stay out of the rows
					if err := row(base[bi].name, base[bi].cfg, bl[k]); err != nil {
						return out, err
					}
				}
			}
			o.logf("seed001: %s %s (%s's): G-CoS %.1f us, %s over HyGCN-like, %s over AWB-GCN-like", ds.Name, c.model, c.comparison,
				float64(g.cost.TimePS)/1e6, fmtSpeedup(sp[bHyGCN]), fmtSpeedup(sp[bAWB]))
		}
		st := Fig8Set{Dataset: ds.Name, SpeedupHyGCN: set.geo(bHyGCN), SpeedupAWB: set.geo(bAWB),
			SpeedupHyGCNSparseX: set.geo(bHyGCNSparseX), SpeedupAWBHBM: set.geo(bAWBHBM)}
		if ptr := rowPtrOf(ds); ptr != nil {
			st.AWBStaticBalance = accel.RoundRobinBalance(withSelfLoops(ptr), accel.AWBGCNPEs)
		}
		out.sets = append(out.sets, st)
		if ds.Name == "reddit" && ds.Graph == nil {
			for _, gm := range RedditGammas {
				alt := ds
				var err error
				if alt.Rows, err = RedditRows(gm); err != nil {
					return out, err
				}
				st, err := graphs.RowPtrStats(alt.Rows)
				if err != nil {
					return out, err
				}
				// The same GNNs on the other profile (a fixed fan-out keeps
				// another fraction of its entries), on the designs searched.
				altCases, err := fig8Cases(alt, di, o.Fig8OwnModels)
				if err != nil {
					return out, err
				}
				for ci, c := range altCases {
					var bs []baseline
					for _, bi := range c.bases {
						bs = append(bs, base[bi])
					}
					g, bl, err := caseLatency(alt, gcosSetup(alt, o.Fig8DenseX), c.arch, bests[ci], bs)
					if err != nil {
						return out, err
					}
					sp := speedups(c, g, bl)
					mb, err := memoryBound(g.cost, bests[ci])
					if err != nil {
						return out, err
					}
					out.sens = append(out.sens, SensRow{Gamma: gm, Comparison: c.comparison, Model: c.model,
						SpeedupHyGCN: zeroNaN(sp[bHyGCN]), SpeedupAWB: zeroNaN(sp[bAWB]), MaxDegree: st.Max, Top1PctShare: st.Top1PctShare,
						GCoSLatencyPS: g.cost.TimePS, GCoSComputePS: g.computePS, GCoSMemoryBoundPS: mb, GCoSAggregationPS: g.aggPS})
				}
				if err := ctx.Err(); err != nil {
					return out, err
				}
			}
		}
	}
	for bi := range base {
		out.geo[bi], out.arith[bi] = all.geo(bi), all.arith(bi)
	}
	return out, nil
}

// fmtSpeedup prints a speed-up, "-" for one the case does not have.
func fmtSpeedup(x float64) string {
	if math.IsNaN(x) || x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", x)
}

// rowPtrOf returns the row pointers of ds's adjacency (no self-loops):
// its graph's or its degree profile; nil for average rows.
func rowPtrOf(ds nas.Dataset) []int32 {
	if g := ds.Graph; g != nil {
		if !g.SelfLoops {
			return g.RowPtr
		}
		out := make([]int32, len(g.RowPtr))
		for i := 1; i < len(out); i++ {
			out[i] = g.RowPtr[i] - int32(i)
		}
		return out
	}
	return ds.Rows
}

// withSelfLoops returns the row pointers of A+I: every row one longer.
func withSelfLoops(ptr []int32) []int32 {
	out := make([]int32, len(ptr))
	for i := 1; i < len(out); i++ {
		out[i] = ptr[i] + int32(i)
	}
	return out
}
