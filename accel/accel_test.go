// This file is over 600 lines on purpose: it holds the property tests of the
// whole accelerator model (conservation, bounds, monotonicity across PEs,
// buffers and DRAM latency, mode equivalences), which share one set of
// fixtures; splitting them by property would scatter those fixtures.

package accel

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/workload"
)

func rmat(t testing.TB, n, m int, seed uint64) *graphs.Graph {
	t.Helper()
	g, err := graphs.RMAT(n, m, 0.57, 0.19, 0.19, rand.New(rand.NewPCG(seed, 3)))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomCases yields small random graphs with random feature sizes.
func randomCases(t *testing.T, n int) []struct {
	g    *graphs.Graph
	F, G int
} {
	rng := rand.New(rand.NewPCG(42, 7))
	var out []struct {
		g    *graphs.Graph
		F, G int
	}
	sizes := []int{1, 2, 3, 16, 18, 32, 64, 100}
	for i := range n {
		v := 1 + rng.IntN(300)
		e := rng.IntN(4 * v)
		g := rmat(t, v, e, uint64(i))
		if i%2 == 1 {
			g = g.WithSelfLoops() // both storage forms must behave the same
		}
		out = append(out, struct {
			g    *graphs.Graph
			F, G int
		}{g, sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]})
	}
	return out
}

