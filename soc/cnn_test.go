package soc

import (
	"math"
	"testing"

	"gnnsim/workload"
)

func zooModel(t testing.TB, name string) workload.Model {
	t.Helper()
	m, err := workload.LookupModel(name, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFusedNeverSlower: every block of GoogleNet and ViG-S run as TensorRT
// runs it (fusion, shared inputs, concat in place, the DLA's buffer) is
// never slower nor costlier than its kernels run one by one.
func TestFusedNeverSlower(t *testing.T) {
	s := Default()
	for _, m := range []workload.Model{zooModel(t, "googlenet"), zooModel(t, "resnet50"), vigS(t, workload.MRConv)} {
		segs, err := Segments(m, Blocks)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"gpu", "dla"} {
			u, _ := s.Unit(name)
			r := u.(*Roofline)
			for _, sg := range segs {
				plan, err := r.PlanDAG(sg.Kernels, sg.Producers, nil)
				if err != nil {
					t.Fatal(err)
				}
				var fused, apart float64
				var fusedPJ, apartPJ float64
				for i, k := range sg.Kernels {
					fused += float64(plan[i].Cost.TimePS)
					fusedPJ += plan[i].Cost.EnergyPJ
					eng := r
					if !r.runs(k) {
						eng = r.fallback
					}
					c, err := eng.KernelCost(k)
					if err != nil {
						t.Fatal(err)
					}
					apart += float64(c.TimePS)
					apartPJ += c.EnergyPJ
				}
				// Kernels apart pay no crossings; leave those out of the
				// fused side's comparison only where none happened.
				crossings := false
				for i := 1; i < len(plan); i++ {
					crossings = crossings || (plan[i].FusedInto < 0 && plan[i].Unit != plan[i-1].Unit)
				}
				if !crossings && (fused > apart || fusedPJ > apartPJ*(1+1e-9)) {
					t.Errorf("%s %s on %s: fused %.0f ps %.4g pJ, apart %.0f ps %.4g pJ", m.Name, sg.Name, name, fused, fusedPJ, apart, apartPJ)
				}
			}
		}
	}
}

// TestTilingQuantisation: a dense product never gets faster with more
// output columns or rows, and its efficiency depends on its shape.
func TestTilingQuantisation(t *testing.T) {
	u, _ := Default().Unit("gpu")
	r := u.(*Roofline)
	gemm := func(m, k, n int64) workload.Kernel {
		return workload.Kernel{Class: workload.GEMM, M: m, K: k, N: n, MACs: m * k * n, InElems: m * k, WeightElems: k * n, OutElems: m * n}
	}
	prev := 0.0
	for n := int64(1); n <= 600; n++ {
		c := r.computePS(gemm(784, 512, n))
		if c < prev {
			t.Fatalf("N = %d: %.0f ps, less than N = %d (%.0f ps)", n, c, n-1, prev)
		}
		prev = c
	}
	eff := func(m, k, n int64) float64 { return float64(m*k*n) / r.computePS(gemm(m, k, n)) / r.peak }
	if a, b := eff(3136, 576, 192), eff(49, 576, 192); !(a > 1.5*b) {
		t.Errorf("efficiency of a 3136-row product %.3f, of a 49-row one %.3f: want the small one well below", a, b)
	}
	if a, b := eff(1024, 512, 512), eff(1024, 512, 513); !(a > b) {
		t.Errorf("a 513-column product (%.3f) is as efficient as a 512-column one (%.3f): no tile quantisation", b, a)
	}
	for _, k := range []workload.Kernel{gemm(3136, 576, 192), gemm(1, 1024, 1000)} {
		if e := eff(k.M, k.K, k.N); !(e > 0 && e <= 1) {
			t.Errorf("%d x %d x %d: efficiency %v of the peak", k.M, k.K, k.N, e)
		}
	}
}

// TestLayersSumToTotal: the per-layer rows of a single-unit mapping add up
// to the frame's latency and its energy less the CPU and memory power
// over the frame; fused layers cost nothing and name their absorber.
func TestLayersSumToTotal(t *testing.T) {
	s := Default()
	for _, name := range []string{"googlenet", "resnet50", "mobilenetv2"} {
		m := zooModel(t, name)
		e := mustEvaluator(t, s, m, Blocks)
		for _, unit := range []string{"gpu", "dla"} {
			mp := MapAll(Blocks, unitIndex(t, s, unit), len(e.Segments()))
			set, _ := s.Setting(nil)
			var r Result
			if err := e.EvaluateAt(&r, mp, set); err != nil {
				t.Fatal(err)
			}
			rows, err := e.Layers(mp, set)
			if err != nil {
				t.Fatal(err)
			}
			nodes, err := m.Graph()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(nodes) {
				t.Fatalf("%s: %d rows for %d layers", name, len(rows), len(nodes))
			}
			var ps int64
			var pj float64
			for i, row := range rows {
				if row.Name != nodes[i].Name {
					t.Errorf("%s row %d: %q, layer %q", name, i, row.Name, nodes[i].Name)
				}
				if row.FusedInto != "" && (row.TimePS != 0 || row.EnergyPJ != 0) {
					t.Errorf("%s: %s fused into %s costs %d ps", name, row.Name, row.FusedInto, row.TimePS)
				}
				ps += row.TimePS
				pj += row.EnergyPJ
			}
			entry := r.LatencyPS - r.TransferPS - ps // the DLA's first submission
			if entry < 0 || entry > int64(1e8) {
				t.Errorf("%s on %s: rows sum to %d ps, frame %d ps (%d ps of transfers)", name, unit, ps, r.LatencyPS, r.TransferPS)
			}
			if want := r.EnergyPJ - r.PlatformPJ; math.Abs(pj-want) > 0.01*want {
				t.Errorf("%s on %s: rows sum to %.4g pJ, frame less platform %.4g pJ", name, unit, pj, want)
			}
		}
	}
}

// TestWinogradShapes: the DLA's Winograd mode speeds up exactly the
// convolutions with a 3x3 window at stride 1 (padded to keep their size),
// and never makes a kernel slower.
func TestWinogradShapes(t *testing.T) {
	dla, _ := Default().Unit("dla")
	noWino := DefaultSpec()
	noWino.Units = append([]UnitSpec(nil), noWino.Units...)
	for i := range noWino.Units {
		if noWino.Units[i].Tiling != nil {
			tl := *noWino.Units[i].Tiling
			tl.Winograd = 0
			noWino.Units[i].Tiling = &tl
		}
	}
	s0, err := New(noWino)
	if err != nil {
		t.Fatal(err)
	}
	dla0, _ := s0.Unit("dla")
	in := workload.Grid(28, 28)
	for _, c := range []struct {
		window, stride, pad int
		want                bool
	}{{3, 1, 1, true}, {1, 1, 0, false}, {3, 2, 1, false}, {5, 1, 2, false}, {7, 2, 3, false}} {
		l := workload.Layer{Kind: workload.Conv, Name: "c", F: 64, G: 128, Window: c.window, Stride: c.stride, Pad: c.pad}
		ks, err := l.Kernels(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := winograd(ks[0]); got != c.want {
			t.Errorf("%dx%d stride %d pad %d: winograd %v, want %v", c.window, c.window, c.stride, c.pad, got, c.want)
		}
		with, err := dla.(*Roofline).KernelCost(ks[0])
		if err != nil {
			t.Fatal(err)
		}
		without, err := dla0.(*Roofline).KernelCost(ks[0])
		if err != nil {
			t.Fatal(err)
		}
		if with.TimePS > without.TimePS || (c.want && with.TimePS >= without.TimePS) || (!c.want && with.TimePS != without.TimePS) {
			t.Errorf("%dx%d stride %d: %d ps with Winograd, %d without", c.window, c.window, c.stride, with.TimePS, without.TimePS)
		}
	}
}

// TestPlanOutsideProducers: a negative producer is a tensor written before
// the plan, through memory: two 1x1 products reading the same one join,
// reading different ones do not; an epilogue of one does not fuse; a
// concat of one is copied, not elided.
func TestPlanOutsideProducers(t *testing.T) {
	u, _ := Default().Unit("gpu")
	r := u.(*Roofline)
	conv := func(n int64) workload.Kernel {
		return workload.Kernel{Name: "conv", Class: workload.GEMM, M: 196, K: 64, N: n, MACs: 196 * 64 * n, InElems: 196 * 64, WeightElems: 64 * n, OutElems: 196 * n}
	}
	act := workload.Kernel{Name: "act", Class: workload.ElementWise, Ops: 196 * 64, InElems: 196 * 64, OutElems: 196 * 64}
	concat := workload.Kernel{Name: "concat", Class: workload.ElementWise, Ops: 196 * 128, InElems: 196 * 128, OutElems: 196 * 128}
	for _, tc := range []struct {
		name  string
		ks    []workload.Kernel
		prod  [][]int
		fused []int // FusedInto per kernel
	}{
		{"1x1s of one outside tensor", []workload.Kernel{conv(32), conv(48)}, [][]int{{-1}, {-1}}, []int{-1, 0}},
		{"1x1s of two outside tensors", []workload.Kernel{conv(32), conv(48)}, [][]int{{-1}, {-2}}, []int{-1, -1}},
		{"1x1s of the input", []workload.Kernel{conv(32), conv(48)}, [][]int{{}, {}}, []int{-1, 0}},
		{"epilogue of an outside product", []workload.Kernel{act}, [][]int{{-1}}, []int{-1}},
		{"epilogue inside", []workload.Kernel{conv(64), act}, [][]int{{-1}, {0}}, []int{-1, 0}},
		{"concat with an outside part", []workload.Kernel{conv(64), concat}, [][]int{{}, {-1, 0}}, []int{-1, -1}},
		{"concat in place", []workload.Kernel{conv(64), conv(64), concat}, [][]int{{-1}, {-2}, {0, 1}}, []int{-1, -1, 0}},
	} {
		plan, err := r.PlanDAG(tc.ks, tc.prod, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, p := range plan {
			want := tc.fused[i]
			if want >= 0 && p.FusedInto < 0 || want < 0 && p.FusedInto >= 0 {
				t.Errorf("%s: kernel %d fused into %d, want %d", tc.name, i, p.FusedInto, want)
			}
		}
	}
	if _, err := r.PlanDAG([]workload.Kernel{conv(8)}, [][]int{{0}}, nil); err == nil {
		t.Error("a kernel reading itself was accepted")
	}
}
