package bench

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gnnsim/soc"
	"gnnsim/soc/maestro"
	"gnnsim/workload"
)

// dsaCommand is 'gnnsim dsa eval' and 'eval --unit dsa': one standalone
// DSA running a zoo model, the row a dsa sweep writes for the same point.
var dsaCommand = &Command{
	Use:   "eval --model NAME --dataflow NAME|FILE [--pes N] [--l1 B] [--l2 B] [--noc N] [--clock MHz] [--json] [--out FILE]",
	Short: "Run a zoo model alone on one MAESTRO-priced DSA",
	Long: `Run every layer of a zoo model on one DSA priced by the MAESTRO-like model:
--dataflow (a built-in: ` + strings.Join(maestro.BuiltinNames(), ", ") + `; or a .m file), --pes,
--l1 (bytes per PE), --l2, --noc (elements per cycle), --clock (MHz). The row
is the one a 'unit: dsa' sweep writes for the same point, and what
'gnnsim eval --unit dsa' prints: model, dataflow, pes, l1_bytes, l2_bytes,
noc_bw, clock_mhz, granularity and segments, fits (false: a kernel's
double-buffered tiles exceed the L1 or L2, or the dataflow's clusters exceed
the PEs; refused then says which), cycles, latency_ms, energy_mj, power_w and
dram_bytes; --json and --out add point_id, latency_ps and energy_pj.`,
	Example:   `  gnnsim dsa eval --model vig-ti --dataflow kcp_ws --pes 1024 --l2 524288`,
	JSONUsage: "print the row as JSON",
	OutUsage:  "also write the row as a Parquet file (the --json fields as columns)",
	Unit: `one MAESTRO-priced DSA (package soc/maestro) runs every
layer of a zoo model alone: --dataflow (a built-in or a .m
file), --pes, --l1 (bytes per PE), --l2, --noc (elements
per cycle), --clock (MHz); the row a 'unit: dsa' sweep
writes for the same point (bench/testdata/dsa.yaml).`,
	Row: DSARow{},
	New: func() Evaluation { return &dsaEval{} },
}

// dsaEval holds the options of one DSA evaluation.
type dsaEval struct {
	model, dataflow, gran string
	pes, noc              int
	l1, l2                int64
	clockMHz              float64
}

func (d *dsaEval) OwnFlags(f Flags) {
	f.String(&d.model, "model", "", "zoo model ("+strings.Join(workload.ModelNames(), ", ")+") (required)")
	f.Required("model")
}

func (d *dsaEval) UnitFlags(f Flags) {
	f.String(&d.dataflow, "dataflow", "", "MAESTRO built-in ("+strings.Join(maestro.BuiltinNames(), ", ")+") or .m dataflow file (required)")
	f.Int(&d.pes, "pes", soc.DefaultDSAPEs, 1, 1<<24, fmt.Sprintf("PEs, default %d", soc.DefaultDSAPEs))
	f.Int64(&d.l1, "l1", 0, 0, 1<<40, "L1 bytes per PE (0: unconstrained)")
	f.Int64(&d.l2, "l2", 0, 0, 1<<40, "L2 bytes (0: unconstrained)")
	f.Int(&d.noc, "noc", soc.DefaultDSANoCBW, 1, 1<<24, "NoC bandwidth, elements per cycle")
	f.Float(&d.clockMHz, "clock", soc.DefaultDSAClockHz/1e6, 0, 1e6, true, "clock, MHz")
	f.String(&d.gran, "granularity", "blocks", "segmentation: blocks or layers (one unit: only the segments field changes)")
}

// Eval evaluates the zoo model on the DSA of the options (EvalDSA).
func (d *dsaEval) Eval(_ context.Context, in *Input) (*Result, error) {
	spec := in.Spec
	if !in.Unit {
		var err error
		if spec, err = workload.ResolveModelSpec(d.model); err != nil {
			return nil, fmt.Errorf("--model: %w", err)
		}
	} else if (in.Graph != "" || in.Data != "") && spec.Zoo != "" {
		// A model file is refused as such below, whatever else is given.
		return nil, fmt.Errorf("--unit dsa: a zoo model brings its own input; --graph and --data are not taken")
	}
	if d.dataflow == "" {
		return nil, fmt.Errorf("--unit dsa needs --dataflow: a MAESTRO built-in (%s) or a .m file", strings.Join(maestro.BuiltinNames(), ", "))
	}
	if spec.Zoo == "" || spec.Name != spec.Zoo || spec.GraphOp != "" {
		return nil, fmt.Errorf("--unit dsa takes a zoo model name (%s); model files are not taken on the dsa path yet", strings.Join(workload.ModelNames(), ", "))
	}
	model, err := workload.LookupModel(spec.Zoo, 0)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	g, err := soc.ParseGranularity(d.gran)
	if err != nil {
		return nil, fmt.Errorf("--granularity: %w", err)
	}
	ds := soc.DSASpec{Name: "dsa", Dataflow: d.dataflow, PEs: d.pes, NoCBW: d.noc, NoCHops: 1, HopLatency: 1,
		L1Bytes: d.l1, L2Bytes: d.l2, ClockMHz: d.clockMHz, StaticW: soc.DefaultDSAStaticW}
	if err := ds.Validate(); err != nil {
		return nil, err
	}
	r, err := EvalDSA(model, ds.Config(""), g)
	if err != nil {
		return nil, fmt.Errorf("%s on the DSA (--dataflow %s, --pes %d, --l1 %d, --l2 %d, --noc %d, --clock %g MHz): %w", spec.Zoo, d.dataflow, d.pes, d.l1, d.l2, d.noc, d.clockMHz, err)
	}
	r.Model = spec.Zoo
	return RowsResult([]DSARow{r}, r, func(w io.Writer) error { return r.WriteText(w) }), nil
}

// dsaShort and dsaLong are the help of the 'gnnsim dsa' command group.
const (
	dsaShort = "MAESTRO-priced DSAs (MaGNAS's accelerators): eval, validate"
	dsaLong  = `A domain-specific accelerator priced by the MAESTRO-like analytical model
(package soc/maestro): a PE array under a dataflow, with L1, L2 and a NoC.
DSAs are units of a SoC too (a SoC spec's dsas:, 'gnnsim soc spec default').

  dsa eval       one DSA running a zoo model alone ('eval --unit dsa')
  dsa validate   score the model against MAESTRO's outputs ('soc validate maestro')

A DSA has no spec file of its own: its keys are eval's flags, a dsa sweep's
dsa: block (bench/testdata/dsa.yaml) or an entry of a SoC spec's dsas:.`
)
