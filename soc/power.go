package soc

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CPUSpec is the host CPU cluster: it enqueues every GPU kernel and DLA
// task, and draws power for the whole frame. Its clock is a DVFS domain
// like the memory's.
type CPUSpec struct {
	Name      string    `yaml:"name"`
	Cores     int       `yaml:"cores"`
	PointsMHz []float64 `yaml:"points_mhz"`
	VoltsMin  float64   `yaml:"volts_min"`
	VoltsMax  float64   `yaml:"volts_max"`
	// LeakWPerCore is the static power of one online core at VoltsMax,
	// scaled by (V/VoltsMax)^LeakExp at lower points; offline cores are
	// power-gated.
	LeakWPerCore float64 `yaml:"leak_w_per_core"`
	LeakExp      float64 `yaml:"leak_exp"`
	// DynamicWPerCore is C V^2 f of one busy core at the highest point;
	// BusyCores the cores busy while a frame runs (the inference thread
	// enqueuing work and waiting on it).
	DynamicWPerCore float64 `yaml:"dynamic_w_per_core"`
	BusyCores       float64 `yaml:"busy_cores"`
	// LaunchCycles is the CPU time, in cycles, to enqueue one GPU kernel or
	// submit one DLA task: a unit cannot start work faster than the CPU
	// enqueues it.
	LaunchCycles float64 `yaml:"launch_cycles"`
	// GlueCycles is the CPU time, in cycles, to dispatch one glue op of a
	// graph op (UnitSpec.Glue: the index arithmetic, transposes and copies
	// of its deployed form): host-side work per op, at the CPU clock, that
	// no unit's clock shortens. 0 means LaunchCycles.
	GlueCycles float64 `yaml:"glue_cycles"`
	// FrameCycles is the CPU time, in cycles, of one inference call that
	// no unit overlaps: the host's per-frame work before the first kernel
	// (input copy and binding, the engine's enqueue, the stream
	// synchronisation and output read-back of a framework's inference
	// loop). It runs at the CPU clock. 0 means none.
	FrameCycles float64 `yaml:"frame_cycles"`
	// MaGNASFrameCycles is FrameCycles in MaGNAS's measurement harness
	// (seed 000): MaGNASSpec sets FrameCycles to it.
	MaGNASFrameCycles float64           `yaml:"magnas_frame_cycles"`
	Sources           map[string]string `yaml:"sources"`
}

// present reports whether the spec has a CPU.
func (c *CPUSpec) present() bool { return c.Cores > 0 }

func (c *CPUSpec) validate() error {
	if c.Cores == 0 && c.Name == "" && len(c.PointsMHz) == 0 {
		return nil // no CPU
	}
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("soc: cpu %s: %s = %v, want %s", c.Name, key, v, want)
	}
	switch {
	case c.Name == "":
		return fmt.Errorf("soc: cpu has no name")
	case c.Cores <= 0 || c.Cores > 1024:
		return bad("cores", c.Cores, "1..1024")
	case !finitePos(c.VoltsMin) || !finitePos(c.VoltsMax) || c.VoltsMin > c.VoltsMax:
		return fmt.Errorf("soc: cpu %s: volts_min = %v, volts_max = %v, want 0 < min <= max", c.Name, c.VoltsMin, c.VoltsMax)
	case !finiteNonNeg(c.LeakWPerCore):
		return bad("leak_w_per_core", c.LeakWPerCore, ">= 0")
	case !finiteNonNeg(c.LeakExp) || c.LeakExp > 10:
		return bad("leak_exp", c.LeakExp, "0..10")
	case !finiteNonNeg(c.DynamicWPerCore):
		return bad("dynamic_w_per_core", c.DynamicWPerCore, ">= 0")
	case !(c.BusyCores >= 0 && c.BusyCores <= float64(c.Cores)):
		return bad("busy_cores", c.BusyCores, fmt.Sprintf("0..%d", c.Cores))
	case !finiteNonNeg(c.LaunchCycles) || c.LaunchCycles > 1e9:
		return bad("launch_cycles", c.LaunchCycles, "0..1e9")
	case !finiteNonNeg(c.GlueCycles) || c.GlueCycles > 1e9:
		return bad("glue_cycles", c.GlueCycles, "0..1e9")
	case !finiteNonNeg(c.FrameCycles) || c.FrameCycles > 1e12:
		return bad("frame_cycles", c.FrameCycles, "0..1e12")
	case !finiteNonNeg(c.MaGNASFrameCycles) || c.MaGNASFrameCycles > 1e12:
		return bad("magnas_frame_cycles", c.MaGNASFrameCycles, "0..1e12")
	}
	return checkPoints("cpu "+c.Name, c.PointsMHz)
}

