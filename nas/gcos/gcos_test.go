package gcos

import (
	"slices"

	"context"
	"math"
	"math/rand/v2"
	"testing"

	accel "gnnsim/accel/gcos"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/search"
	"gnnsim/workload"
)

// standIn is a deterministic stand-in for the trainer: a smooth function of
// the architecture with the trends of the GraphNAS literature (attention
// and width help, heavy sampling and no activation hurt).
func standIn(a Arch) (float64, error) {
	// By position in Table II (Attentions, Aggregations).
	att := [...]float64{0.70, 0.78, 0.80, 0.80, 0.79, 0.77, 0.79}
	agg := [...]float64{0, 0.01, -0.01, 0}
	acc := 0.0
	for i, l := range a.Layers {
		x := att[slices.Index(Attentions, l.Attention)] + agg[slices.Index(Aggregations, l.Aggregation)]
		switch l.Sampling {
		case 0.1:
			x -= 0.06
		case 0.5:
			x -= 0.01
		}
		if l.Attention.Scored() {
			x += 0.005 * math.Log2(float64(l.Heads))
		}
		if i == 0 {
			x -= 0.08 / math.Log2(float64(2*l.Hidden))
			if l.Activation == workload.ActSkip || l.Activation == workload.ActLinear {
				x -= 0.03
			}
		}
		acc += x / 2
	}
	return min(acc, 1), nil
}

func coraLike(t testing.TB) Dataset {
	g, err := graphs.BarabasiAlbert(2708, 2, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return Dataset{Name: "cora-like", Graph: g, Features: 1433, Classes: 7}
}

func TestDecode(t *testing.T) {
	sp, err := NewSpace(7)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	enc := sp.Encoding()
	for range 500 {
		g := enc.Sample(r)
		d, err := sp.Decode(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Arch.Validate(); err != nil {
			t.Fatalf("%v: %v", g, err)
		}
		u, err := accel.New(d.HW)
		if err != nil {
			t.Fatalf("%v: %v", g, err)
		}
		if ok, why := hw.Feasible(u); !ok {
			t.Errorf("decoded design over budget (%s): %+v", why, u.Usage())
		}
		if d.Arch.Layers[1].Hidden != 7 {
			t.Errorf("last layer width %d, want the 7 classes", d.Arch.Layers[1].Hidden)
		}
		for i, l := range d.Arch.Layers {
			if !l.Attention.Scored() && l.Heads != 1 {
				t.Errorf("layer %d: %s attention with %d heads", i, l.Attention, l.Heads)
			}
		}
	}
	if _, err := sp.Decode([]int{1, 2}); err == nil {
		t.Error("short genome decoded")
	}
	small, err := NewSmallSpace(7, 32, 2)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		d, err := small.Decode(small.Encoding().Sample(r))
		if err != nil {
			t.Fatal(err)
		}
		if l := d.Arch.Layers[0]; l.Hidden > 32 || l.Heads > 2 {
			t.Errorf("small space gave hidden %d, heads %d", l.Hidden, l.Heads)
		}
	}
	if _, err := NewSmallSpace(7, 2, 1); err == nil {
		t.Error("a space without widths accepted")
	}
}

func TestWorkloadMapping(t *testing.T) {
	p, err := NewProblem(coraLike(t), standIn)
	if err != nil {
		t.Fatal(err)
	}
	u, err := accel.New(accel.AWBGCN())
	if err != nil {
		t.Fatal(err)
	}
	hc := Handcrafted(7)
	gcn, _ := p.Latency(hc["GCN"], u)
	gat, _ := p.Latency(hc["GAT"], u)
	sage, _ := p.Latency(hc["GraphSAGE"], u)
	// GCN: 2 x (SpMM over A+I, GEMM): MACs by hand.
	n, e := int64(2708), int64(p.Data.Graph.NNZ())
	want := (e+n)*1433 + n*1433*16 + (e+n)*16 + n*16*7
	if gcn.MACs != want {
		t.Errorf("GCN MACs %d, want %d", gcn.MACs, want)
	}
	if !(gat.MACs > gcn.MACs && sage.MACs < gcn.MACs) {
		t.Errorf("MACs: GAT %d, GCN %d, SAGE (sampled) %d", gat.MACs, gcn.MACs, sage.MACs)
	}
	bad := hc["GCN"]
	bad.Layers[0].Sampling = 0
	if _, err := p.Latency(bad, u); err == nil {
		t.Error("sampling rate 0 accepted")
	}
}

// TestFeatureDensity: a sparse input makes the first layer's X x W cost
// nnz(X) x G MACs (and combine first), hidden layers stay dense, every
// GNN gets faster, and densities outside (0, 1] are errors.
func TestFeatureDensity(t *testing.T) {
	ds := coraLike(t)
	dense, err := NewProblem(ds, standIn)
	if err != nil {
		t.Fatal(err)
	}
	ds.FeatureDensity = 49216.0 / (2708 * 1433) // Cora's (MISSION section 12)
	p, err := NewProblem(ds, standIn)
	if err != nil {
		t.Fatal(err)
	}
	u, err := accel.New(accel.AWBGCN())
	if err != nil {
		t.Fatal(err)
	}
	hc := Handcrafted(7)
	gcn, err := p.Latency(hc["GCN"], u)
	if err != nil {
		t.Fatal(err)
	}
	n, e := int64(2708), int64(ds.Graph.NNZ())
	if want := 49216*16 + (e+n)*16 + (e+n)*16 + n*16*7; gcn.MACs != want {
		t.Errorf("GCN MACs %d, want %d", gcn.MACs, want)
	}
	for _, name := range HandcraftedNames {
		s, err := p.Latency(hc[name], u)
		if err != nil {
			t.Fatal(err)
		}
		d, err := dense.Latency(hc[name], u)
		if err != nil {
			t.Fatal(err)
		}
		if s.TimePS >= d.TimePS || s.MACs >= d.MACs {
			t.Errorf("%s: sparse input %d ps, %d MACs; dense %d ps, %d MACs", name, s.TimePS, s.MACs, d.TimePS, d.MACs)
		}
	}
	for _, x := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		ds.FeatureDensity = x
		if _, err := NewProblem(ds, standIn); err == nil {
			t.Errorf("feature density %v accepted", x)
		}
	}
}

