package hadas

import (
	"fmt"
	"math"

	"gnnsim/nas/magnas"
	"gnnsim/soc"
)

// TX2Domains are the TX2 DVFS domains HADAS searches, from s's tables
// (soc.TX2: GPU 13, Denver CPU 12, EMC 11 points: 1,716 settings).
func TX2Domains(s *soc.SoC) ([]magnas.Domain, error) {
	u, ok := s.Unit("gpu")
	if !ok {
		return nil, fmt.Errorf("hadas: SoC %s has no gpu unit", s.Name())
	}
	var gpu, emc, cpu []float64
	for _, p := range u.OperatingPoints() {
		gpu = append(gpu, p.FreqHz)
	}
	for _, f := range s.Memory().PointsMHz {
		emc = append(emc, f*1e6)
	}
	for _, f := range s.CPU().PointsMHz {
		cpu = append(cpu, f*1e6)
	}
	if len(cpu) == 0 {
		return nil, fmt.Errorf("hadas: SoC %s has no CPU clock table", s.Name())
	}
	return []magnas.Domain{{Name: "gpu", ClocksHz: gpu}, {Name: s.CPU().Name, ClocksHz: cpu}, {Name: s.Memory().Name, ClocksHz: emc}}, nil
}

// Platforms are the targets NewTarget knows, the default first.
var Platforms = []string{"tx2", "xavier"}

// NewTarget returns a named target, the GPU running every block: "tx2"
// (soc.TX2, HADAS Table III's TX2 Pascal GPU, GPU 13 x CPU 12 x EMC 11
// settings) or "xavier" (soc.Default, the AGX Volta GPU, GPU 14 x CPU 29
// x EMC 9 = 3,654).
func NewTarget(name string) (Target, error) {
	var p *magnas.Platform
	var err error
	switch name {
	case "tx2":
		return TX2Target(soc.TX2())
	case "xavier":
		p, err = magnas.SoCPlatform("xavier-gpu-soc", soc.Default(), magnas.XavierGPUDomains(), magnas.XavierCPU)
	default:
		return Target{}, fmt.Errorf("hadas: platform %q, want one of %v", name, Platforms)
	}
	if err != nil {
		return Target{}, err
	}
	return gpuTarget(p), nil
}

// TX2Target returns the TX2 target on s (soc.TX2 or a variant of its
// spec): GPU, CPU and EMC domains of TX2Domains.
func TX2Target(s *soc.SoC) (Target, error) {
	ds, err := TX2Domains(s)
	if err != nil {
		return Target{}, err
	}
	p, err := magnas.SoCPlatform("tx2-gpu-soc", s, ds)
	if err != nil {
		return Target{}, err
	}
	return gpuTarget(p), nil
}

func gpuTarget(p *magnas.Platform) Target {
	i := 0
	for j, u := range p.Units {
		if u == "gpu" {
			i = j
		}
	}
	return Target{P: p, Unit: i}
}

// TableIIIStaticMJ are HADAS Table III's static (baseline) energies of
// AttentiveNAS a0 and a6 on the TX2 Pascal GPU, mJ per image: what
// soc/tx2.yaml's power level is calibrated on (LevelTX2Power), used
// nowhere else by the model.
var TableIIIStaticMJ = [2]float64{173.78, 335.48}

// TX2StaticMJ returns a0's and a6's static energy (mJ) and latency (ms) at
// MaxN on the TX2 target of spec (100 classes).
func TX2StaticMJ(spec soc.Spec) (mj, ms [2]float64, err error) {
	s, err := soc.New(spec)
	if err != nil {
		return mj, ms, err
	}
	tg, err := TX2Target(s)
	if err != nil {
		return mj, ms, err
	}
	for k, i := range []int{0, 6} {
		b, err := AttentiveNAS().Backbone(Baselines()[i], 100)
		if err != nil {
			return mj, ms, err
		}
		c, err := NewCosts(tg, b)
		if err != nil {
			return mj, ms, err
		}
		sc, err := c.At(tg.P.MaxN())
		if err != nil {
			return mj, ms, err
		}
		mj[k], ms[k] = sc.FullPJ*1e-9, sc.FullPS*1e-9
	}
	return mj, ms, nil
}

// LevelTX2Power scales the GPU's idle_w and dynamic_w of spec together
// (their ratio kept) so a0's and a6's static energies have Table III's
// geometric mean, iterating because DRAM energy does not scale with them.
func LevelTX2Power(spec soc.Spec) (soc.Spec, error) {
	spec.Units = append([]soc.UnitSpec(nil), spec.Units...)
	u := &spec.Units[0]
	for range 4 {
		e, _, err := TX2StaticMJ(spec)
		if err != nil {
			return spec, err
		}
		f := math.Sqrt(TableIIIStaticMJ[0] / e[0] * TableIIIStaticMJ[1] / e[1])
		u.IdleW *= f
		u.DynamicW *= f
	}
	return spec, nil
}
