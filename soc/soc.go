package soc

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gnnsim/hw"
	"gnnsim/workload"
)

// Env is what a unit sees of the SoC it is bound into at one DVFS setting.
type Env struct {
	// MemoryHz is the shared memory's clock, BytesPerSec its bandwidth.
	MemoryHz    float64
	BytesPerSec float64
	PJPerByte   float64 // DRAM energy per byte moved
	LatencyPS   int64   // from the channel to the far end of a transfer
	HandoffPS   int64   // fixed cost of one change of unit, both sides
	// ElementBytes is the size of a feature-map element in shared memory.
	ElementBytes int64
	// LaunchFloorPS is the CPU's time to enqueue one kernel or task at the
	// setting: no unit starts work faster than that (0: no CPU modelled).
	LaunchFloorPS int64
	// GlueFloorPS is the CPU's time to dispatch one glue op of a graph op
	// at the setting (CPUSpec.GlueCycles).
	GlueFloorPS int64
	// Cores is the number of the bound unit's cores (UnitSpec.Cores) a
	// power mode leaves online; 0 means all.
	Cores int
	// Unit returns a unit bound before this one (see Binder.Needs), or
	// false.
	Unit func(name string) (hw.Unit, bool)
}

// Binder is a unit whose cost depends on the SoC around it: the shared
// memory's clock, or other units it runs part of its work on. The SoC binds
// such units with Bind instead of At, after the units Needs names.
type Binder interface {
	hw.Scalable
	Bind(p hw.OperatingPoint, env Env) (hw.Unit, error)
	Needs() []string
}

// KernelCoster is a unit that prices kernels one by one: a mapping can then
// split layers into kernel groups (aggregation, combination) on it, and
// other units can fall back to it. KernelCost runs k on the unit's own
// engine (an unsupported class is an error, with no fallback); RunKernels
// runs a sequence as Run runs a work's kernels.
type KernelCoster interface {
	hw.Unit
	KernelCost(k workload.Kernel) (hw.Cost, error)
	RunKernels(ks []workload.Kernel) (hw.Cost, error)
}

// Transferer is a unit that prices its side of a hand-off: half the SoC's
// hand-off latency plus moving bytes between the unit and shared memory at
// the rate the unit reaches, with the power it draws meanwhile. A unit
// without it moves data at the memory's full bandwidth and draws nothing.
type Transferer interface {
	Transfer(bytes int64) hw.Cost
}

// DirectedTransferer is a unit whose sides of a hand-off differ by
// direction: receiving work (TransferIn) and handing it over
// (TransferOut). Entry is the cost of starting a frame's work on it (a
// DLA's first loadable submission). It takes precedence over Transferer.
type DirectedTransferer interface {
	TransferIn(bytes int64) hw.Cost
	TransferOut(bytes int64) hw.Cost
	Entry() hw.Cost
}

// Phase is a stretch of a segment's execution on one unit.
type Phase struct {
	Unit string
	Cost hw.Cost
	// Kernels, when the unit plans kernel by kernel (Roofline), are the
	// costs of the phase's kernels in order (fused ones left out): they
	// add up to Cost. A co-run (CoRun) sends each kernel's DRAM bytes when
	// that kernel runs.
	Kernels []hw.Cost
}

// Phaser is a unit that runs part of its work on other units (a DLA falling
// back to the GPU): Phases appends, in order, what each unit did.
type Phaser interface {
	Phases(ks []workload.Kernel, dst []Phase) ([]Phase, error)
}

// DAGPlanner is a unit that plans a run of kernels with their data flow
// (Roofline): PlanDAG says which engine runs each kernel, what fuses into
// what and what each costs, crossings included (see Roofline.PlanDAG for
// prod). The evaluator prices a segment on such a unit from its plan with
// the segment's producers, plans consecutive segments of one block mapped
// to it as one run (fusion, buffer and cache across their borders) and
// reports layers from the plan; other units are priced segment by
// segment (Phaser, KernelCoster, Run).
type DAGPlanner interface {
	hw.Unit
	PlanDAG(ks []workload.Kernel, prod [][]int, dst []Planned) ([]Planned, error)
}

