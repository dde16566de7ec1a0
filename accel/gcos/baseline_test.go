package gcos

import (
	"math"
	"math/rand/v2"
	"testing"

	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/workload"
)

// TestBaselinesSizedAsTheirPapers: HyGCN's 512 SIMD lanes and 4,096
// systolic PEs at 1 GHz on 256 GB/s, AWB-GCN's 4,096 PEs at 330 MHz on the
// D5005's 76.8 GB/s; each within its own budget.
func TestBaselinesSizedAsTheirPapers(t *testing.T) {
	for _, c := range []struct {
		cfg       Config
		pes       []int
		clock, bw float64
	}{
		{HyGCN(), []int{512, 4096}, 1e9, 256e9},
		{AWBGCN(), []int{4096}, 330e6, 76.8e9},
	} {
		u := mustNew(t, c.cfg)
		got := u.Config()
		if len(got.Subs) != len(c.pes) {
			t.Fatalf("%s: %d engines", got.Name, len(got.Subs))
		}
		for i, p := range c.pes {
			if got.Subs[i].PEs != p {
				t.Errorf("%s engine %d: %d PEs, want %d", got.Name, i, got.Subs[i].PEs, p)
			}
		}
		if got.ClockHz != c.clock || math.Abs(got.HBMBytesPerSec/c.bw-1) > 1e-12 {
			t.Errorf("%s: %v Hz, %v B/s", got.Name, got.ClockHz, got.HBMBytesPerSec)
		}
		if ok, why := hw.Feasible(u); !ok {
			t.Errorf("%s over its own budget: %s", got.Name, why)
		}
	}
}

// TestRebalanceBetweenStaticAndPerfect: on a skewed profile AWB-GCN's
// rebalanced SpMM runs at its reported utilisation of perfect balance,
// never slower than the static round-robin mapping nor faster than
// perfect balance; on rows of one length the static mapping is already
// balanced.
func TestRebalanceBetweenStaticAndPerfect(t *testing.T) {
	const n, p = 40000, 1024
	skew, err := graphs.PowerLawRows(n, 40*n, 2.2, n-1, 5)
	if err != nil {
		t.Fatal(err)
	}
	flat := make([]int32, n+1)
	for i := range n {
		flat[i+1] = flat[i] + 40
	}
	for _, c := range []struct {
		name string
		ptr  []int32
	}{{"skewed", skew}, {"flat", flat}} {
		layer := workload.Layer{Kind: workload.GCN, F: 16, G: 16} // aggregation over A+I first
		w := hw.Work{Rows: c.ptr, Block: workload.Block{Kind: workload.GNNLayer, In: workload.Size{Nodes: n, NNZ: int64(c.ptr[n])}, Layers: []workload.Layer{layer}}}
		compute := func(s Sub) int64 {
			u := mustNew(t, Config{Subs: []Sub{s}, HBMBytesPerSec: 1e18, HBMLatency: -1})
			_, tr, err := u.Explain(w)
			if err != nil {
				t.Fatal(err)
			}
			return tr[0].Subs[0].Compute
		}
		base := Sub{PEs: p, Kernel: ColumnWise, TileM: 256, TileK: 256, TileN: 16, Rebalance: true}
		perfect := compute(base)
		base.Utilization = AWBGCNUtilization
		awb := compute(base)
		withSelf := make([]int32, n+1) // A+I
		for i := range n {
			withSelf[i+1] = c.ptr[i+1] + int32(i) + 1
		}
		ideal := float64(withSelf[n]) * 16 / p
		bal := RoundRobinBalance(withSelf, p)
		static := ideal / bal
		t.Logf("%s: round-robin balance %.3f (%.0f cycles), perfect %d, at %.3f: %d", c.name, bal, static, perfect, AWBGCNUtilization, awb)
		near := func(x int64, y float64) bool { return math.Abs(float64(x)-y) <= 1 }
		if !near(perfect, ideal) {
			t.Errorf("%s: perfect balance %d cycles, want %.0f", c.name, perfect, ideal)
		}
		if !(awb >= perfect && float64(awb) <= static+1) {
			t.Errorf("%s: rebalanced %d outside [perfect %d, static %.0f]", c.name, awb, perfect, static)
		}
		if c.name == "skewed" && !(bal < AWBGCNUtilization && near(awb, ideal/AWBGCNUtilization)) {
			t.Errorf("skewed: static balance %.3f, rebalanced %d, want %.0f", bal, awb, ideal/AWBGCNUtilization)
		}
		if c.name == "flat" && !(bal > AWBGCNUtilization && near(awb, static)) {
			t.Errorf("flat: static balance %v, rebalanced %d, want the static %.0f", bal, awb, static)
		}
	}
}

