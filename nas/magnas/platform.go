package magnas

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gnnsim/hw"
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

// Evaluator prices model m with block i on unit mapping[i] (an index into
// Platform.Units) at DVFS setting s: MaGNAS Eq. 6-7, the shape of
// soc.Evaluate. A block a unit cannot run is an error wrapping
// ErrUnsupported; the search then never maps it there.
type Evaluator func(m workload.Model, mapping []int, s Setting) (Outcome, error)

// ErrUnsupported marks a block that a unit cannot run.
var ErrUnsupported = errors.New("block not supported on this unit")

// Platform is what the search maps onto: its compute units, its DVFS
// domains and the evaluator that prices a mapping.
//
// The search never calls Evaluate on whole candidate models: it prices
// every block alone and every pair of consecutive blocks once per unit
// pair and setting (see Costs), which is exact for any evaluator of the
// form of Eq. 6-7 (a sum of per-block terms and of terms that depend only
// on two consecutive blocks and their units).
type Platform struct {
	Name     string
	Units    []string
	Domains  []Domain // none: one nominal setting
	Evaluate Evaluator
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

// Memory is the shared memory consecutive blocks on different units talk
// through (UnitsEvaluator): a block whose neighbour runs elsewhere writes
// its output feature map to it, the next block reads it back, and each
// hand-off costs a fixed latency.
type Memory struct {
	BytesPerSec     float64
	EnergyPJPerByte float64
	HandoffPS       int64
	WordBytes       int64
}

// UnitsEvaluator returns Eq. 6-7 over plain hw.Units with no DVFS: T = sum
// of the blocks' costs on their units plus, where consecutive blocks run
// on different units, the producer's write-back and the consumer's read of
// the feature map through mem, each with a hand-off. It is how units
// outside the Jetson model (the MAESTRO DSAs of Section 5.7.2) are
// searched.
func UnitsEvaluator(units []hw.Unit, mem Memory) Evaluator {
	return func(m workload.Model, mapping []int, _ Setting) (Outcome, error) {
		if len(mapping) != len(m.Blocks) {
			return Outcome{}, fmt.Errorf("magnas: %d mapping genes for %d blocks", len(mapping), len(m.Blocks))
		}
		var t float64
		var e float64
		for i, b := range m.Blocks {
			u := mapping[i]
			if u < 0 || u >= len(units) {
				return Outcome{}, fmt.Errorf("magnas: block %s mapped to unit %d of %d", b.Name, u, len(units))
			}
			c, err := units[u].Run(hw.BlockWork(b))
			if err != nil {
				return Outcome{}, fmt.Errorf("magnas: block %s on %s: %w", b.Name, units[u].Name(), err)
			}
			t += float64(c.TimePS)
			e += c.EnergyPJ
			if i > 0 && mapping[i-1] != u { // tau_in
				bytes := float64(b.InElems() * max(mem.WordBytes, 1))
				t += bytes/mem.BytesPerSec*1e12 + float64(mem.HandoffPS)
				e += bytes * mem.EnergyPJPerByte
			}
			if i+1 < len(m.Blocks) && mapping[i+1] != u { // tau_out
				bytes := float64(b.OutElems() * max(mem.WordBytes, 1))
				t += bytes/mem.BytesPerSec*1e12 + float64(mem.HandoffPS)
				e += bytes * mem.EnergyPJPerByte
			}
		}
		return Outcome{TimePS: int64(math.Round(t)), EnergyPJ: e}, nil
	}
}
