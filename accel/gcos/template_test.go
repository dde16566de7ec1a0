package gcos

import (
	"math"
	"path/filepath"

	"gnnsim/internal/shared"

	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/hw/hwtest"
	"gnnsim/workload"
)

// mustGraph unwraps a generator's result; generators fail only on bad
// parameters, which would be a bug in the test.
func mustGraph(g *graphs.Graph, err error) *graphs.Graph {
	if err != nil {
		panic(err)
	}
	return g
}

// coraSized is a power-law graph of Cora's size (2,708 nodes, ~5,300 edges).
func coraSized(t testing.TB) *graphs.Graph {
	return mustGraph(graphs.BarabasiAlbert(2708, 2, rand.New(rand.NewPCG(1, 2))))
}

// cora loads the real Cora graph when the shared data is present.
func cora(t testing.TB) *graphs.Graph {
	f, err := os.Open(filepath.Join(shared.Data(), "planetoid", "cora", "cora.cites"))
	if err != nil {
		return coraSized(t)
	}
	defer f.Close()
	return mustGraph(graphs.ReadCites(f, "cora"))
}

func gcn2(g *graphs.Graph, f, h, c int) hw.Work {
	return hw.GraphWork(g, workload.Layer{Kind: workload.GCN, F: f, G: h}, workload.Layer{Kind: workload.Act, F: h, G: h},
		workload.Layer{Kind: workload.GCN, F: h, G: c})
}

// sparseIn returns w with its first layer's input density set to d.
func sparseIn(w hw.Work, d float64) hw.Work {
	w.Block.Layers = append([]workload.Layer(nil), w.Block.Layers...)
	w.Block.Layers[0].InputDensity = d
	return w
}

// coraPublishedDensity is Cora's feature density when the data is absent:
// 49,216 non-zeros of 2,708 x 1,433 (MISSION section 12; the count of
// ind.cora.allx and tx, graphs.TestLoadPlanetoidReal).
const coraPublishedDensity = 49216.0 / (2708 * 1433)

// coraDensity measures Cora's feature density from the Planetoid files
// when present, else returns the published one.
func coraDensity(t testing.TB) float64 {
	p, err := graphs.LoadPlanetoid(filepath.Join(shared.Data(), "planetoid", "ind", "ind.cora"))
	if err != nil {
		return coraPublishedDensity
	}
	d, _ := p.FeatureDensity()
	return d
}

// sampled returns w with its adjacency entries scaled by rate.
func sampled(w hw.Work, rate float64) hw.Work {
	w.Block.In.NNZ = int64(float64(w.Block.In.NNZ) * rate)
	return w
}

func testWorks(t testing.TB) []hw.Work {
	g := coraSized(t)
	ba := mustGraph(graphs.BarabasiAlbert(500, 5, rand.New(rand.NewPCG(3, 4))))
	sizes := hw.BlockWork(workload.Block{Name: "sizes", Kind: workload.GNNLayer, In: workload.Size{Nodes: 19717, NNZ: 88648},
		Layers: []workload.Layer{{Kind: workload.SAGE, F: 500, G: 64}, {Kind: workload.GIN, F: 64, G: 3}}})
	return []hw.Work{
		gcn2(g, 1433, 16, 7),
		sampled(gcn2(g, 1433, 16, 7), 0.5),
		hw.GraphWork(ba, workload.Layer{Kind: workload.GAT, F: 64, G: 8, Heads: 4}, workload.Layer{Kind: workload.Act, F: 32, G: 32},
			workload.Layer{Kind: workload.GAT, F: 32, G: 6, Heads: 2, Last: true}),
		hw.GraphWork(ba, workload.Layer{Kind: workload.SAGEMax, F: 32, G: 16}, workload.Layer{Kind: workload.GIN, F: 16, G: 16}),
		hw.GraphWork(ba, workload.Layer{Kind: workload.FC, F: 32, G: 16}, workload.Layer{Kind: workload.BN, F: 16, G: 16}),
		sizes,
		sampled(sizes, 0.1),
		// Sparse input features (Cora's density): X x W as a sparse product.
		sparseIn(gcn2(g, 1433, 16, 7), coraPublishedDensity),
		sparseIn(sampled(gcn2(g, 1433, 16, 7), 0.5), coraPublishedDensity),
		sparseIn(hw.GraphWork(ba, workload.Layer{Kind: workload.GAT, F: 300, G: 8, Heads: 2}, workload.Layer{Kind: workload.FC, F: 16, G: 16}), 0.1),
		sparseIn(hw.GraphWork(ba, workload.Layer{Kind: workload.GIN, F: 200, G: 16}, workload.Layer{Kind: workload.GIN, F: 16, G: 16}), 0.02),
	}
}