// SoC is a set of compute units sharing one memory. Units are hw.Scalable;
// those that also implement Binder see the memory and the other units.
// Roofline units come from a Spec; any other hw.Scalable (a MAESTRO-like
// DSA, a measured table) plugs in with Add.
type SoC struct {
	name  string
	mem   MemorySpec
	cpu   CPUSpec
	modes []PowerMode
	units []hw.Scalable
	names []string
	npts  []int // operating points per unit
	cores []int // cores per unit (0: not divisible)
}

// New returns the SoC a spec describes: one Roofline unit per UnitSpec.
func New(spec Spec) (*SoC, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(spec.Units, func(u UnitSpec) bool { _, ok := u.Precisions[spec.Precision]; return ok }) {
		var err error
		if spec, err = spec.WithPrecision(spec.Precision); err != nil {
			return nil, err
		}
	}
	s := &SoC{name: spec.Name, mem: spec.Memory, cpu: spec.CPU, modes: slices.Clone(spec.PowerModes)}
	if s.mem.Name == "" {
		s.mem.Name = MemoryName
	}
	for i := range spec.Units {
		r, err := newRoofline(&spec.Units[i], s.mem, &s.cpu)
		if err != nil {
			return nil, err
		}
		if err := s.Add(r); err != nil {
			return nil, err
		}
		s.cores[len(s.cores)-1] = max(spec.Units[i].Cores, 1)
	}
	// Standalone fallbacks (Unit("dla").Run) use the targets at their
	// highest points.
	for i, u := range s.units {
		if r, ok := u.(*Roofline); ok && r.spec.Fallback != "" {
			fb, _ := s.Unit(r.spec.Fallback)
			r2 := *r
			r2.fallback = fb.(*Roofline)
			s.units[i] = &r2
		}
	}
	if err := s.addDSAs(spec.DSAs, spec.dir); err != nil {
		return nil, err
	}
	return s, nil
}

// NewShared returns a SoC of no units around memory mem: units plug in
// with Add (the MAESTRO DSAs of MaGNAS Section 5.7.2, which no Spec
// describes).
func NewShared(name string, mem MemorySpec) (*SoC, error) {
	if mem.Name == "" {
		mem.Name = MemoryName
	}
	if err := mem.validate(); err != nil {
		return nil, err
	}
	return &SoC{name: name, mem: mem}, nil
}

// Default returns the default SoC: the Jetson AGX Xavier of DefaultSpec.
func Default() *SoC {
	s, err := New(DefaultSpec())
	if err != nil {
		panic("soc: default spec: " + err.Error()) // caught by TestDefaultSpec
	}
	return s
}

// Load returns the SoC of a spec file.
func Load(path string) (*SoC, error) {
	spec, err := LoadSpec(path)
	if err != nil {
		return nil, err
	}
	return New(spec)
}

// Add plugs a unit into the SoC. Its name must be new (and not the
// memory's), and it needs at least one operating point.
func (s *SoC) Add(u hw.Scalable) error {
	if u == nil {
		return errors.New("soc: Add: nil unit")
	}
	name := u.Name()
	switch {
	case name == "":
		return errors.New("soc: Add: unit without a name")
	case name == s.mem.Name || slices.Contains(s.names, name) || (s.cpu.present() && name == s.cpu.Name):
		return fmt.Errorf("soc: Add: name %q already used", name)
	case len(u.OperatingPoints()) == 0:
		return fmt.Errorf("soc: Add: unit %s has no operating points", name)
	}
	if err := s.checkNewName(name); err != nil {
		return err
	}
	s.units = append(s.units, u)
	s.names = append(s.names, name)
	s.npts = append(s.npts, len(u.OperatingPoints()))
	s.cores = append(s.cores, 0)
	return nil
}