func TestInfeasible(t *testing.T) {
	p, err := NewProblem(coraLike(t), standIn)
	if err != nil {
		t.Fatal(err)
	}
	d := Design{Arch: Handcrafted(7)["GCN"], HW: accel.Config{Subs: []accel.Sub{{PEs: 5000, TileM: 8, TileK: 8, TileN: 8}}}}
	c, err := p.Evaluate(d)
	if err != nil {
		t.Fatal(err)
	}
	if c.Feasible || c.Why != "DSP" {
		t.Errorf("5,000 DSPs: feasible %v (%s)", c.Feasible, c.Why)
	}
}

// The pool search beats random search at an equal budget (best fitness,
// five seeds).
func TestPoolBeatsRandom(t *testing.T) {
	p, err := NewProblem(coraLike(t), standIn)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSpace(7)
	if err != nil {
		t.Fatal(err)
	}
	budget := 600
	if testing.Short() {
		budget = 300
	}
	wins := 0
	var sumPool, sumRand float64
	for seed := range uint64(5) {
		o := Options{PoolSize: 50, Evaluations: budget, Seed: seed + 1, Workers: 2}
		pr, err := p.Search(context.Background(), sp, o)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := p.Random(context.Background(), sp, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(pr.Evaluated) != budget || len(rr.Evaluated) != budget {
			t.Fatalf("evaluations: pool %d, random %d, want %d", len(pr.Evaluated), len(rr.Evaluated), budget)
		}
		bp, br := pr.Top[0].Fitness, rr.Top[0].Fitness
		t.Logf("seed %d: pool %.4f (%s, %.1f us), random %.4f", seed+1, bp, pr.Top[0].Design.Arch, float64(pr.Top[0].LatencyPS)/1e6, br)
		if bp > br {
			wins++
		}
		sumPool += bp
		sumRand += br
	}
	if wins < 4 || sumPool <= sumRand {
		t.Errorf("pool search won %d of 5 seeds (mean %.4f vs %.4f)", wins, sumPool/5, sumRand/5)
	}
}

func TestHardwareSpace(t *testing.T) {
	p, err := NewProblem(coraLike(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := Handcrafted(7)["GCN"]
	sp, err := NewHardwareSpace(a)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Search(context.Background(), sp, Options{Evaluations: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Top[0].Design.Arch != a {
		t.Errorf("hardware search changed the GNN: %s", res.Top[0].Design.Arch)
	}
	for i := 1; i < len(res.Top); i++ {
		if res.Top[i].Fitness > res.Top[i-1].Fitness {
			t.Errorf("top designs out of order: %v", res.Top)
		}
	}
	_ = search.Inactive
}

// TestRowProfileDataset: a data set known by its size and degree profile
// costs what the same graph costs; a profile that does not match the size
// is refused.
func TestRowProfileDataset(t *testing.T) {
	ds := coraLike(t)
	prof := Dataset{Name: "profile", Size: hw.SizeOf(ds.Graph), Rows: ds.Graph.RowPtr, Features: ds.Features, Classes: ds.Classes}
	avg := prof
	avg.Rows = nil
	a := Handcrafted(ds.Classes)["GCN"]
	// Static groups of rows that wait for their longest: skew costs time.
	u, err := accel.New(accel.Config{Subs: []accel.Sub{{PEs: 1024, Kernel: accel.InnerProduct, TileM: 64, TileK: 64, TileN: 16}}})
	if err != nil {
		t.Fatal(err)
	}
	var got [3]int64
	for i, d := range []Dataset{ds, prof, avg} {
		p, err := NewProblem(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.Latency(a, u)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = c.TimePS
	}
	if got[0] != got[1] || got[2] >= got[0] {
		t.Errorf("graph %d ps, its profile %d ps, average rows %d ps (skew should cost static row groups)", got[0], got[1], got[2])
	}
	bad := prof
	bad.Rows = ds.Graph.RowPtr[:10]
	if _, err := NewProblem(bad, nil); err == nil {
		t.Error("mismatched row profile accepted")
	}
}
