package magnas

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/soc"
)

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

// XavierCPU is the name of the Xavier CPU clock domain. soc.Default models
// the CPU (its power and its kernel-launch floor); pass XavierCPU to
// SoCPlatform as unmodelled to search its clocks without pricing them.
const XavierCPU = "cpu"

// SoCPlatform returns the platform of s: its units in s's order (mappings
// index s.Units), the given DVFS domains, and an evaluator that is soc's
// Evaluator over the segments given (MaGNAS Eq. 6-7) at the soc.DVFS setting
// the domains' clocks name. Every domain must name a clock domain of s
// (soc.SoC.Domains: "gpu", "dla", "emc", "cpu" on soc.Default) and list
// only clocks of its operating-point table, except the domains named in
// unmodelled: they are searched, but no cost depends on them. A domain not
// given stays at its highest point. A segment a unit cannot run is an error wrapping
// ErrUnsupported.
func SoCPlatform(name string, s *soc.SoC, domains []Domain, unmodelled ...string) (*Platform, error) {
	if s == nil {
		return nil, fmt.Errorf("magnas: platform %q: nil SoC", name)
	}
	p := &Platform{Name: name, Units: s.Units(), Domains: domains}
	p.Evaluate = func([]soc.Segment, []int, Setting) (Outcome, error) { return Outcome{}, nil } // for Validate
	if err := p.Validate(); err != nil {
		return nil, err
	}
	known := s.Domains()
	seen := map[string]bool{}
	for _, d := range domains {
		key := strings.ToLower(d.Name)
		switch {
		case seen[key]:
			return nil, fmt.Errorf("magnas: platform %q: DVFS domain %q given twice", name, d.Name)
		case !slices.ContainsFunc(known, func(n string) bool { return strings.EqualFold(n, d.Name) }) &&
			!slices.Contains(unmodelled, d.Name):
			return nil, fmt.Errorf("magnas: platform %q: DVFS domain %q is not a clock of SoC %s (have %s)",
				name, d.Name, s.Name(), strings.Join(known, ", "))
		}
		seen[key] = true
	}
	// Resolve every setting once: the search prices each block at every
	// setting, and an unknown clock is a construction error, not a search one.
	sets := make([]soc.Setting, p.NumSettings())
	for i := range sets {
		st := p.Setting(i)
		d := soc.DVFS{}
		for j, dom := range domains {
			if !slices.Contains(unmodelled, dom.Name) {
				d[dom.Name] = st.ClocksHz[j] / 1e6
			}
		}
		set, err := s.Setting(d)
		if err != nil {
			return nil, fmt.Errorf("magnas: platform %q: setting %s: %w", name, p.SettingName(i), err)
		}
		sets[i] = set
	}
	p.Evaluate = socEvaluator(name, s, sets)
	return p, nil
}

// ModePlatform returns the platform of s under power mode m (a Jetson
// nvpmodel mode, soc.PowerMode): no DVFS domains, one setting, every clock
// at the highest point the mode allows and the mode's cores online
// (soc.SoC.ModeSetting). MaGNAS Section 5.5 implements a power budget "by
// fixing low values of clock frequencies and a limited number of CPU
// cores and memory speed"; soc.SoC.ModeForBudget picks the mode.
func ModePlatform(name string, s *soc.SoC, m soc.PowerMode) (*Platform, error) {
	if s == nil {
		return nil, fmt.Errorf("magnas: platform %q: nil SoC", name)
	}
	set, err := s.ModeSetting(m, nil)
	if err != nil {
		return nil, fmt.Errorf("magnas: platform %q: %w", name, err)
	}
	p := &Platform{Name: name, Units: s.Units(), Evaluate: socEvaluator(name, s, []soc.Setting{set})}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// socEvaluator is Eq. 6-7 by soc's evaluator over the segments given, at
// sets[Setting.Index].
func socEvaluator(name string, s *soc.SoC, sets []soc.Setting) Evaluator {
	nu := len(s.Units())
	return func(segs []soc.Segment, mapping []int, st Setting) (Outcome, error) {
		if len(mapping) != len(segs) {
			return Outcome{}, fmt.Errorf("magnas: %s: %d mapping genes for %d segments", name, len(mapping), len(segs))
		}
		if st.Index < 0 || st.Index >= len(sets) {
			return Outcome{}, fmt.Errorf("magnas: %s: setting %d of %d", name, st.Index, len(sets))
		}
		for i, u := range mapping {
			if u < 0 || u >= nu {
				return Outcome{}, fmt.Errorf("magnas: %s: segment %d mapped to unit %d of %d", name, i, u, nu)
			}
		}
		g := soc.Blocks
		for _, sg := range segs {
			if len(sg.Work.Block.Layers) == 0 {
				g = soc.KernelGroups
			}
		}
		ev, err := soc.NewSegmentEvaluator(s, segs, g)
		if err != nil {
			return Outcome{}, fmt.Errorf("magnas: %s: %w", name, err)
		}
		var r soc.Result
		// With the mapping and setting checked, what is left to fail is a
		// segment that its unit (or its fallback) cannot run.
		if err := ev.EvaluateAt(&r, soc.Mapping{Granularity: g, Units: mapping}, sets[st.Index]); err != nil {
			return Outcome{}, fmt.Errorf("magnas: %s: %w: %w", name, ErrUnsupported, err)
		}
		return Outcome{TimePS: r.LatencyPS, EnergyPJ: r.EnergyPJ}, nil
	}
}