// TestAWBGCNStreamsAOncePerLayer: AWB-GCN-like's column tile spans the
// widest layer AWB-GCN runs (64, Reddit's GCN), so a 64-wide aggregation
// reads A once, as a 16-wide one does: the extra bytes are the wider
// features alone, not further passes over A.
func TestAWBGCNStreamsAOncePerLayer(t *testing.T) {
	g := mustGraph(graphs.BarabasiAlbert(5000, 50, rand.New(rand.NewPCG(5, 6))))
	bytes := func(width int) int64 {
		// F = G: the aggregation over A+I runs first (no narrowing).
		w := hw.GraphWork(g, workload.Layer{Kind: workload.GCN, F: width, G: width})
		_, tr, err := mustNew(t, AWBGCN()).Explain(w)
		if err != nil {
			t.Fatal(err)
		}
		var b int64
		for _, st := range tr[0].Subs {
			b += st.Bytes
		}
		return b
	}
	nnz := float64(g.NNZ() + g.NumNodes()) // A+I
	aPass := AWBGCN().Subs[0].sparseBytes(nnz, int64(g.NumNodes()))
	b16, b64 := bytes(16), bytes(64)
	t.Logf("aggregation bytes: 16 wide %d, 64 wide %d; one pass over A+I %.0f", b16, b64, aPass)
	if float64(b16) < aPass || float64(b64-b16) >= aPass/2 {
		t.Errorf("16 wide %d bytes, 64 wide %d: want A+I (%.0f bytes) read once in both", b16, b64, aPass)
	}
}

// TestRowProfileMatchesGraph: a work that carries only its graph's row
// pointers costs what the work with the graph costs.
func TestRowProfileMatchesGraph(t *testing.T) {
	g := mustGraph(graphs.BarabasiAlbert(3000, 4, rand.New(rand.NewPCG(3, 4))))
	w := gcn2(g, 64, 16, 7)
	p := w
	p.Graph, p.Rows = nil, g.RowPtr
	for _, c := range []Config{Default(), HyGCN(), AWBGCN()} {
		u := mustNew(t, c)
		a, err := u.Run(w)
		if err != nil {
			t.Fatal(err)
		}
		b, err := u.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("%s: graph %+v, row profile %+v", c.Name, a, b)
		}
	}
	bad := p
	bad.Rows = g.RowPtr[:100]
	if _, err := mustNew(t, Default()).Run(bad); err == nil {
		t.Error("row profile of the wrong length accepted")
	}
}

// TestHyGCNVertexDisperse: HyGCN's aggregation engine keeps every lane busy
// whatever the row lengths (vertex-disperse mode), and with the
// destination interval on chip reads each source feature row once.
func TestHyGCNVertexDisperse(t *testing.T) {
	const n, f = 3000, 64
	skew, err := graphs.PowerLawRows(n, 20*n, 2.1, n-1, 7)
	if err != nil {
		t.Fatal(err)
	}
	flat := make([]int32, n+1)
	for i := range n {
		flat[i+1] = flat[i] + 20
	}
	agg := HyGCN().Subs[0]
	var got []SubTrace
	for _, ptr := range [][]int32{skew, flat} {
		layer := workload.Layer{Kind: workload.GCN, F: f, G: 16}
		w := hw.Work{Rows: ptr, Block: workload.Block{Kind: workload.GNNLayer, In: workload.Size{Nodes: n, NNZ: int64(ptr[n])}, Layers: []workload.Layer{layer}}}
		u := mustNew(t, Config{Subs: []Sub{agg}, HBMBytesPerSec: 1e18, HBMLatency: -1})
		_, tr, err := u.Explain(w)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tr[0].Subs[0])
	}
	// A+I: 21 entries a row on average, 64 features on 512 lanes: 8 rows at once.
	want := int64(n*21*f) / 512
	// 602 features: 38 SIMD16 steps an entry over 32 cores, free cores
	// taking the next vertex's (HyGCN Sec. 4.3.1), not two passes of 512.
	const wide = 602
	layer := workload.Layer{Kind: workload.GCN, F: wide, G: 16}
	w := hw.Work{Rows: flat, Block: workload.Block{Kind: workload.GNNLayer, In: workload.Size{Nodes: n, NNZ: int64(flat[n])}, Layers: []workload.Layer{layer}}}
	_, tr, err := mustNew(t, Config{Subs: []Sub{agg}, HBMBytesPerSec: 1e18, HBMLatency: -1}).Explain(w)
	if err != nil {
		t.Fatal(err)
	}
	if c, want := tr[0].Subs[0].Compute, (int64(n*21)*38+31)/32; c != want {
		t.Errorf("%d features: %d cycles, want %d", wide, c, want)
	}
	for i, st := range got {
		if st.Compute != want {
			t.Errorf("profile %d: %d cycles, want %d (balanced)", i, st.Compute, want)
		}
		// A as COO (10 bytes an entry), X once, the aggregated output once.
		bytes := int64(n*21)*(WordBytes+2*IndexBytes) + 2*int64(n*f)*WordBytes
		if math.Abs(float64(st.Bytes)/float64(bytes)-1) > 0.01 {
			t.Errorf("profile %d: %d bytes, want ~%d", i, st.Bytes, bytes)
		}
	}
}

