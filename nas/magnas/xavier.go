package magnas

import (
	"fmt"
	"math"

	"gnnsim/workload"
)

// This file is an INTERIM Jetson AGX Xavier model: package soc's
// calibrated GPU / DLA units and soc.Evaluate (MaGNAS Eq. 6-7, Table 2
// anchors) were not on this branch when the reproductions of seeds 000 and
// 003 were written. InterimXavier is the one place to switch to
// soc.Evaluate; everything else takes a *Platform. Its constants are
// gnnsim's rough choices (a roofline per kernel class, P = P_idle + C V^2
// f), set by hand against MaGNAS Table 2 and reported next to it in the
// seed 000 report, not fitted.

// XavierTable1Domains are the Xavier clocks of MaGNAS Table 1 (the nearest
// points of the Xavier DVFS tables of MISSION section 9).
func XavierTable1Domains() []Domain {
	return []Domain{
		{Name: "cpu", ClocksHz: []float64{1728e6, 2265.6e6}},
		{Name: "gpu", ClocksHz: []float64{522.75e6, 905.25e6, 1377e6}},
		{Name: "emc", ClocksHz: []float64{1065.6e6, 2133e6}},
		{Name: "dla", ClocksHz: []float64{1050e6, 1395.2e6}},
	}
}

// XavierGPUDomains are the full Jetson AGX Xavier DVFS tables of the GPU,
// CPU and EMC (MISSION section 9; HADAS Table II: 14, 29 and 9 points):
// 14 x 29 x 9 = 3,654 settings.
func XavierGPUDomains() []Domain {
	cpu := make([]float64, 29) // 115.2 ... 2265.6 MHz, 76.8 MHz apart
	for i := range cpu {
		cpu[i] = (115.2 + 76.8*float64(i)) * 1e6
	}
	return []Domain{
		{Name: "gpu", ClocksHz: []float64{114.75e6, 216.75e6, 318.75e6, 420.75e6, 522.75e6, 624.75e6, 675.75e6,
			828.75e6, 905.25e6, 1032.75e6, 1198.5e6, 1236.75e6, 1338.75e6, 1377e6}},
		{Name: "cpu", ClocksHz: cpu},
		{Name: "emc", ClocksHz: []float64{204e6, 408e6, 665.6e6, 800e6, 1065.6e6, 1331.2e6, 1600e6, 1866e6, 2133e6}},
	}
}

const (
	gpuPeakMACs = 5.65e12 // FP16 tensor peak 11.3 TFLOPS at 1377 MHz (MISSION section 9)
	dlaPeakMACs = 1.425e12
	gpuMaxHz    = 1377e6
	dlaMaxHz    = 1395.2e6
	emcMaxHz    = 2133e6
	busBytes    = 64 // 256-bit LPDDR4x, bytes per EMC cycle (136.5 GB/s at 2133 MHz)

	gpuGEMMEff  = 0.10   // share of peak of a large GEMM (gnnsim's choice)
	dlaGEMMEff  = 0.22   // (gnnsim's choice)
	gpuLaunchS  = 24e-6  // per kernel (gnnsim's choice)
	dlaLaunchS  = 25e-6  // per layer (gnnsim's choice)
	fallbackS   = 40e-6  // DLA <-> GPU hand-off of an unsupported kernel (0.01-0.07 ms, MISSION section 9)
	handoffS    = 40e-6  // unit transition between blocks (same source)
	gpuIdleW    = 4.0    // gnnsim's choice
	gpuDynW     = 14.5   // at MaxN
	dlaIdleW    = 1.6    // gnnsim's choice
	dlaDynW     = 2.4    // at MaxN
	memW        = 1.2    // EMC power while transferring at 2133 MHz
	minVoltFrac = 0.6    // V(f_min)/V(f_max), V linear in f
	cpuOverhead = 0.0005 // fraction of time per CPU GHz below max (scheduling overhead)
)

// gemmEff is the share of peak a GEMM of macs MACs reaches: small
// products are launch- and occupancy-bound.
func gemmEff(macs int64, max float64) float64 {
	m := float64(macs)
	return max * m / (m + 4e7)
}

// volts is V(f)/V(f_max) with V linear in f from minVoltFrac at fmin, the
// lowest clock the platform's domain lists (MISSION section 9: "V linear in
// f between the lowest and highest point"; with MaGNAS's Table 1 subset
// the line starts at its lowest point, as seed 000 was written).
func volts(f, fmin, fmax float64) float64 {
	if fmax <= fmin {
		return 1
	}
	return minVoltFrac + (1-minVoltFrac)*(f-fmin)/(fmax-fmin)
}

type xavierState struct {
	gpuHz, dlaHz, emcHz, cpuHz float64
	gpuMinHz, dlaMinHz         float64
}

func (x xavierState) bw() float64 { return busBytes * x.emcHz * 0.6 }

func (x xavierState) gpuW() float64 {
	v := volts(x.gpuHz, x.gpuMinHz, gpuMaxHz)
	return gpuIdleW + gpuDynW*v*v*x.gpuHz/gpuMaxHz + memW*x.emcHz/emcMaxHz
}

func (x xavierState) dlaW() float64 {
	v := volts(x.dlaHz, x.dlaMinHz, dlaMaxHz)
	return dlaIdleW + dlaDynW*v*v*x.dlaHz/dlaMaxHz + memW*x.emcHz/emcMaxHz
}

