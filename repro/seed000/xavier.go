package seed000

import (
	"fmt"
	"math"

	"gnnsim/nas/magnas"
	"gnnsim/workload"
)

// This file is an INTERIM Jetson AGX Xavier model: package soc's
// calibrated GPU / DLA units and soc.Evaluate (MaGNAS Eq. 6-7, Table 2
// anchors) were not on this branch when the reproduction was written.
// XavierPlatform is the one place to switch to soc.Evaluate; everything
// else takes a *magnas.Platform. Its constants are gnnsim's rough choices
// (a roofline per kernel class, P = P_idle + C V^2 f), set by hand against
// MaGNAS Table 2 and reported next to it in the report, not fitted.

// Xavier clocks of MaGNAS Table 1 (the nearest points of the Xavier DVFS
// tables of MISSION section 9).
var xavierDomains = []magnas.Domain{
	{Name: "cpu", ClocksHz: []float64{1728e6, 2265.6e6}},
	{Name: "gpu", ClocksHz: []float64{522.75e6, 905.25e6, 1377e6}},
	{Name: "emc", ClocksHz: []float64{1065.6e6, 2133e6}},
	{Name: "dla", ClocksHz: []float64{1050e6, 1395.2e6}},
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

// volts is V(f)/V(f_max) with V linear in f from minVoltFrac at fmin.
func volts(f, fmin, fmax float64) float64 {
	if fmax <= fmin {
		return 1
	}
	return minVoltFrac + (1-minVoltFrac)*(f-fmin)/(fmax-fmin)
}

type xavierState struct {
	gpuHz, dlaHz, emcHz, cpuHz float64
}

func (x xavierState) bw() float64 { return busBytes * x.emcHz * 0.6 }

func (x xavierState) gpuW() float64 {
	v := volts(x.gpuHz, 522.75e6, gpuMaxHz)
	return gpuIdleW + gpuDynW*v*v*x.gpuHz/gpuMaxHz + memW*x.emcHz/emcMaxHz
}

func (x xavierState) dlaW() float64 {
	v := volts(x.dlaHz, 1050e6, dlaMaxHz)
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
	ks, err := b.Kernels()
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

// XavierPlatform returns the GPU / DLA platform of the reproduction (see
// the file comment: interim until soc.Evaluate).
func XavierPlatform() *magnas.Platform {
	p := &magnas.Platform{Name: "xavier-interim", Units: []string{"gpu", "dla"}, Domains: xavierDomains}
	p.Evaluate = func(m workload.Model, mapping []int, s magnas.Setting) (magnas.Outcome, error) {
		if len(mapping) != len(m.Blocks) {
			return magnas.Outcome{}, fmt.Errorf("xavier: %d mapping genes for %d blocks", len(mapping), len(m.Blocks))
		}
		x := xavierState{cpuHz: s.ClocksHz[0], gpuHz: s.ClocksHz[1], emcHz: s.ClocksHz[2], dlaHz: s.ClocksHz[3]}
		var t, e float64
		for i, b := range m.Blocks {
			u := mapping[i]
			if u < 0 || u > 1 {
				return magnas.Outcome{}, fmt.Errorf("xavier: unit %d", u)
			}
			bt, be, err := x.block(b, u)
			if err != nil {
				return magnas.Outcome{}, err
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
		return magnas.Outcome{TimePS: int64(math.Round(t * 1e12)), EnergyPJ: e * 1e12}, nil
	}
	return p
}