// TestHybridPipelineOverlaps checks the inter-engine pipeline's memory
// order: the aggregation engine prefetches its next chunk while it
// computes, so a phase whose loads and compute are of one size takes well
// under their sum (and never less than either).
func TestHybridPipelineOverlaps(t *testing.T) {
	g := coraSized(t)
	w := hw.GraphWork(g, workload.Layer{Kind: workload.GCN, F: 1433, G: 16})
	u := mustNew(t, HyGCN())
	_, tr, err := u.Explain(w)
	if err != nil {
		t.Fatal(err)
	}
	ph := tr[0]
	var bytes, comp int64
	for _, st := range ph.Subs {
		bytes += st.Bytes
		comp = max(comp, st.Compute)
	}
	load := int64(float64(bytes) / (HyGCNHBMBytesPerS / HyGCNClockHz))
	if ph.Cycles < max(load, comp) {
		t.Errorf("phase %d cycles, below its loads (%d) or compute (%d)", ph.Cycles, load, comp)
	}
	if sum := load + comp; float64(ph.Cycles) > 0.9*float64(sum) {
		t.Errorf("phase %d cycles, loads %d + compute %d = %d: want loads overlapped with compute", ph.Cycles, load, comp, sum)
	}
}

// TestIntervalSources checks HyGCN-like's sparsity elimination on a
// hand-counted graph: per destination interval, the distinct source rows.
func TestIntervalSources(t *testing.T) {
	// 4 nodes; rows 0: {1, 2}, 1: {0}, 2: {3}, 3: {3}.
	r := rows{n: 4, ptr: []int32{0, 2, 3, 4, 5}, col: []int32{1, 2, 0, 3, 3}, scale: 1}
	for _, c := range []struct {
		size int64
		self float64
		want float64
	}{
		{4, 0, 4},     // one interval: sources 0, 1, 2, 3
		{2, 0, 3 + 1}, // {0,1}: sources 1, 2, 0; {2,3}: source 3
		{1, 0, 5},     // every entry its own interval
		{2, 1, 3 + 2}, // plus the identity: {0,1} adds nothing, {2,3} adds 2
	} {
		r.self = c.self
		got, ok := r.intervalSources(0, 4, c.size)
		if !ok || got != c.want {
			t.Errorf("intervals of %d rows, self %v: %v sources (%v), want %v", c.size, c.self, got, ok, c.want)
		}
	}
	r.col = nil
	if _, ok := r.intervalSources(0, 4, 2); ok {
		t.Error("no column indices: want not known")
	}
}

// TestSparseFormats: a sparse operand's entries cost a 16-bit value and two
// 32-bit indices as COO, a value and one index plus a pointer a column as
// CSC (AWB-GCN-like's format), hand-counted.
func TestSparseFormats(t *testing.T) {
	for _, c := range []struct {
		csc  bool
		nnz  float64
		cols int64
		want float64
	}{
		{false, 100, 10, 100 * (2 + 2*4)},
		{true, 100, 10, 100*(2+4) + 11*4},
		{true, 0, 0, 4},
	} {
		s := Sub{CSC: c.csc}
		if got := s.sparseBytes(c.nnz, c.cols); got != c.want {
			t.Errorf("CSC %v, %v entries over %d columns: %v bytes, want %v", c.csc, c.nnz, c.cols, got, c.want)
		}
	}
	if !AWBGCN().Subs[0].CSC || Default().Subs[0].CSC || HyGCN().Subs[0].CSC {
		t.Error("want CSC on AWB-GCN-like only")
	}
	if _, err := AWBGCN().File(); err == nil {
		t.Error("AWB-GCN-like (CSC, rebalanced) written to a config file")
	}
}
