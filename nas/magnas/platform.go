package magnas

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gnnsim/hw"
	"gnnsim/soc"
	"gnnsim/workload"
)

// Domain is one DVFS clock domain of a platform (GPU, DLA, CPU, EMC) and
// the clocks the search may give it, ascending.
type Domain struct {
	Name     string
	ClocksHz []float64
}

// Setting is one DVFS setting: a clock per domain of the platform, in the
// order of Platform.Domains. Index is its position in Platform.Settings.
type Setting struct {
	Index    int
	ClocksHz []float64
}

// Outcome is a platform's cost of one model under one mapping and setting.
type Outcome struct {
	TimePS   int64
	EnergyPJ float64
}

// Evaluator prices a model given as its mapping segments, segment i on
// unit mapping[i] (an index into Platform.Units), at DVFS setting s: MaGNAS
// Eq. 6-7, the shape of soc.Evaluate. A segment (soc.Segment) is a block,
// a layer with the element-wise layers fused into it, or a kernel group of
// a layer (its aggregation or its combination kernels: Work empty, Kernels
// only); Split makes them. A segment a unit cannot run is an error wrapping
// ErrUnsupported; the search then never maps it there.
type Evaluator func(segs []soc.Segment, mapping []int, s Setting) (Outcome, error)

// ErrUnsupported marks a segment that a unit cannot run.
var ErrUnsupported = errors.New("not supported on this unit")

// Platform is what the search maps onto: its compute units, its DVFS
// domains and the evaluator that prices a mapping.
//
// The search never calls Evaluate on whole candidate models: it prices
// every segment alone and every pair of consecutive segments once per unit
// pair and setting (see Costs), which is exact for any evaluator of the
// form of Eq. 6-7 (a sum of per-segment terms and of terms that depend
// only on two consecutive segments and their units).
type Platform struct {
	Name     string
	Units    []string
	Domains  []Domain // none: one nominal setting
	Evaluate Evaluator
}

// EvaluateModel prices m block by block (soc.Segments at block
// granularity), block i on unit mapping[i].
func (p *Platform) EvaluateModel(m workload.Model, mapping []int, s Setting) (Outcome, error) {
	segs, err := soc.Segments(m, soc.Blocks)
	if err != nil {
		return Outcome{}, fmt.Errorf("magnas: %w", err)
	}
	return p.Evaluate(segs, mapping, s)
}

// Validate checks the platform.
func (p *Platform) Validate() error {
	switch {
	case len(p.Units) == 0:
		return fmt.Errorf("magnas: platform %q has no units", p.Name)
	case len(p.Units) > 16:
		return fmt.Errorf("magnas: platform %q has %d units, at most 16", p.Name, len(p.Units))
	case p.Evaluate == nil:
		return fmt.Errorf("magnas: platform %q has no evaluator", p.Name)
	}
	n := 1
	for _, d := range p.Domains {
		if len(d.ClocksHz) == 0 {
			return fmt.Errorf("magnas: platform %q: DVFS domain %q has no clocks", p.Name, d.Name)
		}
		for i, f := range d.ClocksHz {
			if !(f > 0) || math.IsInf(f, 0) || (i > 0 && f <= d.ClocksHz[i-1]) {
				return fmt.Errorf("magnas: platform %q: DVFS domain %q: clocks must be positive and ascending", p.Name, d.Name)
			}
		}
		n *= len(d.ClocksHz)
		if n > 1<<12 {
			return fmt.Errorf("magnas: platform %q: more than %d DVFS settings", p.Name, 1<<12)
		}
	}
	return nil
}

// NumSettings is the number of DVFS settings: the product of the domains'
// clock counts.
func (p *Platform) NumSettings() int {
	n := 1
	for _, d := range p.Domains {
		n *= len(d.ClocksHz)
	}
	return n
}

// Setting returns setting i: domains in order, the first varying slowest.
func (p *Platform) Setting(i int) Setting {
	s := Setting{Index: i, ClocksHz: make([]float64, len(p.Domains))}
	for j := len(p.Domains) - 1; j >= 0; j-- {
		n := len(p.Domains[j].ClocksHz)
		s.ClocksHz[j] = p.Domains[j].ClocksHz[i%n]
		i /= n
	}
	return s
}