func configs() []Config {
	d := Default()
	rep := Default()
	rep.Repurpose, rep.ShareWeights, rep.Name = true, true, "shared"
	cols := Default()
	cols.Alloc, cols.Name = ByColumns, "columns"
	mixed := Config{Name: "mixed", Subs: []Sub{
		{PEs: 2048, Tiling: OutputReuse, Kernel: OuterProduct, TileM: 128, TileK: 32, TileN: 16},
		{PEs: 1024, Tiling: FeatureReuse, Kernel: RowWise, TileM: 16, TileK: 256, TileN: 8},
		{PEs: 512, Tiling: WeightReuse, Kernel: ColumnWise, TileM: 256, TileK: 8, TileN: 32},
		{PEs: 256, Tiling: WeightReuse, Kernel: InnerProduct, TileM: 8, TileK: 8, TileN: 256},
	}}
	return []Config{d, rep, cols, mixed, HyGCN(), AWBGCN()}
}

func mustNew(t testing.TB, c Config) *Template {
	t.Helper()
	u, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestConformance(t *testing.T) {
	works := testWorks(t)
	for _, c := range configs() {
		t.Run(c.Name, func(t *testing.T) { hwtest.Conformance(t, mustNew(t, c), works) })
	}
}

func TestUnsupportedAndMismatchedWork(t *testing.T) {
	u := mustNew(t, Default())
	g := coraSized(t)
	knn := hw.BlockWork(workload.Block{Name: "knn", In: workload.Size{Nodes: 100}, Layers: []workload.Layer{{Kind: workload.KNN, F: 8, G: 8, K: 4}}})
	wrongNodes := gcn2(g, 16, 8, 4)
	wrongNodes.Block.In.Nodes++
	moreEntries := gcn2(g, 16, 8, 4)
	moreEntries.Block.In.NNZ *= 2
	for name, w := range map[string]hw.Work{"knn": knn, "nodes": wrongNodes, "entries": moreEntries} {
		if _, err := u.Run(w); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := Sub{PEs: 64, TileM: 8, TileK: 8, TileN: 8}
	mixed := []Sub{ok, {PEs: 64, TileM: 8, TileK: 8, TileN: 8, Kernel: RowWise}}
	for name, c := range map[string]Config{
		"none":          {},
		"six":           {Subs: []Sub{ok, ok, ok, ok, ok, ok}},
		"zero PEs":      {Subs: []Sub{{TileM: 8, TileK: 8, TileN: 8}}},
		"zero tile":     {Subs: []Sub{{PEs: 8, TileM: 8, TileN: 8}}},
		"tiling":        {Subs: []Sub{{PEs: 8, TileM: 8, TileK: 8, TileN: 8, Tiling: 7}}},
		"kernel":        {Subs: []Sub{{PEs: 8, TileM: 8, TileK: 8, TileN: 8, Kernel: 9}}},
		"repurpose mix": {Subs: mixed, Repurpose: true},
		"share mix":     {Subs: mixed, ShareWeights: true},
		"hybrid one":    {Subs: []Sub{ok}, Scheme: Hybrid},
		"clock":         {Subs: []Sub{ok}, ClockHz: -1},
		"bandwidth":     {Subs: []Sub{ok}, HBMBytesPerSec: -3},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := New(Config{Subs: mixed}); err != nil {
		t.Errorf("mixed modes without sharing: %v", err)
	}
}

func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      Config
		feasible bool
		what     string
	}{
		{"default", Default(), true, ""},
		{"hygcn", HyGCN(), true, ""},
		{"awb", AWBGCN(), true, ""},
		{"dsp", Config{Subs: []Sub{{PEs: 4000, TileM: 8, TileK: 8, TileN: 8}, {PEs: 97, TileM: 8, TileK: 8, TileN: 8}}}, false, "DSP"},
		{"memory", Config{Subs: []Sub{{PEs: 64, TileM: 4096, TileK: 4096, TileN: 8}}}, false, "on-chip bytes"},
	} {
		u := mustNew(t, tc.cfg)
		ok, what := hw.Feasible(u)
		if ok != tc.feasible || what != tc.what {
			t.Errorf("%s: feasible %v (%q), want %v (%q); usage %+v", tc.name, ok, what, tc.feasible, tc.what, u.Usage())
		}
	}
}

// randomConfig draws a design of up to 5 sub-accelerators.
func randomConfig(r *rand.Rand, shared bool) Config {
	n := 1 + r.IntN(MaxSubs)
	tiles := []int{4, 8, 16, 32, 64, 128, 256}
	var c Config
	tiling, kernel := TilingMode(r.IntN(3)), KernelMode(r.IntN(4))
	for range n {
		s := Sub{PEs: 16 * (1 + r.IntN(64)), Tiling: tiling, Kernel: kernel,
			TileM: tiles[r.IntN(len(tiles))], TileK: tiles[r.IntN(len(tiles))], TileN: tiles[r.IntN(len(tiles))]}
		if !shared {
			s.Tiling, s.Kernel = TilingMode(r.IntN(3)), KernelMode(r.IntN(4))
		}
		c.Subs = append(c.Subs, s)
	}
	c.Alloc = Allocation(r.IntN(2))
	return c
}

func TestMoreResourcesNeverSlower(t *testing.T) {
	works := testWorks(t)
	r := rand.New(rand.NewPCG(5, 6))
	trials := 60
	if testing.Short() {
		trials = 15
	}
	for trial := range trials {
		c := randomConfig(r, false)
		base := mustNew(t, c)
		// Every PE array grows by one factor (a bigger device); the
		// proportional split is then unchanged. Growing one sub-accelerator
		// alone moves work to it and can slow a design whose
		// sub-accelerators differ in efficiency: see doc.go.
		f := []float64{1.25, 1.5, 2, 3}[trial%4]
		more := c
		more.Subs = append([]Sub(nil), c.Subs...)
		for i := range more.Subs {
			more.Subs[i].PEs = int(float64(more.Subs[i].PEs) * f)
		}
		fast := c
		fast.HBMBytesPerSec = f * HBMBytesPerSec
		for wi, w := range works {
			b, err := base.Run(w)
			if err != nil {
				t.Fatal(err)
			}
			for name, cc := range map[string]Config{"more PEs": more, "more HBM bandwidth": fast} {
				m, err := mustNew(t, cc).Run(w)
				if err != nil {
					t.Fatal(err)
				}
				if m.Cycles > b.Cycles {
					t.Errorf("trial %d work %d: %s slower: %d > %d cycles (%+v)", trial, wi, name, m.Cycles, b.Cycles, c)
				}
			}
		}
	}
}

func TestSharingNeverAddsTraffic(t *testing.T) {
	works := testWorks(t)
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 40 {
		c := randomConfig(r, true)
		plain := mustNew(t, c)
		for _, flags := range [][2]bool{{true, false}, {false, true}, {true, true}} {
			cc := c
			cc.Repurpose, cc.ShareWeights = flags[0], flags[1]
			u := mustNew(t, cc)
			for wi, w := range works {
				a, err := plain.Run(w)
				if err != nil {
					t.Fatal(err)
				}
				b, err := u.Run(w)
				if err != nil {
					t.Fatal(err)
				}
				if b.DRAMBytes > a.DRAMBytes {
					t.Errorf("trial %d work %d: repurpose %v share %v: %d bytes > %d", trial, wi, flags[0], flags[1], b.DRAMBytes, a.DRAMBytes)
				}
			}
		}
	}
}

// On a regular graph, work in proportion to PEs makes sub-accelerators of
// one kind finish within one row block of each other.
func TestProportionalAllocationBalances(t *testing.T) {
	g := mustGraph(graphs.WattsStrogatz(6000, 8, 0, rand.New(rand.NewPCG(9, 9))))
	w := hw.GraphWork(g, workload.Layer{Kind: workload.GCN, F: 64, G: 32})
	for _, km := range []KernelMode{InnerProduct, RowWise, OuterProduct, ColumnWise} {
		var subs []Sub
		for _, p := range []int{128, 256, 512, 1024, 2048} {
			subs = append(subs, Sub{PEs: p, Kernel: km, TileM: 64, TileK: 64, TileN: 16})
		}
		u := mustNew(t, Config{Subs: subs, HBMBytesPerSec: 1e18, HBMLatency: -1})
		_, tr, err := u.Explain(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, kt := range tr {
			lo, hi := kt.Subs[0].Compute, kt.Subs[0].Compute
			block := int64(0)
			for i, st := range kt.Subs {
				lo, hi = min(lo, st.Compute), max(hi, st.Compute)
				// one row block: one step of the sub's PE groups over a row
				c := min(int64(subs[i].TileN), st.Cols, int64(subs[i].PEs))
				perRow := int64(9) * ceilDiv(st.Cols, c) // 8 neighbours + self
				if kt.Class == workload.GEMM {
					perRow = 64 * ceilDiv(st.Cols, c)
				}
				if km == ColumnWise {
					perRow = 9 * st.Cols
					if kt.Class == workload.GEMM {
						perRow = 64 * st.Cols
					}
				}
				block = max(block, perRow)
			}
			if hi-lo > block {
				t.Errorf("%s %s: finish times %d..%d differ by more than one row block (%d cycles): %+v", km, kt.Kernel, lo, hi, block, kt.Subs)
			}
		}
	}
}

func TestKernelModes(t *testing.T) {
	// A skewed graph: static row groups wait for hubs, flat nonzero
	// distribution does not.
	g := mustGraph(graphs.BarabasiAlbert(4000, 4, rand.New(rand.NewPCG(11, 12))))
	w := hw.GraphWork(g, workload.Layer{Kind: workload.GCN, F: 128, G: 16})
	run := func(km KernelMode, tm, tk, tn int) KernelTrace {
		u := mustNew(t, Config{Subs: []Sub{{PEs: 1024, Kernel: km, TileM: tm, TileK: tk, TileN: tn}}})
		_, tr, err := u.Explain(w)
		if err != nil {
			t.Fatal(err)
		}
		return tr[0] // the aggregation
	}
	ip, op, rw, cw := run(InnerProduct, 64, 64, 16), run(OuterProduct, 64, 64, 16), run(RowWise, 64, 64, 16), run(ColumnWise, 64, 64, 16)
	nnz := float64(g.NNZ() + g.NumNodes())
	ideal := int64(nnz * 128 / 1024)
	if op.Subs[0].Compute > ideal+8 {
		t.Errorf("outer product: %d cycles, flat nonzeros need %d", op.Subs[0].Compute, ideal)
	}
	if !(ip.Subs[0].Compute > op.Subs[0].Compute && rw.Subs[0].Compute <= ip.Subs[0].Compute && cw.Subs[0].Compute >= ip.Subs[0].Compute) {
		t.Errorf("compute: inner %d, outer %d, row %d, column %d; want outer < row <= inner <= column on a skewed graph",
			ip.Subs[0].Compute, op.Subs[0].Compute, rw.Subs[0].Compute, cw.Subs[0].Compute)
	}
	// Small buffers: the row-wise product gathers a feature row per
	// nonzero; the outer product spills partial sums its output buffer
	// cannot hold; the column-wise product re-reads A per column tile.
	small := run(RowWise, 8, 8, 8)
	if small.Subs[0].Bytes <= run(RowWise, 64, 1024, 256).Subs[0].Bytes {
		t.Errorf("row-wise: small buffers move %d bytes, no more than large ones", small.Subs[0].Bytes)
	}
	if a, b := run(OuterProduct, 8, 8, 8).Subs[0].Bytes, run(OuterProduct, 4096, 8, 128).Subs[0].Bytes; a <= b {
		t.Errorf("outer product: spilling partial sums moves %d bytes, a large output buffer %d", a, b)
	}
	if a, b := run(ColumnWise, 8, 8, 4).Subs[0].Bytes, run(ColumnWise, 8, 8, 128).Subs[0].Bytes; a <= b {
		t.Errorf("column-wise: 32 column tiles move %d bytes, one tile %d", a, b)
	}
}

func TestCoraOrderOfMagnitude(t *testing.T) {
	g := cora(t)
	w := gcn2(g, 1433, 16, 7)
	for _, c := range []Config{Default(), HyGCN(), AWBGCN()} {
		u := mustNew(t, c)
		cost, err := u.Run(w)
		if err != nil {
			t.Fatal(err)
		}
		bound := float64(cost.MACs) / float64(u.Usage().DSP) / u.ClockHz() // each design at its own clock (HyGCN-like: 1 GHz)
		us := cost.Seconds() * 1e6
		t.Logf("%s on %s (%d nodes, %d entries): %.1f us, %d MACs (bound %.1f us at full use), %.2f MB off chip",
			c.Name, g.Name, g.NumNodes(), g.NNZ(), us, cost.MACs, bound*1e6, float64(cost.DRAMBytes)/1e6)
		if us < bound*1e6 || us > 20*bound*1e6 {
			t.Errorf("%s: %.1f us outside [bound, 20 x bound] = [%.1f, %.1f] us", c.Name, us, bound*1e6, 20*bound*1e6)
		}
	}
}

// TestCoraSparseInputPaperScale is the order-of-magnitude check against
// the paper's scale: a two-layer GCN (hidden 16) on Cora with its sparse
// input features, on any of the three 4,096-DSP designs at 330 MHz, takes
// 1-50 us. It also checks that skipping zeros pays: the first layer's
// product moves and computes less than the dense one, and the whole layer
// is faster.
func TestCoraSparseInputPaperScale(t *testing.T) {
	g := cora(t)
	d := coraDensity(t)
	dense := gcn2(g, 1433, 16, 7)
	sp := sparseIn(dense, d)
	for _, c := range []Config{Default(), HyGCN(), AWBGCN()} {
		u := mustNew(t, c)
		dc, err := u.Run(dense)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := u.Run(sp)
		if err != nil {
			t.Fatal(err)
		}
		us := sc.Seconds() * 1e6
		t.Logf("%s on %s, input density %.4f: %.2f us (dense input %.1f us), %d MACs, %.3f MB off chip",
			c.Name, g.Name, d, us, dc.Seconds()*1e6, sc.MACs, float64(sc.DRAMBytes)/1e6)
		if us < 1 || us > 50 {
			t.Errorf("%s: %.2f us, outside the paper's scale of 1-50 us", c.Name, us)
		}
		if sc.MACs >= dc.MACs || sc.DRAMBytes >= dc.DRAMBytes || sc.Cycles >= dc.Cycles {
			t.Errorf("%s: sparse input %d MACs, %d bytes, %d cycles; dense %d, %d, %d: want all fewer",
				c.Name, sc.MACs, sc.DRAMBytes, sc.Cycles, dc.MACs, dc.DRAMBytes, dc.Cycles)
		}
		if bound := float64(sc.MACs) / float64(u.Usage().DSP) / ClockHz * 1e6; us < bound {
			t.Errorf("%s: %.2f us below the %.2f us of all PEs busy", c.Name, us, bound)
		}
	}
}

// TestSparseInputPricing checks how X x W of a sparse input is priced: X
// crosses the HBM in the design's sparse format (COO: a value and two
// indices per non-zero; AWB-GCN-like's CSC: a value and a row index, and a
// pointer a column), once on
// designs that neither re-read it nor spill partial sums (AWB-GCN-like,
// default), its output off chip unless re-purposed buffers keep it, and on the HyGCN-like design it runs on the combination engine
// (whose weight-reuse tiles spill partial sums: more bytes, not fewer).
func TestSparseInputPricing(t *testing.T) {
	g := coraSized(t)
	const d = 0.01
	w := hw.GraphWork(g, workload.Layer{Kind: workload.GCN, F: 1000, G: 16, InputDensity: d})
	nnz := int64(d * float64(g.NumNodes()) * 1000)
	for _, c := range []Config{AWBGCN(), Default(), HyGCN()} {
		_, tr, err := mustNew(t, c).Explain(w)
		if err != nil {
			t.Fatal(err)
		}
		xw := tr[0]
		if xw.Kernel != "combine" || xw.Class != workload.SpMM {
			t.Fatalf("%s: first phase %s %s, want the sparse combine", c.Name, xw.Kernel, xw.Class)
		}
		var bytes int64
		for _, st := range xw.Subs {
			bytes += st.Bytes
		}
		x := int64(c.Subs[len(c.Subs)-1].sparseBytes(float64(nnz), 1000)) // the engine that runs X x W
		wts := int64(1000 * 16 * WordBytes)
		out := int64(g.NumNodes()) * 16 * WordBytes
		if c.Repurpose && out <= mustNew(t, c).Usage().OnChipBytes {
			out = 0 // XW stays on chip for the aggregation after it (AWB-GCN-like)
		}
		// X once, W at least once, the output once; whole bursts.
		lo, hi := x+out, x+out+int64(len(xw.Subs))*(wts+3*BurstBytes)
		if c.Scheme == Hybrid {
			hi = math.MaxInt64
		}
		if bytes < lo || bytes > hi {
			t.Errorf("%s: X x W moves %d bytes, want %d..%d", c.Name, bytes, lo, hi)
		}
		if c.Scheme == Hybrid && (xw.Subs[0].Compute != 0 || xw.Subs[1].Compute == 0) {
			t.Errorf("%s: X x W computed by the aggregation engine (%+v)", c.Name, xw.Subs)
		}
	}
}

// BenchmarkCoraGCN times one evaluation of the two-layer GCN on Cora, with
// dense and with sparse (measured density) input features.
func BenchmarkCoraGCN(b *testing.B) {
	g := cora(b)
	dense := gcn2(g, 1433, 16, 7)
	for _, in := range []struct {
		name string
		w    hw.Work
	}{{"dense", dense}, {"sparse", sparseIn(dense, coraDensity(b))}} {
		for _, c := range []Config{Default(), HyGCN(), AWBGCN()} {
			u := mustNew(b, c)
			b.Run(in.name+"/"+c.Name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := u.Run(in.w); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestSaturationIsAnError: a stack whose time or MACs do not fit in 64
// bits is an error naming the quantity, never a clamped number (issue 38
// item 6: 40 width-2^20 GCN layers on Reddit printed MaxInt64 MACs).
func TestSaturationIsAnError(t *testing.T) {
	reddit := workload.Size{Nodes: 232965, NNZ: 114615892}
	deep := func(n, w int) hw.Work {
		ls := make([]workload.Layer, n)
		f := 602
		for i := range ls {
			ls[i] = workload.Layer{Kind: workload.GCN, F: f, G: w}
			f = w
		}
		return hw.BlockWork(workload.Block{Name: "deep", Kind: workload.GNNLayer, In: reddit, Layers: ls})
	}
	for _, tc := range []struct {
		name string
		w    hw.Work
		ok   bool
	}{
		{"2 layers of 64", deep(2, 64), true},
		{"40 layers of 2^20", deep(40, 1<<20), false},
		{"4 layers of 2^20 (6e17 ps)", deep(4, 1<<20), true},
	} {
		c, err := mustNew(t, Default()).Run(tc.w)
		if tc.ok {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "64 bits") {
			t.Errorf("%s: cost %+v, err %v; want an error saying it does not fit in 64 bits", tc.name, c, err)
		}
	}
}