// powerW returns the CPU cluster's power at point i with cores online:
// voltage-scaled leakage of the online cores plus C V^2 f of the busy ones.
func (c *CPUSpec) powerW(i, cores int) float64 {
	if !c.present() {
		return 0
	}
	v := volts(c.PointsMHz, i, c.VoltsMin, c.VoltsMax)
	leak := c.LeakWPerCore * math.Pow(v/c.VoltsMax, c.LeakExp) * float64(cores)
	busy := min(c.BusyCores, float64(cores))
	return leak + busy*dynamicW(c.PointsMHz, i, c.VoltsMin, c.VoltsMax, c.DynamicWPerCore)
}

// launchPS returns the CPU time to enqueue one unit of work at point i.
func (c *CPUSpec) launchPS(i int) int64 {
	if !c.present() || c.LaunchCycles == 0 {
		return 0
	}
	return int64(math.Round(c.LaunchCycles / (c.PointsMHz[i] * 1e6) * 1e12))
}

// gluePS returns the CPU time to dispatch one glue op at point i.
func (c *CPUSpec) gluePS(i int) int64 {
	if !c.present() || c.GlueCycles == 0 {
		return c.launchPS(i)
	}
	return int64(math.Round(c.GlueCycles / (c.PointsMHz[i] * 1e6) * 1e12))
}

// framePS returns the CPU time of one inference call at point i.
func (c *CPUSpec) framePS(i int) int64 {
	if !c.present() || c.FrameCycles == 0 {
		return 0
	}
	return int64(math.Round(c.FrameCycles / (c.PointsMHz[i] * 1e6) * 1e12))
}

// PowerMode is one of the vendor's power modes (nvpmodel on a Jetson): a
// name, the power budget it is designed for, a clock cap per domain (MHz,
// by unit, memory or CPU name) and the cores left online per domain (the
// CPU's cores, the GPU's TPCs). A domain without a cap runs up to its
// highest point; without a core count, with all its cores.
type PowerMode struct {
	Name string `yaml:"name" json:"name"`
	ID   int    `yaml:"id" json:"id"`
	// BudgetW is the power envelope the mode is designed for; 0 means none
	// (MAXN).
	BudgetW float64            `yaml:"budget_w" json:"budget_w"`
	CapsMHz map[string]float64 `yaml:"caps_mhz" json:"caps_mhz,omitempty"`
	Cores   map[string]int     `yaml:"cores" json:"cores,omitempty"`
	Source  string             `yaml:"source" json:"source"`
}

// capTol is how far above a mode's cap a table point may be and still be
// allowed: nvpmodel's caps are nominal (520 MHz for a GPU whose table
// point is 522.75 MHz, which NVIDIA's documentation lists as the 10 W
// mode's GPU clock).
const capTol = 0.01

// allows reports whether mhz is within the cap of domain in m.
func (m *PowerMode) allows(domain string, mhz float64) bool {
	for k, c := range m.CapsMHz {
		if strings.EqualFold(k, domain) {
			return mhz <= c*(1+capTol)
		}
	}
	return true
}

// cores returns the cores online of domain in m, or all.
func (m *PowerMode) cores(domain string, all int) int {
	for k, c := range m.Cores {
		if strings.EqualFold(k, domain) {
			return c
		}
	}
	return all
}

