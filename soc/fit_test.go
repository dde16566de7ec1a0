package soc

import (
	"flag"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

var (
	fitFlag      = flag.Bool("soc.fit", false, "run TestFitXavier: refit the fitted constants of xavier.yaml to MaGNAS Tables 2 and 3 and print them")
	fitJointFlag = flag.Bool("soc.fit.joint", false, "with -soc.fit: fit the latency and power constants together to Tables 2 and 3's latencies and energies (the energies then also inform the split of a frame between the host and the GPU)")
	fitGlueFlag  = flag.Bool("soc.fit.glue", false, "with -soc.fit: fit the alternative without a top-k efficiency of its own (top-k tied to the irregular classes) and with the CPU's glue dispatch (cpu.glue_cycles) free; see soc/doc.go")
)

// fitParam is one fitted constant: its bounds and how to set it in a spec.
type fitParam struct {
	name   string
	lo, hi float64
	set    func(s *Spec, v float64)
}

func unitByName(s *Spec, name string) *UnitSpec {
	i := slices.IndexFunc(s.Units, func(u UnitSpec) bool { return u.Name == name })
	return &s.Units[i]
}

// irregular are the kernel classes of ViG's graph ops on the GPU, whose
// efficiency no CNN measurement resolves: fitted as one value.
var irregular = []string{"gather", "max", "spmm", "edgewise"}

// setFP32 returns a setter of one field of a unit's FP32 precision.
func setFP32(unit string, f func(p *PrecisionSpec, v float64)) func(s *Spec, v float64) {
	return func(s *Spec, v float64) {
		u := unitByName(s, unit)
		ps := maps.Clone(u.Precisions)
		p := ps["fp32"]
		f(&p, v)
		ps["fp32"] = p
		u.Precisions = ps
	}
}

// latencyParams are fitted to Table 2's eight latencies and Table 3's two
// a3 latencies. The GPU's dense
// products, launches, fusion and bandwidth come from documented sources
// (xavier.yaml) and are not fitted.
var latencyParams = []fitParam{
	{"gpu.precisions.fp32.tile_eff", 0.2, 1, setFP32("gpu", func(p *PrecisionSpec, v float64) { p.TileEff = v })},
	{"gpu.efficiency.{gather,max,spmm,edgewise}", 1e-5, 0.25, func(s *Spec, v float64) {
		u := unitByName(s, "gpu")
		u.Efficiency = cloneEff(u.Efficiency)
		for _, c := range irregular {
			u.Efficiency[c] = v
		}
	}},
	{"gpu.efficiency.topk", 1e-5, 0.25, func(s *Spec, v float64) {
		u := unitByName(s, "gpu")
		u.Efficiency = cloneEff(u.Efficiency)
		u.Efficiency["topk"] = v
	}},
	{"dla.tiling eff", 0.1, 1, func(s *Spec, v float64) {
		u := unitByName(s, "dla")
		t := *u.Tiling
		t.Tiles = slices.Clone(t.Tiles)
		t.Tiles[0].Eff = v
		u.Tiling = &t
	}},
	{"hand-off and fallback sides (us, all)", 5, 45, func(s *Spec, v float64) {
		g, d := unitByName(s, "gpu"), unitByName(s, "dla")
		g.HandoffInUS, g.HandoffOutUS = v, v
		d.HandoffInUS, d.HandoffOutUS, d.FallbackInUS, d.FallbackOutUS = v, v, v, v
	}},
	{"dla.submit_us", 0, 50, func(s *Spec, v float64) { unitByName(s, "dla").SubmitUS = v }},
	{"cpu.magnas_frame_cycles", 0, 40e6, func(s *Spec, v float64) { s.CPU.FrameCycles, s.CPU.MaGNASFrameCycles = v, v }},
}

// glueParams are the alternative to latencyParams studied for issue 24
// (-soc.fit.glue): the top-k priced as what it is, a selection of k among
// N candidates per node (one comparison per candidate,
// workload.Layer.Kernels) at the irregular kernels' efficiency, and the
// graph ops' glue ops dispatched by the CPU (cpu.glue_cycles, from a
// TensorRT kernel enqueue, ~3.5 us at 2265.6 MHz, to a framework's per-op
// dispatch on the Carmel cores, ~110 us), so that Table 2's common
// overhead would run at the CPU clock instead of the GPU's.
var glueParams = []fitParam{
	latencyParams[0],
	{"gpu.efficiency.{gather,max,spmm,edgewise,topk}", 1e-5, 0.25, func(s *Spec, v float64) {
		u := unitByName(s, "gpu")
		u.Efficiency = cloneEff(u.Efficiency)
		for _, c := range append(slices.Clone(irregular), "topk") {
			u.Efficiency[c] = v
		}
	}},
	{"cpu.glue_cycles", 8000, 250000, func(s *Spec, v float64) { s.CPU.GlueCycles = v }},
	latencyParams[3], latencyParams[4], latencyParams[5], latencyParams[6],
}

// powerParams are fitted to Table 2's eight energies with the latency
// constants fixed. The DLA's total power is split with the GPU's idle
// share: Table 2 cannot tell the DLA's idle from its dynamic power, as its
// kernels run all the time it holds work.
var powerParams = []fitParam{
	{"gpu.idle_w", 0, 30, func(s *Spec, v float64) { unitByName(s, "gpu").IdleW = v }},
	{"gpu.dynamic_w", 0, 60, func(s *Spec, v float64) { unitByName(s, "gpu").DynamicW = v }},
	{"dla.idle_w + dla.dynamic_w", 0.5, 30, func(s *Spec, v float64) {
		g, d := unitByName(s, "gpu"), unitByName(s, "dla")
		f := g.IdleW / (g.IdleW + g.DynamicW)
		d.IdleW, d.DynamicW = f*v, (1-f)*v
	}},
}

func cloneEff(m map[string]float64) map[string]float64 {
	c := make(map[string]float64, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func sq(x float64) float64 { return x * x }

// fitLossOf is the sum of squared log-ratios of ours to Table 2 and to
// Table 3's a3 (the only published figures of a model with fewer blocks,
// which separate a per-frame cost from a per-block one) over the latencies
// (lat), the energies (energy) or both.
func fitLossOf(s Spec, lat, energy bool) float64 {
	soc, err := New(s)
	if err != nil {
		return math.Inf(1)
	}
	ours, err := calibrate(soc)
	if err != nil {
		return math.Inf(1)
	}
	var l float64
	for i, p := range ours {
		pub := table3A3
		if i < len(table2) {
			r := table2[i]
			pub.gpuMS, pub.dlaMS, pub.gpuMJ, pub.dlaMJ = r.gpuMS, r.dlaMS, r.gpuMJ, r.dlaMJ
		}
		if energy {
			l += sq(math.Log(p.gpuMJ/pub.gpuMJ)) + sq(math.Log(p.dlaMJ/pub.dlaMJ))
		}
		if lat {
			l += sq(math.Log(p.gpuMS/pub.gpuMS)) + sq(math.Log(p.dlaMS/pub.dlaMS))
		}
	}
	return l
}

// fitStage minimises loss over ps (each mapped into its bounds by a
// logistic) by Nelder-Mead from seeded random starts (the first at init's
// values when init is not nil), and returns the spec with the best values
// set.
func fitStage(base Spec, ps []fitParam, loss func(Spec) float64, init []float64, starts int, rng *rand.Rand) (Spec, []float64, float64) {
	apply := func(x []float64) (Spec, []float64) {
		s := base
		s.Units = slices.Clone(base.Units)
		v := make([]float64, len(ps))
		for i, p := range ps {
			v[i] = p.lo + (p.hi-p.lo)/(1+math.Exp(-x[i]))
			p.set(&s, v[i])
		}
		return s, v
	}
	f := func(x []float64) float64 { s, _ := apply(x); return loss(s) }
	best, bestL := []float64(nil), math.Inf(1)
	for st := range starts {
		x := make([]float64, len(ps))
		for i := range x {
			x[i] = 2 * rng.NormFloat64()
			if st == 0 && init != nil {
				// the logistic's inverse, kept off the bounds
				u := min(max((init[i]-ps[i].lo)/(ps[i].hi-ps[i].lo), 1e-6), 1-1e-6)
				x[i] = math.Log(u / (1 - u))
			}
		}
		for range 2 {
			x = nelderMead(f, x, 0.5, 250)
		}
		if l := f(x); l < bestL {
			best, bestL = x, l
		}
	}
	s, v := apply(best)
	return s, v, bestL
}

// TestFitXavier re-derives the fitted constants of xavier.yaml from MaGNAS
// Tables 2 and 3 (go test ./soc -run TestFitXavier -soc.fit -v). It prints the
// values to copy into the spec; it asserts nothing else.
func TestFitXavier(t *testing.T) {
	if !*fitFlag {
		t.Skip("run with -soc.fit")
	}
	rng := rand.New(rand.NewPCG(0x50c, 2))
	base := DefaultSpec()
	base.Precision = MaGNASPrecision // applied by New, after each parameter is set
	base.CPU.FrameCycles = base.CPU.MaGNASFrameCycles
	lp := latencyParams
	if *fitGlueFlag {
		lp = glueParams
	}
	latLoss := func(s Spec) float64 { return fitLossOf(s, true, false) }
	energyLoss := func(s Spec) float64 { return fitLossOf(s, false, true) }
	s, v, l := fitStage(base, lp, latLoss, nil, 4, rng)
	staged := slices.Clone(v)
	for i, p := range lp {
		t.Logf("%-45s %.5g  (range %g..%g)", p.name, v[i], p.lo, p.hi)
	}
	t.Logf("latency loss %.5f", l)
	s, v, l = fitStage(s, powerParams, energyLoss, nil, 3, rng)
	staged = append(staged, v...)
	for i, p := range powerParams {
		t.Logf("%-45s %.5g  (range %g..%g)", p.name, v[i], p.lo, p.hi)
	}
	g, d := unitByName(&s, "gpu"), unitByName(&s, "dla")
	t.Logf("=> dla.idle_w %.4g, dla.dynamic_w %.4g (gpu idle share %.3f)", d.IdleW, d.DynamicW, g.IdleW/(g.IdleW+g.DynamicW))
	t.Logf("energy loss %.5f", l)
	if *fitJointFlag {
		ps := append(slices.Clone(lp), powerParams...)
		both := func(s Spec) float64 { return fitLossOf(s, true, true) }
		s, v, l = fitStage(base, ps, both, staged, 4, rng)
		for i, p := range ps {
			t.Logf("joint %-39s %.5g  (range %g..%g)", p.name, v[i], p.lo, p.hi)
		}
		t.Logf("joint loss %.5f (latency %.5f, energy %.5f)", l, latLoss(s), energyLoss(s))
	}
	soc, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := calibrate(soc)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ours {
		name, pub := "a3 (Table 3)", table3A3
		if i < len(table2) {
			r := table2[i]
			name = r.op.String()
			pub.gpuMS, pub.dlaMS, pub.gpuMJ, pub.dlaMJ = r.gpuMS, r.dlaMS, r.gpuMJ, r.dlaMJ
		}
		t.Logf("%-12s GPU %s %s  DLA %s %s (ms, mJ vs published)", name, fmtErr(p.gpuMS, pub.gpuMS), fmtErr(p.gpuMJ, pub.gpuMJ), fmtErr(p.dlaMS, pub.dlaMS), fmtErr(p.dlaMJ, pub.dlaMJ))
	}
}

// nelderMead minimises f from x0 (simplex steps of size step) for iters
// iterations.
func nelderMead(f func([]float64) float64, x0 []float64, step float64, iters int) []float64 {
	n := len(x0)
	pts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range pts {
		pts[i] = slices.Clone(x0)
		if i > 0 {
			pts[i][i-1] += step
		}
		vals[i] = f(pts[i])
	}
	order := make([]int, n+1)
	c := make([]float64, n)
	at := func(t float64) []float64 {
		p := make([]float64, n)
		for j := range p {
			p[j] = c[j] + t*(pts[n][j]-c[j])
		}
		return p
	}
	for range iters {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case vals[a] < vals[b]:
				return -1
			case vals[a] > vals[b]:
				return 1
			}
			return 0
		})
		np, nv := make([][]float64, n+1), make([]float64, n+1)
		for i, o := range order {
			np[i], nv[i] = pts[o], vals[o]
		}
		pts, vals = np, nv
		clear(c)
		for i := range n {
			for j := range c {
				c[j] += pts[i][j] / float64(n)
			}
		}
		r := at(-1)
		fr := f(r)
		switch {
		case fr < vals[0]:
			if e := at(-2); f(e) < fr {
				pts[n], vals[n] = e, f(e)
			} else {
				pts[n], vals[n] = r, fr
			}
		case fr < vals[n-1]:
			pts[n], vals[n] = r, fr
		default:
			k := at(0.5)
			if fk := f(k); fk < vals[n] {
				pts[n], vals[n] = k, fk
			} else {
				for i := 1; i <= n; i++ {
					for j := range pts[i] {
						pts[i][j] = pts[0][j] + 0.5*(pts[i][j]-pts[0][j])
					}
					vals[i] = f(pts[i])
				}
			}
		}
	}
	best := 0
	for i := range vals {
		if vals[i] < vals[best] {
			best = i
		}
	}
	return pts[best]
}
