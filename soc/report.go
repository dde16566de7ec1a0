package soc

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"gnnsim/hw"
)

// Report is one evaluation of a model mapped onto a SoC as 'gnnsim soc
// eval' and 'gnnsim eval --unit soc' print it: the JSON object, the
// Parquet row (without Layers) and, by WriteText, the text.
type Report struct {
	Model       string  `json:"model" parquet:"model"`
	GraphOp     string  `json:"graph_op" parquet:"graph_op"`
	SoC         string  `json:"soc" parquet:"soc"`
	Granularity string  `json:"granularity" parquet:"granularity"`
	Segments    int     `json:"segments" parquet:"segments"`
	Mapping     string  `json:"mapping" parquet:"mapping"`
	DVFS        string  `json:"dvfs" parquet:"dvfs"`
	LatencyMS   float64 `json:"latency_ms" parquet:"latency_ms"`
	EnergyMJ    float64 `json:"energy_mj" parquet:"energy_mj"`
	PowerW      float64 `json:"power_w" parquet:"power_w"`
	Transitions int     `json:"transitions" parquet:"transitions"`
	TransferMS  float64 `json:"transfer_ms" parquet:"transfer_ms"`
	DRAMBytes   int64   `json:"dram_bytes" parquet:"dram_bytes"`
	// Per unit, in the order of Units.
	Units  []string  `json:"units" parquet:"units,list"`
	BusyMS []float64 `json:"busy_ms" parquet:"busy_ms,list"`

	// Pipelined run (Frames > 0).
	Frames        int       `json:"frames" parquet:"frames"`
	InFlight      int       `json:"in_flight" parquet:"in_flight"`
	ThroughputFPS float64   `json:"throughput_fps" parquet:"throughput_fps"`
	LatencyP50MS  float64   `json:"latency_p50_ms" parquet:"latency_p50_ms"`
	LatencyP99MS  float64   `json:"latency_p99_ms" parquet:"latency_p99_ms"`
	MemoryStallMS float64   `json:"memory_stall_ms" parquet:"memory_stall_ms"`
	Utilization   []float64 `json:"utilization" parquet:"utilization,list"`

	PowerMode  string  `json:"power_mode,omitempty" parquet:"power_mode"`
	PlatformMJ float64 `json:"platform_mj" parquet:"platform_mj"`
	// Per layer (ReportOptions.Layers).
	Layers []LayerReport `json:"layers,omitempty" parquet:"-"`
}

// LayerReport is one layer of a Report.
type LayerReport struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Block     string  `json:"block"`
	Unit      string  `json:"unit"`
	TimeMS    float64 `json:"time_ms"`
	EnergyMJ  float64 `json:"energy_mj"`
	FusedInto string  `json:"fused_into,omitempty"`
}

// ReportOptions say what a Report holds besides one frame's costs.
type ReportOptions struct {
	// GraphOp and PowerMode are the names the report gives the model's
	// graph op and the power mode the setting runs under.
	GraphOp, PowerMode string
	// Layers adds one row per layer.
	Layers bool
	// Frames > 0 also streams that many frames through the mapping
	// (Evaluator.Pipeline with InFlight and IntervalMS).
	Frames, InFlight int
	IntervalMS       float64
}

// Report evaluates mapping m at set and reports it; model names the model.
func (e *Evaluator) Report(model string, m Mapping, set Setting, o ReportOptions) (Report, error) {
	s := e.soc
	var r Result
	if err := e.EvaluateAt(&r, m, set); err != nil {
		return Report{}, err
	}
	rec := Report{Model: model, GraphOp: o.GraphOp, SoC: s.Name(), Granularity: e.gran.String(), Segments: len(e.segs),
		Mapping: s.FormatMapping(m), DVFS: s.DVFS(set).String(), LatencyMS: r.LatencyMS(), EnergyMJ: r.EnergyMJ(),
		PowerW: r.PowerW(), Transitions: r.Transitions, TransferMS: float64(r.TransferPS) * 1e-9, DRAMBytes: r.DRAMBytes,
		Units: s.Units(), PowerMode: o.PowerMode, PlatformMJ: r.PlatformPJ * 1e-9}
	if o.Layers {
		ls, err := e.Layers(m, set)
		if err != nil {
			return Report{}, err
		}
		for _, l := range ls {
			rec.Layers = append(rec.Layers, LayerReport{Name: l.Name, Kind: l.Kind, Block: l.Block, Unit: l.Unit,
				TimeMS: float64(l.TimePS) * 1e-9, EnergyMJ: l.EnergyPJ * 1e-9, FusedInto: l.FusedInto})
		}
	}
	for _, b := range r.BusyPS {
		rec.BusyMS = append(rec.BusyMS, float64(b)*1e-9)
	}
	if o.Frames > 0 {
		p, err := e.Pipeline(m, set, PipelineOptions{Frames: o.Frames, InFlight: o.InFlight, IntervalPS: hw.MSToPS(o.IntervalMS)})
		if err != nil {
			return Report{}, err
		}
		rec.Frames, rec.InFlight, rec.ThroughputFPS = p.Frames, p.InFlight, p.ThroughputFPS()
		rec.LatencyP50MS, rec.LatencyP99MS = float64(p.LatencyP50PS)*1e-9, float64(p.LatencyP99PS)*1e-9
		rec.MemoryStallMS, rec.Utilization = float64(p.MemoryStallPS)*1e-9, p.Utilization
	}
	return rec, nil
}