// validateModes checks the power modes against the spec's domains.
func (s Spec) validateModes() error {
	domains := map[string]int{} // name -> cores
	mem := s.Memory.Name
	if mem == "" {
		mem = MemoryName
	}
	domains[strings.ToLower(mem)] = 0
	for _, u := range s.Units {
		domains[strings.ToLower(u.Name)] = max(u.Cores, 1)
	}
	if s.CPU.present() {
		domains[strings.ToLower(s.CPU.Name)] = s.CPU.Cores
	}
	seen := map[string]bool{}
	ids := map[int]string{}
	for i, m := range s.PowerModes {
		if m.Name == "" {
			return fmt.Errorf("soc: power mode %d has no name", i)
		}
		if o, dup := ids[m.ID]; dup {
			return fmt.Errorf("soc: power modes %s and %s share id %d (--power-mode %d would name either)", o, m.Name, m.ID, m.ID)
		}
		ids[m.ID] = m.Name
		if seen[strings.ToLower(m.Name)] {
			return fmt.Errorf("soc: power mode %q given twice", m.Name)
		}
		seen[strings.ToLower(m.Name)] = true
		if !finiteNonNeg(m.BudgetW) {
			return fmt.Errorf("soc: power mode %s: budget_w = %v, want >= 0", m.Name, m.BudgetW)
		}
		for d, c := range m.CapsMHz {
			if _, ok := domains[strings.ToLower(d)]; !ok {
				return fmt.Errorf("soc: power mode %s: cap on unknown clock domain %q", m.Name, d)
			}
			if !finitePos(c) {
				return fmt.Errorf("soc: power mode %s: cap %s = %v MHz, want > 0", m.Name, d, c)
			}
		}
		for d, c := range m.Cores {
			all, ok := domains[strings.ToLower(d)]
			if !ok || all == 0 {
				return fmt.Errorf("soc: power mode %s: cores of %q, which has no cores", m.Name, d)
			}
			if c < 1 || c > all {
				return fmt.Errorf("soc: power mode %s: %d cores of %s online, want 1..%d", m.Name, c, d, all)
			}
		}
	}
	return nil
}

// PowerModes returns the SoC's power modes in spec order (MAXN first on
// the default Jetson AGX Xavier).
func (s *SoC) PowerModes() []PowerMode { return slices.Clone(s.modes) }

// PowerMode returns the mode called name (case ignored; "10W" finds
// "MODE_10W"), or given by its ID ("1").
func (s *SoC) PowerMode(name string) (PowerMode, error) {
	var names []string
	for _, m := range s.modes {
		if strings.EqualFold(m.Name, name) || strings.EqualFold(strings.TrimPrefix(strings.ToUpper(m.Name), "MODE_"), name) {
			return m, nil
		}
		names = append(names, m.Name)
	}
	if id, err := strconv.Atoi(name); err == nil {
		for _, m := range s.modes {
			if m.ID == id {
				return m, nil
			}
		}
	}
	if len(names) == 0 {
		return PowerMode{}, fmt.Errorf("soc: %s has no power modes", s.name)
	}
	return PowerMode{}, fmt.Errorf("soc: unknown power mode %q (have %s, or an ID)", name, strings.Join(names, ", "))
}

// ModeForBudget returns the mode a power budget selects: among the modes
// whose budget is at most w (a mode without a budget only for w = +Inf or
// w = 0, meaning no budget), the first of the highest budget.
func (s *SoC) ModeForBudget(w float64) (PowerMode, error) {
	if !(w >= 0) {
		return PowerMode{}, fmt.Errorf("soc: power budget %v W, want >= 0 (0: none)", w)
	}
	best := -1
	for i, m := range s.modes {
		b := m.BudgetW
		if b == 0 {
			b = math.Inf(1)
		}
		lim := w
		if w == 0 {
			lim = math.Inf(1)
		}
		if b <= lim && (best < 0 || b > budgetOf(s.modes[best])) {
			best = i
		}
	}
	if best < 0 {
		return PowerMode{}, fmt.Errorf("soc: no power mode of %s fits %g W", s.name, w)
	}
	return s.modes[best], nil
}

