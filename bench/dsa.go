package bench

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gnnsim/soc"
	"gnnsim/soc/maestro"
	"gnnsim/workload"
)

// This file is the dsa unit kind: one MAESTRO-priced DSA (soc.DSA) running
// every layer of a zoo model alone, swept over models x dataflows x PE
// counts x L2 sizes. A design is a point, not a graph: the runner chunks,
// shards and resumes the points.

const dsaUnit = "dsa"

// DSASweepSpec is the dsa: block of a spec. Point p of the sweep is
// models[m] x dataflows[d] x pes[e] x l2_bytes[l] with
// p = ((m*len(dataflows) + d)*len(pes) + e)*len(l2_bytes) + l: models
// vary slowest. The other keys are the same for every point.
type DSASweepSpec struct {
	// Models are zoo model names (gnnsim models).
	Models []string `yaml:"models"`
	// Dataflows are MAESTRO built-ins (kcp_ws, ykp_os, dpt, ...) or .m
	// dataflow files (relative to the working directory), read when the
	// sweep is planned: the spec's hash holds the path, not the file.
	Dataflows []string `yaml:"dataflows"`
	// PEs is the PE-count grid; L2Bytes the L2-size grid (0:
	// unconstrained); default [256] and [0].
	PEs     []int   `yaml:"pes"`
	L2Bytes []int64 `yaml:"l2_bytes"`
	// L1Bytes is the L1 per PE (0: unconstrained), NoCBW the NoC
	// bandwidth in elements per cycle (default soc.DefaultDSANoCBW),
	// NoCHops and HopLatency the NoC's hops and cycles per hop (default 1
	// and 1), WordBytes the element size (0: 1), ClockMHz the clock
	// (default 1000) and StaticW the leakage (default soc.DefaultDSAStaticW;
	// give a negative value for none).
	L1Bytes int64 `yaml:"l1_bytes,omitempty"`
	// Absent keys take their defaults; an explicit 0 (no NoC, no clock)
	// is refused rather than read as "the default".
	NoCBW      *int     `yaml:"noc_bw,omitempty"`
	NoCHops    *int     `yaml:"noc_hops,omitempty"`
	HopLatency *int     `yaml:"hop_latency,omitempty"`
	WordBytes  int      `yaml:"word_bytes,omitempty"`
	ClockMHz   *float64 `yaml:"clock_mhz,omitempty"`
	StaticW    float64  `yaml:"static_w,omitempty"`
	// Granularity is the segmentation of the model (blocks, the default,
	// or layers); on one unit it changes nothing but the segments column.
	Granularity string `yaml:"granularity,omitempty"`
}

// DSARow is one row of a dsa sweep's runs table: one (model, dataflow,
// PEs, L2) point, or what eval --unit dsa prints (see the package doc for
// the columns).
type DSARow struct {
	PointID     int64   `parquet:"point_id" json:"point_id"`
	Model       string  `parquet:"model" json:"model"`
	Dataflow    string  `parquet:"dataflow" json:"dataflow"`
	PEs         int64   `parquet:"pes" json:"pes"`
	L1Bytes     int64   `parquet:"l1_bytes" json:"l1_bytes"`
	L2Bytes     int64   `parquet:"l2_bytes" json:"l2_bytes"`
	NoCBW       int64   `parquet:"noc_bw" json:"noc_bw"`
	ClockMHz    float64 `parquet:"clock_mhz" json:"clock_mhz"`
	Granularity string  `parquet:"granularity" json:"granularity"`
	Segments    int64   `parquet:"segments" json:"segments"`
	Fits        bool    `parquet:"fits" json:"fits"`
	Refused     string  `parquet:"refused" json:"refused"`
	Cycles      int64   `parquet:"cycles" json:"cycles"`
	LatencyPS   int64   `parquet:"latency_ps" json:"latency_ps"`
	LatencyMS   float64 `parquet:"latency_ms" json:"latency_ms"`
	EnergyPJ    float64 `parquet:"energy_pj" json:"energy_pj"`
	EnergyMJ    float64 `parquet:"energy_mj" json:"energy_mj"`
	PowerW      float64 `parquet:"power_w" json:"power_w"`
	DRAMBytes   int64   `parquet:"dram_bytes" json:"dram_bytes"`
}