// WriteText prints the report as aligned lines.
func (rec *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "model\t%s (%d %s segments) on %s\n", rec.Model, rec.Segments, rec.Granularity, rec.SoC)
	fmt.Fprintf(tw, "dvfs\t%s\n", rec.DVFS)
	fmt.Fprintf(tw, "latency\t%.3f ms\n", rec.LatencyMS)
	fmt.Fprintf(tw, "energy\t%.3f mJ\n", rec.EnergyMJ)
	fmt.Fprintf(tw, "power\t%.3f W\n", rec.PowerW)
	fmt.Fprintf(tw, "transitions\t%d (%.3f ms moving feature maps)\n", rec.Transitions, rec.TransferMS)
	if rec.PowerMode != "" {
		fmt.Fprintf(tw, "power mode\t%s\n", rec.PowerMode)
	}
	for i, u := range rec.Units {
		fmt.Fprintf(tw, "busy %s\t%.3f ms\n", u, rec.BusyMS[i])
	}
	if rec.Frames > 0 {
		fmt.Fprintf(tw, "pipelined\t%d frames, %d in flight\n", rec.Frames, rec.InFlight)
		fmt.Fprintf(tw, "throughput\t%.2f frames/s\n", rec.ThroughputFPS)
		fmt.Fprintf(tw, "latency p50 / p99\t%.3f / %.3f ms\n", rec.LatencyP50MS, rec.LatencyP99MS)
		for i, u := range rec.Units {
			fmt.Fprintf(tw, "utilisation %s\t%.1f %%\n", u, 100*rec.Utilization[i])
		}
		fmt.Fprintf(tw, "memory stall\t%.3f ms\n", rec.MemoryStallMS)
	}
	if len(rec.Layers) > 0 {
		fmt.Fprintf(tw, "\nlayer\tkind\tunit\tms\tmJ\tfused into\n")
		for _, l := range rec.Layers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.4f\t%.4f\t%s\n", l.Name, l.Kind, l.Unit, l.TimeMS, l.EnergyMJ, l.FusedInto)
		}
	}
	return tw.Flush()
}

// SegmentList names segments for an error message, eliding the middle of
// a long list.
func SegmentList(segs []Segment) string {
	names := make([]string, len(segs))
	for i, sg := range segs {
		names[i] = fmt.Sprintf("%d:%s", i, sg.Name)
	}
	if len(names) > 40 {
		names = append(append(names[:20:20], fmt.Sprintf("... %d more ...", len(names)-30)), names[len(names)-10:]...)
	}
	return strings.Join(names, ", ")
}

// Powered is a unit that states the power it draws at its operating
// point: idle (leakage and clock tree, drawn while on) and dynamic (at
// full activity), in W. Roofline units offer it; any unit that does gets
// its operating points' power in a UnitsReport.
type Powered interface {
	PowerW() (idle, dynamic float64)
}

// Specified is a unit built from a UnitSpec (peak rate, per-class
// efficiency, launch cost, memory share, fallback), which it returns.
type Specified interface {
	Spec() UnitSpec
}

// PointReport is one operating point of a unit or of the memory.
type PointReport struct {
	MHz      float64 `json:"mhz"`
	Volts    float64 `json:"volts,omitempty"`
	IdleW    float64 `json:"idle_w,omitempty"`
	DynamicW float64 `json:"dynamic_w,omitempty"`
	GBs      float64 `json:"bandwidth_gb_s,omitempty"`
}

// UnitReport describes one unit of a SoC.
type UnitReport struct {
	Name        string             `json:"name"`
	PeakTFLOPS  float64            `json:"peak_tflops,omitempty"`
	Efficiency  map[string]float64 `json:"efficiency,omitempty"`
	LaunchUS    float64            `json:"launch_us"`
	MemoryShare float64            `json:"memory_share,omitempty"`
	Fallback    string             `json:"fallback,omitempty"`
	Points      []PointReport      `json:"points"`
}

