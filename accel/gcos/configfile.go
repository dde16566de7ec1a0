package gcos

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/strictyaml"
)

// This file is the YAML form of a design (a Config): what 'gnnsim gcos
// eval --config' reads and 'gnnsim gcos config default' prints.

// MaxConfigFileBytes bounds a design file.
const MaxConfigFileBytes = 1 << 16

// The platform values a design file (or a sweep's grid) may give: far
// beyond any FPGA either way, close enough that cycle counts stay finite.
const (
	MinClockMHz, MaxClockMHz float64 = 1, 1e5
	MinHBMGBps, MaxHBMGBps   float64 = 1e-3, 1e6
)

// ConfigFile is the YAML form of a Config. Absent platform keys take the
// VCU128's values (config.go); every other key is required.
type ConfigFile struct {
	Name         string    `yaml:"name"`
	Allocation   string    `yaml:"allocation"`    // rows | columns
	Scheme       string    `yaml:"scheme"`        // parallel (G-CoS) | hybrid (HyGCN-like, 2 engines)
	Repurpose    bool      `yaml:"repurpose"`     // buffers hold intermediate results
	ShareWeights bool      `yaml:"share_weights"` // weight buffers interconnected
	ClockMHz     *float64  `yaml:"clock_mhz"`     // absent: the VCU128's; 0 is refused
	HBMGBps      *float64  `yaml:"hbm_gb_per_s"`  // absent: the VCU128's; 0 is refused
	HBMLatency   *int64    `yaml:"hbm_latency_cycles"`
	Subs         []SubFile `yaml:"subs"`
}

// SubFile is one sub-accelerator of a ConfigFile.
type SubFile struct {
	PEs    int    `yaml:"pes"`
	Tiling string `yaml:"tiling"` // weight | feature | output
	Kernel string `yaml:"kernel"` // inner | outer | row | column
	TileM  int    `yaml:"tile_m"`
	TileK  int    `yaml:"tile_k"`
	TileN  int    `yaml:"tile_n"`
}