// SettingIndex returns the index of the setting with choice c[j] in domain j.
func (p *Platform) SettingIndex(c []int) int {
	i := 0
	for j, d := range p.Domains {
		i = i*len(d.ClocksHz) + c[j]
	}
	return i
}

// MaxN is the setting with every domain at its highest clock (Jetson's
// MAXN mode); MinN every domain at its lowest.
func (p *Platform) MaxN() int { return p.NumSettings() - 1 }

// MinN: see MaxN.
func (p *Platform) MinN() int { return 0 }

// SettingName renders setting i as "gpu=1377MHz dla=1395MHz ...".
func (p *Platform) SettingName(i int) string {
	if len(p.Domains) == 0 {
		return "nominal"
	}
	s := p.Setting(i)
	parts := make([]string, len(p.Domains))
	for j, d := range p.Domains {
		parts[j] = fmt.Sprintf("%s=%gMHz", d.Name, s.ClocksHz[j]/1e6)
	}
	return strings.Join(parts, " ")
}

// Memory is the shared memory consecutive segments on different units talk
// through (UnitsEvaluator): a segment whose neighbour runs elsewhere writes
// its output feature map to it, the next one reads it back, and each
// hand-off costs a fixed latency.
type Memory struct {
	BytesPerSec     float64
	EnergyPJPerByte float64
	HandoffPS       int64
	WordBytes       int64
}

// UnitsEvaluator returns Eq. 6-7 over plain hw.Units with no DVFS: T = sum
// of the segments' costs on their units plus, where consecutive segments
// run on different units, the producer's write-back and the consumer's
// read of the feature map through mem, each with a hand-off. A kernel
// group runs only on a unit that is a soc.KernelCoster (else it is
// ErrUnsupported there).
func UnitsEvaluator(units []hw.Unit, mem Memory) Evaluator {
	return func(segs []soc.Segment, mapping []int, _ Setting) (Outcome, error) {
		if len(mapping) != len(segs) {
			return Outcome{}, fmt.Errorf("magnas: %d mapping genes for %d segments", len(mapping), len(segs))
		}
		var t float64
		var e float64
		for i, sg := range segs {
			u := mapping[i]
			if u < 0 || u >= len(units) {
				return Outcome{}, fmt.Errorf("magnas: segment %s mapped to unit %d of %d", sg.Name, u, len(units))
			}
			c, err := runSegment(units[u], sg)
			if err != nil {
				return Outcome{}, fmt.Errorf("magnas: segment %s on %s: %w", sg.Name, units[u].Name(), err)
			}
			t += float64(c.TimePS)
			e += c.EnergyPJ
			if i > 0 && mapping[i-1] != u { // tau_in
				bytes := float64(sg.InElems * max(mem.WordBytes, 1))
				t += bytes/mem.BytesPerSec*1e12 + float64(mem.HandoffPS)
				e += bytes * mem.EnergyPJPerByte
			}
			if i+1 < len(segs) && mapping[i+1] != u { // tau_out
				bytes := float64(sg.OutElems * max(mem.WordBytes, 1))
				t += bytes/mem.BytesPerSec*1e12 + float64(mem.HandoffPS)
				e += bytes * mem.EnergyPJPerByte
			}
		}
		return Outcome{TimePS: int64(math.Round(t)), EnergyPJ: e}, nil
	}
}

// runSegment prices sg on u: its layers through Run, a kernel group
// through a KernelCoster.
func runSegment(u hw.Unit, sg soc.Segment) (hw.Cost, error) {
	if len(sg.Work.Block.Layers) > 0 {
		return u.Run(sg.Work)
	}
	if k, ok := u.(soc.KernelCoster); ok {
		return k.RunKernels(sg.Kernels)
	}
	return hw.Cost{}, fmt.Errorf("a kernel group needs a unit that prices kernels: %w", ErrUnsupported)
}
