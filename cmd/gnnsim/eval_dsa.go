package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/bench"
	"gnnsim/soc"
	"gnnsim/soc/maestro"
	"gnnsim/workload"
)

// dsaEvalFlags are eval --unit dsa's options: one standalone DSA.
type dsaEvalFlags struct {
	dataflow, gran, out string
	pes, noc            int
	l1, l2              int64
	clockMHz            float64
}

func addDSAFlags(fs *pflag.FlagSet, f *dsaEvalFlags) {
	fs.StringVar(&f.dataflow, "dataflow", "", "MAESTRO built-in ("+strings.Join(maestro.BuiltinNames(), ", ")+") or .m dataflow file (required)")
	intFlag(fs, &f.pes, "pes", soc.DefaultDSAPEs, 1, 1<<24, fmt.Sprintf("PEs, default %d", soc.DefaultDSAPEs))
	intFlag(fs, &f.l1, "l1", 0, 0, 1<<40, "L1 bytes per PE (0: unconstrained)")
	intFlag(fs, &f.l2, "l2", 0, 0, 1<<40, "L2 bytes (0: unconstrained)")
	intFlag(fs, &f.noc, "noc", soc.DefaultDSANoCBW, 1, 1<<24, "NoC bandwidth, elements per cycle")
	floatFlag(fs, &f.clockMHz, "clock", soc.DefaultDSAClockHz/1e6, 0, 1e6, true, "clock, MHz")
	fs.StringVar(&f.gran, "granularity", "blocks", "segmentation: blocks or layers (one unit: only the segments field changes)")
}

// runDSAEval evaluates zoo model spec on the standalone DSA of f: the
// row a dsa sweep writes for the same point (bench.EvalDSA).
func runDSAEval(cmd *cobra.Command, spec *workload.ModelSpec, f *dsaEvalFlags, asJSON bool) error {
	if f.dataflow == "" {
		return fmt.Errorf("--unit dsa needs --dataflow: a MAESTRO built-in (%s) or a .m file", strings.Join(maestro.BuiltinNames(), ", "))
	}
	if spec.Zoo == "" || spec.Name != spec.Zoo || spec.GraphOp != "" {
		return fmt.Errorf("--unit dsa takes a zoo model name (%s); model files are not taken on the dsa path yet", strings.Join(workload.ModelNames(), ", "))
	}
	model, err := workload.LookupModel(spec.Zoo, 0)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	g, err := soc.ParseGranularity(f.gran)
	if err != nil {
		return fmt.Errorf("--granularity: %w", err)
	}
	ds := soc.DSASpec{Name: "dsa", Dataflow: f.dataflow, PEs: f.pes, NoCBW: f.noc, NoCHops: 1, HopLatency: 1,
		L1Bytes: f.l1, L2Bytes: f.l2, ClockMHz: f.clockMHz, StaticW: soc.DefaultDSAStaticW}
	if err := ds.Validate(); err != nil {
		return err
	}
	r, err := bench.EvalDSA(model, ds.Config(""), g)
	if err != nil {
		return fmt.Errorf("%s on the DSA (--dataflow %s, --pes %d, --l1 %d, --l2 %d, --noc %d, --clock %g MHz): %w", spec.Zoo, f.dataflow, f.pes, f.l1, f.l2, f.noc, f.clockMHz, err)
	}
	r.Model = spec.Zoo
	if err := writeOut(cmd, f.out, []bench.DSARow{r}, nil); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if asJSON {
		return writeJSON(w, r)
	}
	return r.WriteText(w)
}