// UnitsReport describes a SoC: its units with their operating points and
// power, the shared memory, the CPU cluster and the power modes ('gnnsim
// soc units').
type UnitsReport struct {
	SoC        string        `json:"soc"`
	Units      []UnitReport  `json:"units"`
	Memory     string        `json:"memory"`
	MemPoints  []PointReport `json:"memory_points"`
	HandoffUS  float64       `json:"handoff_us"`
	CPU        string        `json:"cpu,omitempty"`
	CPUCores   int           `json:"cpu_cores,omitempty"`
	CPUPoints  []float64     `json:"cpu_points_mhz,omitempty"`
	PowerModes []PowerMode   `json:"power_modes,omitempty"`
}

// DescribeUnits reports s's units, memory, CPU and power modes. A unit's
// spec fields come from Specified, its points' power from Powered (the
// unit at each point): capabilities, so any unit offering them is
// described alike.
func DescribeUnits(s *SoC) UnitsReport {
	mem := s.Memory()
	rec := UnitsReport{SoC: s.Name(), Memory: mem.Name, HandoffUS: mem.HandoffUS, PowerModes: s.PowerModes()}
	if c := s.CPU(); c.Cores > 0 {
		rec.CPU, rec.CPUCores, rec.CPUPoints = c.Name, c.Cores, c.PointsMHz
	}
	for _, mhz := range mem.PointsMHz {
		rec.MemPoints = append(rec.MemPoints, PointReport{MHz: mhz, GBs: mem.BytesPerCycle * mhz * 1e-3})
	}
	for _, name := range s.Units() {
		u, _ := s.Unit(name)
		ur := UnitReport{Name: name}
		if sp, ok := u.(Specified); ok {
			sp := sp.Spec()
			ur.PeakTFLOPS, ur.Efficiency, ur.LaunchUS = sp.PeakFLOPS*1e-12, sp.Efficiency, sp.LaunchUS
			ur.MemoryShare, ur.Fallback = sp.MemoryShare, sp.Fallback
		}
		for _, p := range u.OperatingPoints() {
			pt := PointReport{MHz: p.FreqHz / 1e6, Volts: p.Volts}
			if v, err := u.At(p); err == nil {
				if pw, ok := v.(Powered); ok {
					pt.IdleW, pt.DynamicW = pw.PowerW()
				}
			}
			ur.Points = append(ur.Points, pt)
		}
		rec.Units = append(rec.Units, ur)
	}
	return rec
}

// WriteText prints the description as aligned lines.
func (rec *UnitsReport) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "SoC %s\n", rec.SoC)
	for _, u := range rec.Units {
		fmt.Fprintf(tw, "\nunit %s", u.Name)
		if u.PeakTFLOPS > 0 {
			fmt.Fprintf(tw, ": %.3g TFLOPS peak, launch %g us, memory share %g", u.PeakTFLOPS, u.LaunchUS, u.MemoryShare)
		}
		if u.Fallback != "" {
			fmt.Fprintf(tw, ", falls back to %s", u.Fallback)
		}
		fmt.Fprintln(tw)
		if len(u.Efficiency) > 0 {
			parts := []string{}
			for _, k := range slices.Sorted(maps.Keys(u.Efficiency)) {
				parts = append(parts, fmt.Sprintf("%s %g", k, u.Efficiency[k]))
			}
			fmt.Fprintf(tw, "  efficiency\t%s\n", strings.Join(parts, ", "))
		}
		fmt.Fprintf(tw, "  MHz\tV\tidle W\tdynamic W\n")
		for _, p := range u.Points {
			fmt.Fprintf(tw, "  %g\t%.3f\t%.2f\t%.2f\n", p.MHz, p.Volts, p.IdleW, p.DynamicW)
		}
	}
	fmt.Fprintf(tw, "\nmemory %s (hand-off %g us)\n  MHz\tGB/s\n", rec.Memory, rec.HandoffUS)
	for _, p := range rec.MemPoints {
		fmt.Fprintf(tw, "  %g\t%.1f\n", p.MHz, p.GBs)
	}
	if rec.CPU != "" {
		fmt.Fprintf(tw, "\ncpu %s: %d cores, %g-%g MHz (%d points)\n", rec.CPU, rec.CPUCores, rec.CPUPoints[0], rec.CPUPoints[len(rec.CPUPoints)-1], len(rec.CPUPoints))
	}
	if len(rec.PowerModes) > 0 {
		fmt.Fprintf(tw, "\npower mode\tid\tbudget W\tcaps MHz\tcores\n")
		for _, m := range rec.PowerModes {
			budget := "none"
			if m.BudgetW > 0 {
				budget = fmt.Sprintf("%g", m.BudgetW)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", m.Name, m.ID, budget, sortedKV(m.CapsMHz), sortedKV(m.Cores))
		}
	}
	return tw.Flush()
}

// sortedKV formats a map as "k=v,..." in key order.
func sortedKV[V int | float64](m map[string]V) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m[k])
	}
	return strings.Join(parts, ",")
}