// EvalDSA runs every segment of model (at granularity g) on the
// standalone DSA of c (soc.StandaloneDSA) and returns its row (PointID 0).
// A kernel whose tiles exceed the DSA's L1 or L2 (maestro.ErrCapacity), or
// that the dataflow cannot map onto its PEs (maestro.ErrMapping: clusters
// larger than the array), is no error: the row has Fits false and Refused
// the reason, and zero costs.
func EvalDSA(model workload.Model, c soc.DSAConfig, g soc.Granularity) (DSARow, error) {
	h := c.Hardware
	r := DSARow{Model: model.Name, Dataflow: c.Dataflow, PEs: int64(h.PEs), L1Bytes: h.L1Bytes, L2Bytes: h.L2Bytes,
		NoCBW: int64(h.NoCBW), ClockMHz: c.ClockHz / 1e6, Granularity: g.String()}
	s, err := soc.StandaloneDSA(c)
	if err != nil {
		return r, err
	}
	e, err := soc.NewEvaluator(s, model, g)
	if err != nil {
		return r, err
	}
	n := len(e.Segments())
	r.Segments = int64(n)
	res, err := e.Evaluate(soc.MapAll(g, 0, n), nil)
	if errors.Is(err, maestro.ErrCapacity) || errors.Is(err, maestro.ErrMapping) {
		r.Refused = err.Error()
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.Fits = true
	r.LatencyPS, r.EnergyPJ, r.DRAMBytes = res.LatencyPS, res.EnergyPJ, res.DRAMBytes
	r.LatencyMS, r.EnergyMJ, r.PowerW = res.LatencyMS(), res.EnergyMJ(), res.PowerW()
	r.Cycles = int64(math.Round(float64(res.LatencyPS) * c.ClockHz * 1e-12))
	return r, nil
}

func dsaKind() UnitKind {
	return UnitKind{
		Name:      dsaUnit,
		Points:    dsaPoints,
		Table:     func(*Spec) Table { return &RowTable[DSARow]{} },
		Evaluator: newDSASweep,
		Command:   dsaCommand,
		Validate:  maestroValidate,
		Short:     dsaShort, Long: dsaLong,
	}
}

// dsaPoints fills the block's defaults, checks its keys (not the
// dataflow files: newDSASweep reads them) and counts the points.
func dsaPoints(s *Spec) (int, error) {
	d := s.DSA
	if d == nil {
		return 0, specErr("dsa", "unit dsa needs a dsa: block with models: and dataflows: (see bench/testdata/dsa.yaml)")
	}
	if len(d.Models) == 0 {
		return 0, specErr("dsa.models", "empty list: name at least one zoo model (%s)", strings.Join(workload.ModelNames(), ", "))
	}
	for i, m := range d.Models {
		if _, err := workload.LookupModel(m, 0); err != nil {
			return 0, specErr(fmt.Sprintf("dsa.models[%d]", i), "%v (unit dsa takes zoo models)", err)
		}
	}
	if len(d.Dataflows) == 0 {
		return 0, specErr("dsa.dataflows", "empty list: name a built-in (%s) or a .m file", strings.Join(maestro.BuiltinNames(), ", "))
	}
	if err := checkLists(map[string][]string{"dsa.models": d.Models, "dsa.dataflows": d.Dataflows,
		"dsa.pes": strs(d.PEs), "dsa.l2_bytes": strs(d.L2Bytes)}); err != nil {
		return 0, err
	}
	if len(d.PEs) == 0 {
		d.PEs = []int{soc.DefaultDSAPEs}
	}
	if len(d.L2Bytes) == 0 {
		d.L2Bytes = []int64{0}
	}
	for _, k := range []struct {
		key string
		v   **int
		def int
	}{{"noc_bw", &d.NoCBW, soc.DefaultDSANoCBW}, {"noc_hops", &d.NoCHops, 1}, {"hop_latency", &d.HopLatency, 1}} {
		if *k.v == nil {
			*k.v = &k.def
		} else if **k.v == 0 { // other values: soc.DSASpec.Validate below
			return 0, specErr("dsa."+k.key, "0, want >= 1 (leave the key out for %d)", k.def)
		}
	}
	if d.ClockMHz == nil {
		def := soc.DefaultDSAClockHz / 1e6
		d.ClockMHz = &def
	} else if *d.ClockMHz == 0 {
		return 0, specErr("dsa.clock_mhz", "0, want > 0 (leave the key out for %g)", soc.DefaultDSAClockHz/1e6)
	}
	if d.StaticW == 0 {
		d.StaticW = soc.DefaultDSAStaticW
	}
	if d.Granularity == "" {
		d.Granularity = soc.Blocks.String()
	}
	if _, err := soc.ParseGranularity(d.Granularity); err != nil {
		return 0, specErr("dsa.granularity", "%v", err)
	}
	// The keys every point shares, then each grid entry, so that an
	// error names the key at fault.
	base := dsaSpecOf(d, 0, 0, 0)
	base.Dataflow, base.PEs, base.L2Bytes = "kcp_ws", 1, 0
	if err := base.Validate(); err != nil {
		return 0, specErr("dsa", "%v", err)
	}
	for i, pes := range d.PEs {
		b := base
		b.PEs = pes
		if err := b.Validate(); err != nil {
			return 0, specErr(fmt.Sprintf("dsa.pes[%d]", i), "%v", err)
		}
	}
	for i, l2 := range d.L2Bytes {
		b := base
		b.L2Bytes = l2
		if err := b.Validate(); err != nil {
			return 0, specErr(fmt.Sprintf("dsa.l2_bytes[%d]", i), "%v", err)
		}
	}
	for i, df := range d.Dataflows {
		b := base
		b.Dataflow = df
		if err := b.Validate(); err != nil {
			return 0, specErr(fmt.Sprintf("dsa.dataflows[%d]", i), "%v", err)
		}
	}
	n := len(d.Models)
	for _, m := range []int{len(d.Dataflows), len(d.PEs), len(d.L2Bytes)} {
		if n > MaxPoints/m {
			return 0, specErr("dsa", "models x dataflows x pes x l2_bytes is above %d points", MaxPoints)
		}
		n *= m
	}
	return n, nil
}

// dsaSpecOf returns the soc.DSASpec of dataflow df, pes[e] and
// l2_bytes[l] of block d.
func dsaSpecOf(d *DSASweepSpec, df, e, l int) soc.DSASpec {
	static := max(d.StaticW, 0)
	return soc.DSASpec{Name: dsaUnit, Dataflow: d.Dataflows[df], PEs: d.PEs[e], NoCBW: *d.NoCBW, NoCHops: *d.NoCHops,
		HopLatency: *d.HopLatency, L1Bytes: d.L1Bytes, L2Bytes: d.L2Bytes[l], WordBytes: d.WordBytes,
		ClockMHz: *d.ClockMHz, StaticW: static}
}

// dsaSweep prices the points of a dsa spec.
type dsaSweep struct {
	spec   *DSASweepSpec
	gran   soc.Granularity
	models []workload.Model
	// dfDir is, per dataflow, the folder its .m file resolves against (the
	// spec's folder when the file is there, Spec.Path).
	dfDir []string
}

// newDSASweep builds the models and reads every dataflow (a .m file that
// does not parse fails here, naming its entry, file and line), so that no
// point can fail mid-sweep but on capacity or mapping, which are rows.
func newDSASweep(s *Spec) (Evaluator, error) {
	d := s.DSA
	g, _ := soc.ParseGranularity(d.Granularity) // checked by dsaPoints
	e := &dsaSweep{spec: d, gran: g}
	for i, name := range d.Models {
		m, err := workload.LookupModel(name, 0)
		if err != nil {
			return nil, specErr(fmt.Sprintf("dsa.models[%d]", i), "%v", err)
		}
		e.models = append(e.models, m)
	}
	for i, df := range d.Dataflows {
		e.dfDir = append(e.dfDir, s.dirOf(df))
		if _, err := soc.LoadDataflow(df, e.dfDir[i]); err != nil {
			return nil, specErr(fmt.Sprintf("dsa.dataflows[%d]", i), "%v", err)
		}
	}
	return e, nil
}

// Evaluate appends the row of point c.ID.
func (e *dsaSweep) Evaluate(t Table, c Case) error {
	return appendRows(t, func(rows []DSARow) ([]DSARow, error) {
		d := e.spec
		p := c.ID
		l := p % len(d.L2Bytes)
		p /= len(d.L2Bytes)
		pe := p % len(d.PEs)
		p /= len(d.PEs)
		df := p % len(d.Dataflows)
		m := p / len(d.Dataflows)
		r, err := EvalDSA(e.models[m], dsaSpecOf(d, df, pe, l).Config(e.dfDir[df]), e.gran)
		if err != nil {
			return rows, fmt.Errorf("bench: dsa point %d: %w", c.ID, err)
		}
		r.PointID = int64(c.ID)
		r.Model = d.Models[m]
		return append(rows, r), nil
	})
}