func budgetOf(m PowerMode) float64 {
	if m.BudgetW == 0 {
		return math.Inf(1)
	}
	return m.BudgetW
}

// ModePoints returns the operating points (MHz) of a clock domain (a unit,
// the memory or the CPU) that mode m allows.
func (s *SoC) ModePoints(m PowerMode, domain string) ([]float64, error) {
	pts, name, err := s.domainPoints(domain)
	if err != nil {
		return nil, err
	}
	var out []float64
	for _, p := range pts {
		if m.allows(name, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("soc: power mode %s allows no point of %s (cap below %v MHz)", m.Name, name, pts[0])
	}
	return out, nil
}

// domainPoints returns the DVFS table (MHz) and the name of a domain.
func (s *SoC) domainPoints(domain string) ([]float64, string, error) {
	if strings.EqualFold(domain, s.mem.Name) {
		return s.mem.PointsMHz, s.mem.Name, nil
	}
	if s.cpu.present() && strings.EqualFold(domain, s.cpu.Name) {
		return s.cpu.PointsMHz, s.cpu.Name, nil
	}
	for i, n := range s.names {
		if strings.EqualFold(n, domain) {
			ops := s.units[i].OperatingPoints()
			pts := make([]float64, len(ops))
			for j, o := range ops {
				pts[j] = o.FreqHz / 1e6
			}
			return pts, n, nil
		}
	}
	return nil, "", fmt.Errorf("soc: unknown clock domain %q (have %s)", domain, strings.Join(s.Domains(), ", "))
}

// Domains returns the SoC's clock domains: its units, the memory and the
// CPU (when it has one).
func (s *SoC) Domains() []string {
	d := append(slices.Clone(s.names), s.mem.Name)
	if s.cpu.present() {
		d = append(d, s.cpu.Name)
	}
	return d
}

// CPU returns the CPU's spec (Cores == 0: the SoC has none).
func (s *SoC) CPU() CPUSpec { return s.cpu }

// ModeSetting resolves d under power mode m: every clock d gives must be
// within the mode's caps, and a domain d leaves out runs at the highest
// point the mode allows; cores are the mode's.
func (s *SoC) ModeSetting(m PowerMode, d DVFS) (Setting, error) {
	full := DVFS{}
	for _, dom := range s.Domains() {
		pts, err := s.ModePoints(m, dom)
		if err != nil {
			return Setting{}, err
		}
		full[dom] = pts[len(pts)-1]
	}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		_, name, err := s.domainPoints(k)
		if err != nil {
			return Setting{}, fmt.Errorf("soc: dvfs: %w", err)
		}
		if !m.allows(name, d[k]) {
			return Setting{}, fmt.Errorf("soc: dvfs: %s = %v MHz exceeds power mode %s's cap of %v MHz", name, d[k], m.Name, m.capOf(name))
		}
		full[name] = d[k]
	}
	set, err := s.Setting(full)
	if err != nil {
		return Setting{}, err
	}
	for i, n := range s.names {
		all := s.cores[i]
		if all > 0 {
			set.cores[i] = m.cores(n, all)
		}
	}
	if s.cpu.present() {
		set.cpuCores = m.cores(s.cpu.Name, s.cpu.Cores)
	}
	return set, nil
}

func (m *PowerMode) capOf(domain string) float64 {
	for k, c := range m.CapsMHz {
		if strings.EqualFold(k, domain) {
			return c
		}
	}
	return math.Inf(1)
}

// PlatformW returns the power the CPU and the memory draw at set while a
// frame runs, whatever the units do.
func (s *SoC) PlatformW(set Setting) float64 {
	return s.cpu.powerW(set.cpu, set.cpuCores) + s.memoryW(set.mem)
}

// memoryW is the memory's frame-long power at point i.
func (s *SoC) memoryW(i int) float64 {
	pts := s.mem.PointsMHz
	return s.mem.BackgroundW + s.mem.ClockW*pts[i]/pts[len(pts)-1]
}