func allResults(t *testing.T, p *Prepared, hw HW, opts Options) []Result {
	t.Helper()
	rs, err := p.RunAll(hw, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// same reports whether two results agree on everything but the event count.
func same(a, b Result) bool {
	a.Events, b.Events = 0, 0
	return a == b
}

func TestFastEqualsEvents(t *testing.T) {
	hw := DefaultHW()
	hw.DistributionBW, hw.ReductionBW, hw.GlobalBufferBW = 128, 256, 300 // make the limits bite
	optsList := []Options{
		{Mode: Omega},
		{Mode: Extended, Disable: FiniteBuffer},
		{Mode: Extended, Disable: AllEffects},
		{Mode: Extended, Disable: FiniteBuffer | FixPPStamps | FixPPTiles},
		{Mode: Extended, Disable: FiniteBuffer | NoCLimits | FixRowTimes},
	}
	for _, tc := range randomCases(t, 80) {
		p, err := Prepare(tc.g, gcn(tc.F, tc.G))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range optsList {
			ev := allResults(t, p, hw, o)
			o.Engine = Fast
			fa := allResults(t, p, hw, o)
			for i := range ev {
				if !same(ev[i], fa[i]) {
					t.Fatalf("V=%d F=%d G=%d %s %v: events %+v\nfast %+v", tc.g.NumNodes(), tc.F, tc.G, ev[i].Config.Name(), o, ev[i], fa[i])
				}
				if fa[i].Events != 0 || ev[i].Events == 0 {
					t.Fatalf("event counts: fast %d, events %d", fa[i].Events, ev[i].Events)
				}
			}
		}
	}
}

func TestDisablingEverythingIsOmega(t *testing.T) {
	hw := DefaultHW()
	for _, tc := range randomCases(t, 12) {
		p, err := Prepare(tc.g, gcn(tc.F, tc.G))
		if err != nil {
			t.Fatal(err)
		}
		om := allResults(t, p, hw, Options{Mode: Omega})
		ex := allResults(t, p, hw, Options{Disable: AllEffects})
		for i := range om {
			om[i].Mode = Extended
			if !same(om[i], ex[i]) {
				t.Fatalf("%s: omega %+v\nextended with nothing %+v", om[i].Config.Name(), om[i], ex[i])
			}
		}
	}
}

func TestProperties(t *testing.T) {
	hw := DefaultHW()
	hw.GlobalBufferBytes = 16 << 10 // small, so spills happen
	for _, tc := range randomCases(t, 80) {
		p, err := Prepare(tc.g, gcn(tc.F, tc.G))
		if err != nil {
			t.Fatal(err)
		}
		V := int64(tc.g.NumNodes())
		nnz := int64(tc.g.NNZ())
		if !tc.g.SelfLoops {
			nnz += V
		}
		wantMACs := nnz*int64(tc.F) + V*int64(tc.F)*int64(tc.G)
		for _, o := range []Options{{Mode: Omega}, {}} {
			for _, r := range allResults(t, p, hw, o) {
				name := r.Config.Name() + "/" + o.Mode.String()
				if r.MACs != wantMACs {
					t.Errorf("%s: MACs %d, want E*F + V*F*G = %d", name, r.MACs, wantMACs)
				}
				if r.Cycles*int64(hw.PEs) < r.MACs {
					t.Errorf("%s: %d cycles on %d PEs cannot do %d MACs", name, r.Cycles, hw.PEs, r.MACs)
				}
				if r.Utilization <= 0 || r.Utilization > 1 {
					t.Errorf("%s: utilisation %v", name, r.Utilization)
				}
				if r.StallCycles != r.Stalls.Pipeline+r.Stalls.Memory+r.Stalls.Ports || r.Stalls.Pipeline < 0 || r.Stalls.Memory < 0 || r.Stalls.Ports < 0 {
					t.Errorf("%s: stalls %d vs %+v", name, r.StallCycles, r.Stalls)
				}
				if o.Mode == Omega {
					if r.DRAM != (Traffic{}) || r.Energy != (EnergyBreakdown{}) {
						t.Errorf("%s: omega mode has DRAM %+v, energy %+v", name, r.DRAM, r.Energy)
					}
					continue
				}
				if float64(r.Cycles) < float64(r.DRAM.Bytes)/hw.DRAMBytesPerCycle {
					t.Errorf("%s: %d cycles move %d DRAM bytes at %v B/cycle", name, r.Cycles, r.DRAM.Bytes, hw.DRAMBytesPerCycle)
				}
				if r.Energy.Total() <= 0 || r.Energy.DRAM <= 0 {
					t.Errorf("%s: energy %+v", name, r.Energy)
				}
			}
		}
	}
}

// Bounds on the slowdown of pp under tiling a from doubling the PEs with
// every effect on (package doc, "More PEs"): ppFillBound when the DRAM
// bytes do not grow, ppSpillBound plus the channel time of the added bytes
// when the bigger tiles no longer fit the global buffer. Measured on
// TestMorePEsNeverSlowerTilingA's cases when written: at most 3.9 % (DRAM
// latency 100; 1.0 % at 400, 0.6 % at 0), and at most 6.7 % beyond the
// added bytes' channel time (46 % in all).
const (
	ppFillBound  = 0.05
	ppSpillBound = 0.10
)

// TestMorePEsNeverSlowerTilingA doubles the PEs from 64 to 1024 under
// tiling a on random graphs, in omega mode and in extended mode with every
// effect on, on hardware whose networks grow with the PE array (one word
// per PE per cycle, as in STONNE's runs) or stay at DefaultHW's, with
// global buffers that hold the working set or spill, and DRAM latencies
// from 0 to 400. seq and sp are never slower; pp is never slower with
// FiniteBuffer off, and with it on stays within ppFillBound, or
// ppSpillBound plus the added bytes' channel time when its bigger tiles
// move more DRAM bytes.
func TestMorePEsNeverSlowerTilingA(t *testing.T) {
	tl, _ := dataflow.Named("a")
	type family struct {
		opts     Options
		scaleNoC bool
		gb, lat  int64
	}
	var fams []family
	for _, scale := range []bool{true, false} {
		fams = append(fams, family{Options{Mode: Omega}, scale, 1 << 20, 100}, family{Options{Disable: FiniteBuffer}, scale, 1 << 20, 100})
		for _, gb := range []int64{1 << 20, 16 << 10, 4 << 10} {
			for _, lat := range []int64{0, 100, 400} {
				fams = append(fams, family{Options{}, scale, gb, lat})
			}
		}
	}
	var worstPP, worstPPBytes float64 // largest pp slowdowns seen, without and with added DRAM bytes
	for _, tc := range randomCases(t, 60) {
		p, err := Prepare(tc.g, gcn(tc.F, tc.G))
		if err != nil {
			t.Fatal(err)
		}
		for _, fm := range fams {
			for _, inter := range dataflow.Inters {
				var prev Result
				for pes := 64; pes <= 1024; pes *= 2 {
					hw := DefaultHW()
					hw.PEs, hw.GlobalBufferBytes, hw.DRAMLatency = pes, fm.gb, fm.lat
					if fm.scaleNoC {
						hw.DistributionBW, hw.ReductionBW, hw.GlobalBufferBW = pes, pes, 2*pes
					}
					c, err := tl.Config(inter, p.Dims(), pes, 0)
					if err != nil {
						t.Fatal(err)
					}
					r, err := p.Run(c, hw, fm.opts)
					if err != nil {
						t.Fatal(err)
					}
					if pes > 64 && r.Cycles > prev.Cycles {
						slow := float64(r.Cycles-prev.Cycles) / float64(prev.Cycles)
						extra := float64(max(r.DRAM.Bytes-prev.DRAM.Bytes, 0)) / hw.DRAMBytesPerCycle
						bounded := inter == dataflow.PP && r.Effect&FiniteBuffer != 0
						limit := float64(prev.Cycles)
						switch {
						case bounded && extra == 0:
							worstPP = max(worstPP, slow)
							limit *= 1 + ppFillBound
						case bounded:
							worstPPBytes = max(worstPPBytes, slow)
							limit = limit*(1+ppSpillBound) + extra
						}
						if float64(r.Cycles) > limit {
							t.Errorf("V=%d F=%d G=%d %s %s (effects %v, NoC scaled %v, buffer %d, latency %d): %d PEs take %d cycles, %d PEs took %d (DRAM bytes %d -> %d)",
								tc.g.NumNodes(), tc.F, tc.G, c.Name(), fm.opts.Mode, r.Effect, fm.scaleNoC, fm.gb, fm.lat,
								pes, r.Cycles, pes/2, prev.Cycles, prev.DRAM.Bytes, r.DRAM.Bytes)
						}
					}
					prev = r
				}
			}
		}
	}
	t.Logf("largest pp slowdown from doubling the PEs: %.2f%% without added DRAM bytes (bound %.0f%%), %.2f%% with (bound %.0f%% plus their channel time)",
		100*worstPP, 100*ppFillBound, 100*worstPPBytes, 100*ppSpillBound)
}

// ring returns the cycle graph on n nodes: every A+I row has 3 entries.
func ring(t *testing.T, n int) *graphs.Graph {
	u := make([]int32, n)
	v := make([]int32, n)
	for i := range n {
		u[i], v[i] = int32(i), int32((i+1)%n)
	}
	g, err := graphs.FromEdges(n, u, v)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRegularGraphClosedForm(t *testing.T) {
	// A ring with V divisible by every tile of tilings d and f: each row has
	// d = 3 entries, so every row costs the same, and with one result per
	// aggregation pass (T_Fa = 1) and a temporal combination (T_Fc = 1)
	// the output path has a closed form.
	const V, F, G = 3584, 32, 16
	p, err := Prepare(ring(t, V), gcn(F, G))
	if err != nil {
		t.Fatal(err)
	}
	hw := DefaultHW()
	for _, name := range []string{"d", "f"} {
		tl, _ := dataflow.Named(name)
		c, err := tl.Config(dataflow.Seq, p.Dims(), 512, 0)
		if err != nil {
			t.Fatal(err)
		}
		ts := c.Tiles
		if V%ts.Va != 0 || V%ts.Vc != 0 {
			t.Fatalf("tiling %s: tiles %+v do not divide V = %d", name, ts, V)
		}
		// Aggregation: a row sends for W = 1 + iK*(1 + iN) cycles; its last
		// result reaches the buffer pipeDepth + 1 cycles later plus the
		// reduction tree's latency (none for T_N = 1; ceil(log2 18) = 5
		// levels for the 18 leaves of tiling f, which need no forwarding
		// link), and is written at once: it is alone.
		iK := (3 + int64(ts.N) - 1) / int64(ts.N)
		iN := (F + int64(ts.Fa) - 1) / int64(ts.Fa)
		row := 1 + iK*(1+iN) + pipeDepth + 1 + clog2(int64(ts.N))
		agg := int64(V/ts.Va) * row
		// Combination: S loads, G columns of S folds, then the T_Vc results
		// of the last column reach the buffer together and are written in
		// floor(log2 T_Vc) + 1 cycles (S is longer than that, so no column
		// waits for the one before).
		S := (F + int64(ts.Fc) - 1) / int64(ts.Fc)
		per := S*(G+1) + pipeDepth + 1 + int64(bits.Len(uint(ts.Vc))-1)
		comb := int64(V/ts.Vc) * per
		r, err := p.Run(c, hw, Options{Mode: Omega})
		if err != nil {
			t.Fatal(err)
		}
		if r.AggCycles != agg || r.CombCycles != comb || r.Cycles != agg+comb {
			t.Errorf("tiling %s: agg %d comb %d seq %d, closed form %d %d %d", name, r.AggCycles, r.CombCycles, r.Cycles, agg, comb, agg+comb)
		}
		c.Inter = dataflow.SP
		r, err = p.Run(c, hw, Options{Mode: Omega})
		if err != nil {
			t.Fatal(err)
		}
		sp := agg + comb - int64(V/ts.Vc)*S
		if S > 1 {
			sp += int64(V/ts.Vc) * ((G*int64(ts.Vc)*S + 511) / 512)
		}
		if r.Cycles != sp {
			t.Errorf("tiling %s: sp %d, closed form %d", name, r.Cycles, sp)
		}
	}
}

func TestSeqSpillsSPDoesNot(t *testing.T) {
	const V, F, G = 2048, 64, 16
	p, err := Prepare(ring(t, V), gcn(F, G))
	if err != nil {
		t.Fatal(err)
	}
	hw := DefaultHW()
	hw.GlobalBufferBytes = 256 << 10 // V*F*4 = 512 KiB does not fit
	tl, _ := dataflow.Named("c")
	compulsory := func(inter dataflow.Inter) int64 {
		// CSR + H in, output out.
		nnz := int64(3 * V)
		return (V+0)*4 + nnz*8 + V*F*4 + F*G*4 + V*G*4
	}
	run := func(inter dataflow.Inter, gb int64) Result {
		h := hw
		h.GlobalBufferBytes = gb
		c, err := tl.Config(inter, p.Dims(), 512, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Run(c, h, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	seq, sp := run(dataflow.Seq, hw.GlobalBufferBytes), run(dataflow.SP, hw.GlobalBufferBytes)
	if seq.SpillBytes == 0 {
		t.Errorf("seq with V*F*4 = %d bytes > %d-byte buffer does not spill", V*F*4, hw.GlobalBufferBytes)
	}
	if sp.SpillBytes != 0 {
		t.Errorf("sp spills %d bytes", sp.SpillBytes)
	}
	for _, r := range []Result{seq, sp} {
		if got := r.DRAM.Bytes - r.SpillBytes - r.RefetchBytes; got != compulsory(r.Config.Inter) {
			t.Errorf("%s: %d DRAM bytes besides spill and re-fetch, want the compulsory %d", r.Config.Name(), got, compulsory(r.Config.Inter))
		}
	}
	// With a buffer that holds everything, seq moves only compulsory bytes.
	big := run(dataflow.Seq, 64<<20)
	if big.DRAM.Bytes != compulsory(dataflow.Seq) || big.SpillBytes != 0 || big.RefetchBytes != 0 {
		t.Errorf("seq with a big buffer moves %d DRAM bytes (spill %d), want %d", big.DRAM.Bytes, big.SpillBytes, compulsory(dataflow.Seq))
	}
	if seq.Cycles <= big.Cycles {
		t.Errorf("spilling seq (%d cycles) is not slower than seq without spill (%d)", seq.Cycles, big.Cycles)
	}
}

func TestPPStallsWhenUnbalanced(t *testing.T) {
	hw := DefaultHW()
	opts := Options{Disable: FiniteBuffer}
	run := func(g *graphs.Graph, F, G int) Result {
		p, err := Prepare(g, gcn(F, G))
		if err != nil {
			t.Fatal(err)
		}
		tl, _ := dataflow.Named("a")
		c, err := tl.Config(dataflow.PP, p.Dims(), 512, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Run(c, hw, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// A ring with G = 16: both phases take about 2G-3G cycles per tile.
	bal := run(ring(t, 4096), 64, 16)
	// Dense rows make aggregation far slower than combination.
	dense := rmat(t, 512, 40000, 9)
	unb := run(dense, 64, 16)
	if unb.Stalls.Pipeline == 0 {
		t.Fatalf("unbalanced pp has no pipeline stalls: %+v", unb)
	}
	fb := float64(bal.Stalls.Pipeline) / float64(bal.Cycles)
	fu := float64(unb.Stalls.Pipeline) / float64(unb.Cycles)
	if fu <= fb {
		t.Errorf("stall share: unbalanced %.3f, balanced %.3f", fu, fb)
	}
	// Shared ports with a narrow global buffer add port stalls.
	h := hw
	h.GlobalBufferBW = 16
	p, _ := Prepare(dense, gcn(64, 16))
	tl, _ := dataflow.Named("a")
	c, _ := tl.Config(dataflow.PP, p.Dims(), 512, 0)
	r, err := p.Run(c, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stalls.Ports == 0 || r.Cycles <= unb.Cycles {
		t.Errorf("narrow ports: %d port stalls, %d cycles (wide: %d)", r.Stalls.Ports, r.Cycles, unb.Cycles)
	}
}

func TestHighTNUnderusesPEs(t *testing.T) {
	p, err := Prepare(ring(t, 1024), gcn(32, 16))
	if err != nil {
		t.Fatal(err)
	}
	hw := DefaultHW()
	util := func(spec string) float64 {
		tl, err := dataflow.ParseTiling(spec)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tl.Config(dataflow.Seq, p.Dims(), 512, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Run(c, hw, Options{Disable: FiniteBuffer})
		if err != nil {
			t.Fatal(err)
		}
		return r.Utilization
	}
	low := util("T_Va=*,T_N=32,T_Fa=16,T_Vc=*,T_Gc=1,T_Fc=32")
	high := util("T_Va=*,T_N=1,T_Fa=16,T_Vc=*,T_Gc=1,T_Fc=32")
	if low >= high {
		t.Errorf("T_N = 32 on degree-3 rows: utilisation %.3f, T_N = 1: %.3f", low, high)
	}
}

func TestNoCLimitsSlowDown(t *testing.T) {
	p, err := Prepare(rmat(t, 300, 2000, 5), gcn(64, 32))
	if err != nil {
		t.Fatal(err)
	}
	hw := DefaultHW()
	narrow := hw
	narrow.DistributionBW, narrow.ReductionBW = 32, 32
	cs, _ := p.Configs(hw)
	for _, c := range cs {
		a, _ := p.Run(c, hw, Options{})
		b, err := p.Run(c, narrow, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if b.Cycles < a.Cycles {
			t.Errorf("%s: narrower networks faster (%d < %d)", c.Name(), b.Cycles, a.Cycles)
		}
		d, _ := p.Run(c, narrow, Options{Disable: NoCLimits})
		if d.Cycles != a.Cycles {
			t.Errorf("%s: with NoCLimits off the bandwidth still matters (%d vs %d)", c.Name(), d.Cycles, a.Cycles)
		}
	}
}

func TestEnergySwitch(t *testing.T) {
	p, err := Prepare(rmat(t, 100, 400, 1), gcn(16, 16))
	if err != nil {
		t.Fatal(err)
	}
	hw := DefaultHW()
	cs, _ := p.Configs(hw)
	on, _ := p.Run(cs[0], hw, Options{})
	off, _ := p.Run(cs[0], hw, Options{Disable: Energy})
	if off.Energy != (EnergyBreakdown{}) {
		t.Errorf("energy off: %+v", off.Energy)
	}
	e := on.Energy
	if e.MAC != float64(on.MACs)*hw.Energy.MAC || e.GB != float64(on.GB.Accesses())*hw.Energy.GB {
		t.Errorf("energy %+v does not follow the counts", e)
	}
	if math.Abs(e.Total()-(e.MAC+e.RF+e.NoC+e.GB+e.DRAM)) > 1e-9 {
		t.Error("Total is not the sum")
	}
	on.Energy, off.Energy = EnergyBreakdown{}, EnergyBreakdown{}
	on.Effect, off.Effect = 0, 0
	if !same(on, off) {
		t.Error("energy changed something besides energy")
	}
}

func TestLayerKinds(t *testing.T) {
	g := rmat(t, 200, 800, 11)
	V := int64(g.NumNodes())
	A := int64(g.NNZ()) // g has no self-loops
	F, G := int64(32), int64(16)
	tests := []struct {
		kind workload.LayerKind
		macs int64
	}{
		{workload.GCN, (A+V)*F + V*F*G},
		{workload.GIN, (A+V)*F + V*F*G + V*G*G},
		{workload.SAGE, A*F + V*2*F*G},
		{workload.GAT, (A+V)*G + (A + V) + V*F*(G+2)},
	}
	hw := DefaultHW()
	for _, tc := range tests {
		p, err := Prepare(g, workload.Layer{Kind: tc.kind, F: int(F), G: int(G)})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range allResults(t, p, hw, Options{}) {
			if r.MACs != tc.macs {
				t.Errorf("%v %s: MACs %d, want %d", tc.kind, r.Config.Name(), r.MACs, tc.macs)
			}
			if r.Cycles <= 0 {
				t.Errorf("%v %s: %d cycles", tc.kind, r.Config.Name(), r.Cycles)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	g := ring(t, 10)
	if _, err := Prepare(nil, gcn(1, 1)); err == nil {
		t.Error("nil graph accepted")
	}
	if _, err := Prepare(&graphs.Graph{}, gcn(1, 1)); err == nil {
		t.Error("empty graph accepted")
	}
	if _, err := Prepare(g, gcn(0, 4)); err == nil {
		t.Error("F = 0 accepted")
	}
	if _, err := Prepare(g, workload.Layer{Kind: 99, F: 1, G: 1}); err == nil {
		t.Error("unknown layer kind accepted")
	}
	p, _ := Prepare(g, gcn(8, 8))
	hw := DefaultHW()
	c, _ := dataflow.Tiling{}.Config(dataflow.Seq, p.Dims(), 512, 0)
	if _, err := p.Run(c, hw, Options{}); err == nil {
		t.Error("zero config accepted")
	}
	tl, _ := dataflow.Named("a")
	c, _ = tl.Config(dataflow.Seq, p.Dims(), 256, 0)
	if _, err := p.Run(c, hw, Options{}); err == nil || !strings.Contains(err.Error(), "256 PEs") {
		t.Errorf("config for another PE count: %v", err)
	}
	c, _ = tl.Config(dataflow.Seq, p.Dims(), 512, 0)
	c.AggOrder = dataflow.Order{'N', 'V', 'F'}
	if _, err := p.Run(c, hw, Options{}); err == nil || !strings.Contains(err.Error(), "not modelled") {
		t.Errorf("other loop order: %v", err)
	}
	bad := hw
	bad.DRAMBytesPerCycle = math.NaN()
	if _, err := p.Run(cs0(t, p, hw), bad, Options{}); err == nil {
		t.Error("NaN bandwidth accepted")
	}
}

func cs0(t *testing.T, p *Prepared, hw HW) dataflow.Config {
	cs, err := p.Configs(hw)
	if err != nil {
		t.Fatal(err)
	}
	return cs[0]
}

func TestParseHW(t *testing.T) {
	h, err := ParseHW([]byte("pes: 1024\nglobal_buffer_bytes: 2097152\nenergy_pj:\n  dram: 100\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultHW()
	if h.PEs != 1024 || h.GlobalBufferBytes != 2<<20 || h.Energy.DRAM != 100 || h.Energy.MAC != d.Energy.MAC || h.WordBytes != d.WordBytes {
		t.Errorf("parsed %+v", h)
	}
	if h, err := ParseHW(nil); err != nil || h != d {
		t.Errorf("empty spec: %+v, %v", h, err)
	}
	for _, b := range []struct{ in, want string }{
		{"pes: 512\nglobal_bufer_bytes: 4\n", "not found"},
		{"pes: -4\n", "pes"},
		{"pes: 1\n", "pes"},
		{"word_bytes: 0\n", "word_bytes"},
		{"dram_bytes_per_cycle: .nan\n", "dram_bytes_per_cycle"},
		{"dram_bytes_per_cycle: .inf\n", "dram_bytes_per_cycle"},
		{"dram_burst_bytes: 0\n", "dram_burst_bytes"},
		{"dram_burst_bytes: 99999999999\n", "dram_burst_bytes"},
		{"energy_pj:\n  mac: -1\n", "energy_pj.mac"},
		{"pp_agg_pes: 512\n", "pp_agg_pes"},
		{"distribution_bw: 0\n", "bandwidths"},
		{"register_file_bytes: 2\n", "register_file_bytes"},
		{"pes: [1]\n", "cannot unmarshal"},
	} {
		if _, err := ParseHW([]byte(b.in)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseHW(%q) = %v, want error containing %q", b.in, err, b.want)
		}
	}
}

func TestParseOptions(t *testing.T) {
	if m, err := ParseMode("OMEGA"); err != nil || m != Omega {
		t.Errorf("ParseMode: %v %v", m, err)
	}
	if _, err := ParseMode("fast"); err == nil {
		t.Error("bad mode accepted")
	}
	e, err := ParseEffects("buffer, noc,fix-pp-stamps")
	if err != nil || e != FiniteBuffer|NoCLimits|FixPPStamps {
		t.Errorf("ParseEffects: %v %v", e, err)
	}
	if e2, _ := ParseEffects(e.String()); e2 != e {
		t.Errorf("round trip %v -> %v", e, e2)
	}
	if e, _ := ParseEffects("all"); e != AllEffects {
		t.Errorf("all = %v", e)
	}
	if _, err := ParseEffects("cache"); err == nil {
		t.Error("unknown effect accepted")
	}
}