// gpuKernel is a kernel's time on the GPU.
func (x xavierState) gpuKernel(k workload.Kernel) float64 {
	bytes := 2 * float64(k.Elems())
	mem := bytes / x.bw()
	var comp float64
	switch k.Class {
	case workload.GEMM, workload.KNNDist:
		comp = float64(k.MACs) / (gemmEff(k.MACs, gpuGEMMEff) * gpuPeakMACs * x.gpuHz / gpuMaxHz)
	default: // gather, max, top-k, element-wise: memory and issue bound
		comp = float64(k.Ops+k.MACs) / (0.02 * gpuPeakMACs * x.gpuHz / gpuMaxHz)
	}
	return gpuLaunchS + math.Max(comp, mem)
}

func dlaSupports(c workload.KernelClass) bool {
	return c == workload.GEMM || c == workload.ElementWise
}

// block returns the time (s) and energy (J) of one block on unit u.
func (x xavierState) block(b workload.Block, u int) (float64, float64, error) {
	var buf [64]workload.Kernel
	ks, err := b.AppendKernels(buf[:0])
	if err != nil {
		return 0, 0, err
	}
	cpu := 1 + cpuOverhead*(2265.6e6-x.cpuHz)/1e6
	var t, e float64
	onGPU := false
	for _, k := range ks {
		if u == 0 {
			kt := x.gpuKernel(k) * cpu
			t += kt
			e += kt * x.gpuW()
			continue
		}
		if !dlaSupports(k.Class) { // GPU fallback with a hand-off
			kt := x.gpuKernel(k) * cpu
			if !onGPU {
				kt += fallbackS
				onGPU = true
			}
			t += kt
			e += kt * (0.5*x.gpuW() + dlaIdleW*0.5) // small graph kernels keep the GPU half busy
			continue
		}
		kt := dlaLaunchS * cpu
		if onGPU {
			kt += fallbackS
			onGPU = false
		}
		bytes := 2 * float64(k.Elems())
		var comp float64
		if k.Class == workload.GEMM {
			comp = float64(k.MACs) / (gemmEff(k.MACs, dlaGEMMEff) * dlaPeakMACs * x.dlaHz / dlaMaxHz)
		} else {
			comp = float64(k.Ops) / (0.05 * dlaPeakMACs * x.dlaHz / dlaMaxHz)
		}
		kt += math.Max(comp, bytes/(x.bw()*0.5))
		t += kt
		e += kt * x.dlaW()
	}
	return t, e, nil
}

// InterimXavier returns the interim Xavier GPU / DLA platform (units
// "gpu" = 0 and "dla" = 1) searching the given DVFS domains, found by
// name: "cpu", "gpu", "emc", "dla". A domain not given stays at its
// highest clock. Clocks above a unit's maximum are an error.
func InterimXavier(name string, domains []Domain) (*Platform, error) {
	p := &Platform{Name: name, Units: []string{"gpu", "dla"}, Domains: domains}
	idx := map[string]int{"cpu": -1, "gpu": -1, "emc": -1, "dla": -1}
	maxHz := map[string]float64{"cpu": 2265.6e6, "gpu": gpuMaxHz, "emc": emcMaxHz, "dla": dlaMaxHz}
	for i, d := range domains {
		j, ok := idx[d.Name]
		switch {
		case !ok:
			return nil, fmt.Errorf("magnas: xavier: unknown DVFS domain %q (want cpu, gpu, emc, dla)", d.Name)
		case j >= 0:
			return nil, fmt.Errorf("magnas: xavier: DVFS domain %q given twice", d.Name)
		case len(d.ClocksHz) == 0:
			return nil, fmt.Errorf("magnas: xavier: DVFS domain %q has no clocks", d.Name)
		case d.ClocksHz[len(d.ClocksHz)-1] > maxHz[d.Name]*1.0001:
			return nil, fmt.Errorf("magnas: xavier: %s clock %g MHz above the maximum %g MHz", d.Name, d.ClocksHz[len(d.ClocksHz)-1]/1e6, maxHz[d.Name]/1e6)
		}
		idx[d.Name] = i
	}
	lowest := func(n string) float64 {
		if i := idx[n]; i >= 0 {
			return domains[i].ClocksHz[0]
		}
		return maxHz[n]
	}
	base := xavierState{gpuMinHz: lowest("gpu"), dlaMinHz: lowest("dla")}
	clock := func(s Setting, n string) float64 {
		if i := idx[n]; i >= 0 {
			return s.ClocksHz[i]
		}
		return maxHz[n]
	}
	p.Evaluate = func(m workload.Model, mapping []int, s Setting) (Outcome, error) {
		if len(mapping) != len(m.Blocks) {
			return Outcome{}, fmt.Errorf("xavier: %d mapping genes for %d blocks", len(mapping), len(m.Blocks))
		}
		if len(s.ClocksHz) != len(domains) {
			return Outcome{}, fmt.Errorf("xavier: setting with %d clocks for %d domains", len(s.ClocksHz), len(domains))
		}
		x := base
		x.cpuHz, x.gpuHz, x.emcHz, x.dlaHz = clock(s, "cpu"), clock(s, "gpu"), clock(s, "emc"), clock(s, "dla")
		var t, e float64
		for i, b := range m.Blocks {
			u := mapping[i]
			if u < 0 || u > 1 {
				return Outcome{}, fmt.Errorf("xavier: unit %d", u)
			}
			bt, be, err := x.block(b, u)
			if err != nil {
				return Outcome{}, err
			}
			t += bt
			e += be
			for _, cross := range []struct {
				other bool
				elems int64
			}{{i > 0 && mapping[i-1] != u, b.InElems()}, {i+1 < len(m.Blocks) && mapping[i+1] != u, b.OutElems()}} {
				if cross.other {
					tt := handoffS + 2*float64(cross.elems)/x.bw()
					t += tt
					e += tt * (memW + dlaIdleW)
				}
			}
		}
		return Outcome{TimePS: int64(math.Round(t * 1e12)), EnergyPJ: e * 1e12}, nil
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}