// checkNewName refuses a unit name that --mapping or --dvfs could not
// address: one holding a separator of theirs (',', '=', ' ', ';', ':',
// '/', '#'), or one that is a prefix of another unit's name or has one
// as its prefix, case-insensitively ("g" beside "gpu" would take over the
// G shorthand; "GPU" beside "gpu" is the same name).
func (s *SoC) checkNewName(name string) error {
	if i := strings.IndexFunc(name, func(r rune) bool { return strings.ContainsRune(",= \t\n\r;:/#", r) }); i >= 0 {
		return fmt.Errorf("soc: unit name %q holds %q, which --mapping and --dvfs read as a separator: use letters, digits, '-' and '_'", name, name[i])
	}
	low := strings.ToLower(name)
	for _, n := range append([]string{s.mem.Name}, s.names...) {
		o := strings.ToLower(n)
		if strings.HasPrefix(o, low) || strings.HasPrefix(low, o) {
			return fmt.Errorf("soc: unit name %q and %q: one is a prefix of the other (or they differ in case only), so a mapping could not tell them apart", name, n)
		}
	}
	return nil
}

// Name returns the SoC's name.
func (s *SoC) Name() string { return s.name }

// Units returns the unit names in order: mappings index this list.
func (s *SoC) Units() []string { return slices.Clone(s.names) }

// Unit returns the unit called name.
func (s *SoC) Unit(name string) (hw.Scalable, bool) {
	i := slices.Index(s.names, name)
	if i < 0 {
		return nil, false
	}
	return s.units[i], true
}

// Memory returns the shared memory's spec.
func (s *SoC) Memory() MemorySpec { return s.mem }

// UnitIndex returns the index of the unit called name (case ignored) or
// whose name starts with the given prefix, when only one does ("G" for
// "gpu").
func (s *SoC) UnitIndex(name string) (int, error) {
	for i, n := range s.names {
		if strings.EqualFold(n, name) {
			return i, nil
		}
	}
	match := -1
	for i, n := range s.names {
		if name != "" && len(name) < len(n) && strings.EqualFold(n[:len(name)], name) {
			if match >= 0 {
				return 0, fmt.Errorf("soc: unit %q is ambiguous (%s, %s)", name, s.names[match], n)
			}
			match = i
		}
	}
	if match < 0 {
		return 0, fmt.Errorf("soc: unknown unit %q (have %s)", name, strings.Join(s.names, ", "))
	}
	return match, nil
}

// Setting is a DVFS setting resolved against a SoC: an operating point per
// unit and for the memory, as indices into their tables.
type Setting struct {
	units []int
	mem   int
	// cpu is the CPU's operating point, cpuCores its cores online; cores
	// the online cores per unit (0 for a unit without cores).
	cpu, cpuCores int
	cores         []int
}

// Setting resolves d: every key must name a unit, the memory or the CPU,
// and every clock an operating point of its table. Every core is online
// (see ModeSetting for power modes).
func (s *SoC) Setting(d DVFS) (Setting, error) {
	set := Setting{units: make([]int, len(s.units)), mem: len(s.mem.PointsMHz) - 1, cores: slices.Clone(s.cores)}
	if s.cpu.present() {
		set.cpu, set.cpuCores = len(s.cpu.PointsMHz)-1, s.cpu.Cores
	}
	for i, u := range s.units {
		set.units[i] = len(u.OperatingPoints()) - 1
	}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		mhz := d[k]
		if strings.EqualFold(k, s.mem.Name) {
			i, err := findPoint(s.mem.Name, s.mem.PointsMHz, mhz)
			if err != nil {
				return Setting{}, err
			}
			set.mem = i
			continue
		}
		if s.cpu.present() && strings.EqualFold(k, s.cpu.Name) {
			i, err := findPoint(s.cpu.Name, s.cpu.PointsMHz, mhz)
			if err != nil {
				return Setting{}, err
			}
			set.cpu = i
			continue
		}
		ui := slices.IndexFunc(s.names, func(n string) bool { return strings.EqualFold(n, k) })
		if ui < 0 {
			return Setting{}, fmt.Errorf("soc: dvfs: unknown clock domain %q (have %s)", k, strings.Join(s.Domains(), ", "))
		}
		i, err := pointIndex(s.names[ui], s.units[ui].OperatingPoints(), hw.OperatingPoint{FreqHz: mhz * 1e6})
		if err != nil {
			return Setting{}, err
		}
		set.units[ui] = i
	}
	return set, nil
}

// DVFS returns the clocks of a setting.
func (s *SoC) DVFS(set Setting) DVFS {
	d := DVFS{s.mem.Name: s.mem.PointsMHz[set.mem]}
	if s.cpu.present() {
		d[s.cpu.Name] = s.cpu.PointsMHz[set.cpu]
	}
	for i, u := range s.units {
		d[s.names[i]] = u.OperatingPoints()[set.units[i]].FreqHz / 1e6
	}
	return d
}