// ParseTiling reads a tiling mode by its name (weight, feature, output).
func ParseTiling(s string) (TilingMode, error) {
	for i, n := range tilingNames {
		if strings.EqualFold(s, n) {
			return TilingMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tiling mode %q (want %s)", s, strings.Join(tilingNames[:], ", "))
}

// ParseKernel reads a kernel mode by its name (inner, outer, row, column).
func ParseKernel(s string) (KernelMode, error) {
	for i, n := range kernelNames {
		if strings.EqualFold(s, n) {
			return KernelMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown kernel mode %q (want %s)", s, strings.Join(kernelNames[:], ", "))
}

// ParseAllocation reads an allocation scheme by its name (rows, columns).
func ParseAllocation(s string) (Allocation, error) {
	switch strings.ToLower(s) {
	case "rows":
		return ByRows, nil
	case "columns":
		return ByColumns, nil
	}
	return 0, fmt.Errorf("unknown allocation %q (want rows or columns)", s)
}

// ParseConfig decodes and checks a design file. Unknown keys, a mode not
// in Table I, a size out of range and a negative platform value are errors
// naming the key.
func ParseConfig(data []byte) (Config, error) {
	if len(data) > MaxConfigFileBytes {
		return Config{}, fmt.Errorf("gcos: config file of %d bytes, want at most %d", len(data), MaxConfigFileBytes)
	}
	var f ConfigFile
	if err := strictyaml.Decode(data, &f); err != nil {
		if errors.Is(err, strictyaml.ErrEmpty) {
			return Config{}, errors.New("gcos: config file: empty")
		}
		return Config{}, fmt.Errorf("gcos: config file: %w", err)
	}
	return f.Config()
}

// ReadConfig reads a design file.
func ReadConfig(path string) (Config, error) {
	data, err := boundedio.ReadFile(path, boundedio.Spec)
	if err != nil {
		return Config{}, fmt.Errorf("gcos: config file: %w", err)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Config returns the design f describes, checked (Config.Validate).
func (f ConfigFile) Config() (Config, error) {
	fail := func(key, format string, args ...any) error {
		return fmt.Errorf("gcos: config file: %s: %s", key, fmt.Sprintf(format, args...))
	}
	c := Config{Name: f.Name, Repurpose: f.Repurpose, ShareWeights: f.ShareWeights}
	if f.Allocation != "" {
		a, err := ParseAllocation(f.Allocation)
		if err != nil {
			return Config{}, fail("allocation", "%v", err)
		}
		c.Alloc = a
	}
	switch strings.ToLower(f.Scheme) {
	case "", "parallel":
		c.Scheme = Parallel
	case "hybrid":
		c.Scheme = Hybrid
	default:
		return Config{}, fail("scheme", "%q, want parallel or hybrid", f.Scheme)
	}
	for _, x := range [...]struct {
		key      string
		v        *float64
		min, max float64
		dst      *float64
		scale    float64
	}{{"clock_mhz", f.ClockMHz, MinClockMHz, MaxClockMHz, &c.ClockHz, 1e6}, {"hbm_gb_per_s", f.HBMGBps, MinHBMGBps, MaxHBMGBps, &c.HBMBytesPerSec, 1e9}} {
		if x.v == nil {
			*x.dst = 0 // the VCU128's (New)
			continue
		}
		if !(*x.v >= x.min && *x.v <= x.max) {
			return Config{}, fail(x.key, "%v, want %g..%g (leave the key out for the VCU128's)", *x.v, x.min, x.max)
		}
		*x.dst = *x.v * x.scale
	}
	if f.HBMLatency != nil {
		switch l := *f.HBMLatency; {
		case l < 0 || l > 1<<20:
			return Config{}, fail("hbm_latency_cycles", "%d, want 0..%d", l, 1<<20)
		case l == 0:
			c.HBMLatency = -1 // none (Config's 0 is the default)
		default:
			c.HBMLatency = l
		}
	}
	if len(f.Subs) == 0 || len(f.Subs) > MaxSubs {
		return Config{}, fail("subs", "%d sub-accelerators, want 1..%d", len(f.Subs), MaxSubs)
	}
	for i, s := range f.Subs {
		key := fmt.Sprintf("subs[%d]", i)
		t, err := ParseTiling(s.Tiling)
		if err != nil {
			return Config{}, fail(key+".tiling", "%v", err)
		}
		k, err := ParseKernel(s.Kernel)
		if err != nil {
			return Config{}, fail(key+".kernel", "%v", err)
		}
		if s.PEs < 1 || s.PEs > maxPEs {
			return Config{}, fail(key+".pes", "%d, want 1..%d", s.PEs, maxPEs)
		}
		for _, x := range [...]struct {
			key string
			v   int
		}{{"tile_m", s.TileM}, {"tile_k", s.TileK}, {"tile_n", s.TileN}} {
			if x.v < 1 || x.v > maxTile {
				return Config{}, fail(key+"."+x.key, "%d, want 1..%d", x.v, maxTile)
			}
		}
		c.Subs = append(c.Subs, Sub{PEs: s.PEs, Tiling: t, Kernel: k, TileM: s.TileM, TileK: s.TileK, TileN: s.TileN})
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("gcos: config file: %w", err)
	}
	return c, nil
}

// File returns c in its YAML form. The per-PE knobs of the baselines
// (Rebalance, Utilization, Disperse, CSC) and the budget have no keys: a
// design with them set is refused.
func (c Config) File() (ConfigFile, error) {
	c.defaults()
	f := ConfigFile{Name: c.Name, Allocation: c.Alloc.String(), Scheme: "parallel", Repurpose: c.Repurpose, ShareWeights: c.ShareWeights,
		ClockMHz: ptr(c.ClockHz / 1e6), HBMGBps: ptr(c.HBMBytesPerSec / 1e9)}
	if c.Scheme == Hybrid {
		f.Scheme = "hybrid"
	}
	if c.Budget != VCU128 {
		return f, fmt.Errorf("gcos: design %s has its own budget; the config file has no budget key", c.Name)
	}
	lat := c.HBMLatency
	f.HBMLatency = &lat
	for i, s := range c.Subs {
		if s.Rebalance || s.Utilization != 0 || s.Disperse || s.CSC {
			return f, fmt.Errorf("gcos: design %s sub-accelerator %d rebalances, disperses or stores CSC (a baseline's engine); the config file has no key for it", c.Name, i)
		}
		f.Subs = append(f.Subs, SubFile{PEs: s.PEs, Tiling: s.Tiling.String(), Kernel: s.Kernel.String(), TileM: s.TileM, TileK: s.TileK, TileN: s.TileN})
	}
	return f, nil
}

// FormatConfig returns c as a commented design file that ParseConfig
// reads back to c.
func FormatConfig(c Config) ([]byte, error) {
	f, err := c.File()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# A design of the G-CoS multi-sub-accelerator template (seed 001, Sec. IV-C,\n")
	p("# Table I; package accel/gcos). Read by 'gnnsim gcos eval --config FILE'.\n")
	p("name: %s\n", yamlString(f.Name))
	p("allocation: %s        # rows | columns: how each kernel is split among the sub-accelerators (in proportion to PEs)\n", f.Allocation)
	p("scheme: %s       # parallel (G-CoS: every sub-accelerator takes a share of every kernel) | hybrid (HyGCN-like: 2 engines)\n", f.Scheme)
	p("repurpose: %v       # buffers hold a kernel's output for the next kernel when it fits (needs one tiling and kernel mode)\n", f.Repurpose)
	p("share_weights: %v   # weight buffers interconnected: a B operand all need is fetched once (needs one tiling and kernel mode)\n", f.ShareWeights)
	p("clock_mhz: %s         # VCU128 designs run at 330 MHz (seed 001, Sec. V-A)\n", fmtFloat(*f.ClockMHz))
	p("hbm_gb_per_s: %s      # VCU128 HBM, 460 GB/s (seed 001, Sec. V-A)\n", fmtFloat(*f.HBMGBps))
	p("hbm_latency_cycles: %d # HBM access latency in clock cycles (our assumption: ~120 ns); 0 for none\n", *f.HBMLatency)
	p("subs:                  # 1..%d sub-accelerators; the design's budget is %d DSPs (one per PE) and %d MB on chip\n", MaxSubs, DSPLimit, OnChipBytes>>20)
	for _, s := range f.Subs {
		p("  - {pes: %d, tiling: %s, kernel: %s, tile_m: %d, tile_k: %d, tile_n: %d}\n", s.PEs, s.Tiling, s.Kernel, s.TileM, s.TileK, s.TileN)
	}
	p("# pes: 1..%d DSP slices (one 16-bit MAC per cycle each); tiling: weight | feature | output (Fig. 5);\n", maxPEs)
	p("# kernel: inner | outer | row | column (Fig. 4); tile_m, tile_k, tile_n: 1..%d (rows of A and C,\n", maxTile)
	p("# reduction depth, columns of B and C; buffers are double buffered tiles).\n")
	return []byte(b.String()), nil
}

func fmtFloat(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%g", x)
}

// yamlString quotes s when YAML would read it as something else.
func yamlString(s string) string {
	if s == "" || strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\n") || strings.TrimSpace(s) != s {
		return fmt.Sprintf("%q", s)
	}
	return s
}

func ptr[T any](v T) *T { return &v }