// key returns a number unique to set among the SoC's settings.
func (s *SoC) key(set Setting) int {
	k := set.mem
	for i, n := range s.npts {
		k = k*n + set.units[i]
		if c := s.cores[i]; c > 0 {
			k = k*(c+1) + set.cores[i]
		}
	}
	if s.cpu.present() {
		k = (k*len(s.cpu.PointsMHz)+set.cpu)*(s.cpu.Cores+1) + set.cpuCores
	}
	return k
}

// env returns the environment of a setting (without the unit lookup).
func (s *SoC) env(set Setting) Env {
	hz := s.mem.PointsMHz[set.mem] * 1e6
	return Env{
		MemoryHz:     hz,
		BytesPerSec:  s.mem.BytesPerCycle * hz,
		PJPerByte:    s.mem.PJPerByte,
		LatencyPS:    int64(math.Round(s.mem.LatencyNS * 1e3)),
		HandoffPS:    int64(math.Round(s.mem.HandoffUS * 1e6)),
		ElementBytes: int64(s.mem.ElementBytes),
		// The CPU enqueues work on one core whatever the others do.
		LaunchFloorPS: s.cpu.launchPS(set.cpu),
		GlueFloorPS:   s.cpu.gluePS(set.cpu),
	}
}

// Bind returns every unit at its operating point of set, in SoC order,
// and the environment they were bound in. Binders are bound after the
// units they need.
func (s *SoC) Bind(set Setting) ([]hw.Unit, Env, error) {
	bound, errs, env, err := s.bind(set)
	if err == nil {
		err = errors.Join(errs...)
	}
	if err != nil {
		return nil, Env{}, err
	}
	return bound, env, nil
}

// bind is Bind keeping going past units that fail: their errors are in
// errs (by unit), their entries of bound nil.
func (s *SoC) bind(set Setting) (bound []hw.Unit, errs []error, env Env, err error) {
	if len(set.units) != len(s.units) {
		return nil, nil, Env{}, errors.New("soc: setting of another SoC")
	}
	env = s.env(set)
	bound = make([]hw.Unit, len(s.units))
	errs = make([]error, len(s.units))
	env.Unit = func(name string) (hw.Unit, bool) {
		i := slices.Index(s.names, name)
		if i < 0 || bound[i] == nil {
			return nil, false
		}
		return bound[i], true
	}
	done := func(i int) bool { return bound[i] != nil || errs[i] != nil }
	for {
		progress, left := false, 0
		for i, u := range s.units {
			if done(i) {
				continue
			}
			p := u.OperatingPoints()[set.units[i]]
			b, isBinder := u.(Binder)
			if !isBinder {
				v, err := u.At(p)
				if err != nil {
					errs[i] = fmt.Errorf("soc: %s: %w", s.names[i], err)
				}
				bound[i], progress = v, true
				continue
			}
			ready := true
			for _, n := range b.Needs() {
				j := slices.Index(s.names, n)
				switch {
				case j < 0:
					errs[i] = fmt.Errorf("soc: %s needs unit %q, which the SoC lacks", s.names[i], n)
				case errs[j] != nil:
					errs[i] = fmt.Errorf("soc: %s needs unit %s: %w", s.names[i], n, errs[j])
				case bound[j] == nil:
					ready = false
				}
			}
			if errs[i] != nil {
				progress = true
				continue
			}
			if !ready {
				left++
				continue
			}
			uenv := env
			if s.cores[i] > 0 && set.cores[i] != s.cores[i] {
				uenv.Cores = set.cores[i]
			}
			v, err := b.Bind(p, uenv)
			if err != nil {
				errs[i] = fmt.Errorf("soc: %s: %w", s.names[i], err)
			}
			bound[i], progress = v, true
		}
		if left == 0 {
			return bound, errs, env, nil
		}
		if !progress {
			for i := range s.units {
				if !done(i) {
					errs[i] = fmt.Errorf("soc: %s: units need each other in a cycle", s.names[i])
				}
			}
			return bound, errs, env, nil
		}
	}
}
