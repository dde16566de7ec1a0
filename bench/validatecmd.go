package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"gnnsim/accel"
	"gnnsim/accel/fpgaref"
	"gnnsim/accel/omegaref"
	"gnnsim/internal/pqio"
	"gnnsim/internal/refset"
	"gnnsim/soc/maestro"
)

// The kinds' reference validations ('gnnsim KIND validate'): each scores
// the kind's model against a reference set in the shared folder. They are
// Commands as evaluations are, whose options are all their own.

// noUnitFlags is the UnitFlags of a command with no options shared with
// eval --unit.
type noUnitFlags struct{}

func (noUnitFlags) UnitFlags(Flags) {}

// referenceDir returns dir, or the shared folder's reference set sub
// found by find.
func referenceDir(dir, sub string, find func() (string, bool)) (string, error) {
	if dir != "" {
		return dir, nil
	}
	d, ok := find()
	if !ok {
		return "", fmt.Errorf("--reference not given and %s", refset.Hint(sub))
	}
	return d, nil
}

// omegaValidateRow and fgnasValidateRow are the Parquet rows of omega
// validate --out and fpga validate fgnas --out: their names are the
// schemas' root names in the files written before the rows moved to
// omegaref and fpgaref.
type (
	omegaValidateRow   omegaref.LongRow
	fgnasValidateRow   fpgaref.LongRow
	maestroValidateRow maestro.LongRow
)

// referenceParquet writes rows with the run's metadata and the reference
// folder.
func referenceParquet[R any](rows []R, dir string) func(string, map[string]string) error {
	return func(path string, meta map[string]string) error {
		meta["gnnsim.reference"] = dir
		return pqio.Write(path, rows, meta)
	}
}

// omegaValidate is 'gnnsim omega validate': omega mode against
// STONNE-Omega.
var omegaValidate = &Command{
	Use:   "omega [--reference DIR]",
	Short: "Score omega mode against a STONNE-Omega reference set",
	Long: `Simulate every run of a STONNE-Omega reference set in omega mode and print
the absolute percentage errors per quantity (agg, comb, seq, sp, pp, and the
global-buffer access counts) and per source, then, as the last line:

  median_abs_pct_err=X p90_abs_pct_err=Y top1_agreement=Z spearman_median=W rows=N

X and Y are over the seq and sp cycles of the P = 512 runs and the pp cycles
of the P = 256 runs (against pp_cycles_safe); Z is the share of graphs whose
fastest of the 24 configurations agrees; W is the median over graphs of the
Spearman rank correlation of the 24 latencies; N is the number of reference
runs. The directory has the layout of ../shared/omega-reference (its
README): omega_reference.csv and graphs/<name>.csr. The command also prints
how long the simulations took against the reference's own wall time.

To see where the model disagrees: --worst N prints, before the summary, the
N runs with the largest error (each with its worst quantity and every
compared value as ours/theirs); --json prints instead a JSON array with one
object per run (graph, source, tiling, P, gnnsim's configurations, tile
sizes, and ours, theirs and the absolute % error of every compared
quantity: agg, comb, seq and sp or pp, gb_seq and gb_sp), all runs or, with
--worst N, the N worst.

--out writes every run as a long Parquet table, one row per (run,
compared quantity), typed columns: graph, tiling, P, quantity, ours,
theirs, abs_pct_err (null against 0), error (why a run could not be
simulated: then one row, quantity empty); metadata gnnsim.command,
gnnsim.flags, gnnsim.reference, gnnsim.version.

The exit status is 1 when a run cannot be simulated (the summary is still
printed).`,
	Example: `  gnnsim validate omega --reference ../shared/omega-reference
  gnnsim validate omega --worst 10
  gnnsim validate omega --json --worst 5`,
	JSONUsage: "print a JSON array with one object per run (ours and theirs per quantity) instead of the report",
	OutUsage:  "also write every run's compared quantities to a Parquet file (columns in --help)",
	New:       func() Evaluation { return &omegaValidation{} },
}

type omegaValidation struct {
	noUnitFlags
	refDir, hwPath, engine string
	worst                  int
}

func (v *omegaValidation) OwnFlags(f Flags) {
	f.String(&v.refDir, "reference", "", "reference set directory (default: $GNNSIM_SHARED/omega-reference, or the nearest shared/omega-reference above the working directory)")
	f.String(&v.hwPath, "hw", "", "hardware spec YAML (default: built in; its pes must be the reference's P = 512)")
	f.String(&v.engine, "engine", "events", "events (discrete-event kernel) or fast (closed form; same numbers)")
	f.Int(&v.worst, "worst", 0, 0, 1_000_000, "show the N runs with the largest error (with --json: print only those)")
}

// Eval simulates every reference run in omega mode and scores it.
func (v *omegaValidation) Eval(_ context.Context, in *Input) (*Result, error) {
	if in.Changed("worst") && v.worst < 1 {
		return nil, fmt.Errorf("--worst: want a positive number of runs, got %d", v.worst)
	}
	dir, err := referenceDir(v.refDir, "omega-reference", omegaref.FindDir)
	if err != nil {
		return nil, err
	}
	hw := accel.DefaultHW()
	if v.hwPath != "" {
		if hw, err = accel.LoadHW(v.hwPath); err != nil {
			return nil, err
		}
	}
	opts := accel.Options{Mode: accel.Omega}
	if opts.Engine, err = accel.ParseEngine(v.engine); err != nil {
		return nil, fmt.Errorf("--engine: %w", err)
	}
	ref, err := omegaref.Load(dir)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep := omegaref.Score(ref, hw, opts)
	took := time.Since(start).Seconds()
	long := omegaref.LongRows(rep.Results)
	rows := make([]omegaValidateRow, len(long))
	for i, r := range long {
		rows[i] = omegaValidateRow(r)
	}
	res := &Result{Parquet: referenceParquet(rows, dir)}
	if n := len(rep.Failures); n > 0 {
		res.Fail = fmt.Errorf("%d of %d reference runs could not be simulated", n, rep.Runs)
	}
	res.WriteJSON = func(w io.Writer) error {
		if v.worst > 0 {
			return omegaref.WriteJSON(w, rep.Worst(v.worst))
		}
		return omegaref.WriteJSON(w, rep.Results)
	}
	res.Text = func(w io.Writer) error {
		wall := ref.WallSeconds()
		fmt.Fprintf(w, "reference: %s (%d runs, %d graphs)\n", dir, len(ref.Runs), len(ref.Graphs))
		if took > 0 {
			fmt.Fprintf(w, "simulated in %.3f s on one core; STONNE-Omega's wall time: %.1f s; speed-up %.0fx\n\n", took, wall, wall/took)
		}
		if v.worst > 0 {
			fmt.Fprintf(w, "the %d runs with the largest error:\n", v.worst)
			if err := omegaref.WriteWorst(w, rep.Worst(v.worst)); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		return rep.Write(w)
	}
	return res, nil
}

// maestroValidate is 'gnnsim dsa validate' ('soc validate maestro'): the
// DSA cost model against MAESTRO.
var maestroValidate = &Command{
	Use:   "maestro [--reference DIR] [--json]",
	Short: "Score the DSA cost model against a MAESTRO reference set",
	Long: `Run every row of a MAESTRO reference set through the DSA cost model and
print, per dataflow, the absolute percentage errors of the runtime (median,
p90, max, exact rows), of the L2 reads and writes, L1 accesses, MACs and
energy (p90), then, as the last line:

  median_abs_pct_err=X p90_abs_pct_err=Y l2_rd_p90_abs_pct_err=Z l2_wr_p90_abs_pct_err=W rows=N

X and Y are the median and p90 runtime errors, Z and W the p90 errors of the
L2 reads and writes (summed over the tensors), over the N rows MAESTRO
completed with a correct MAC count (status=ok, macs_ok=1). Rows MAESTRO
rejected must be rejected too; rows where it miscounts MACs are reported
apart. The directory has the layout of ../shared/maestro-reference:
maestro_reference.csv and dataflows/<name>.m.

With --json the report is printed as one JSON object instead. The exit
status is 1 when a row is analysable by one model and not by the other
(the report is still printed).

--out writes every row as a long Parquet table, one row per (reference
row, metric), typed columns: line, family, model, layer_id, dataflow,
pes, noc_bw, status and macs_ok (MAESTRO's), metric (cycles, macs,
l2_reads, l2_writes, l1_reads, l1_writes, energy_macs), ours, theirs,
abs_pct_err, error (why gnnsim could not analyse the row); a row MAESTRO
rejected is one row with metric empty. Metadata gnnsim.command,
gnnsim.flags, gnnsim.reference, gnnsim.version.`,
	Example: `  gnnsim soc validate maestro --reference ../shared/maestro-reference
  gnnsim soc validate maestro --out maestro-rows.parquet`,
	JSONUsage: "print the report as a JSON object instead of the table",
	OutUsage:  "also write every row's metrics to a Parquet file (columns in --help)",
	New:       func() Evaluation { return &maestroValidation{} },
}

type maestroValidation struct {
	noUnitFlags
	refDir string
}

func (v *maestroValidation) OwnFlags(f Flags) {
	f.String(&v.refDir, "reference", "", "reference set directory (default: $GNNSIM_SHARED/maestro-reference, or the nearest shared/maestro-reference above the working directory)")
}

// Eval runs every reference row through the DSA cost model.
func (v *maestroValidation) Eval(context.Context, *Input) (*Result, error) {
	dir, err := referenceDir(v.refDir, "maestro-reference", maestro.FindReferenceDir)
	if err != nil {
		return nil, err
	}
	ref, err := maestro.LoadReference(dir)
	if err != nil {
		return nil, err
	}
	rep := maestro.Score(ref)
	res := &Result{JSON: rep, Parquet: func(path string, meta map[string]string) error {
		long := maestro.LongRows(ref)
		rows := make([]maestroValidateRow, len(long))
		for i, r := range long {
			rows[i] = maestroValidateRow(r)
		}
		return referenceParquet(rows, dir)(path, meta)
	}, Text: func(w io.Writer) error {
		fmt.Fprintf(w, "reference: %s (%d rows, %d dataflows)\n\n", dir, len(ref.Rows), len(ref.Dataflows))
		return rep.Write(w)
	}}
	if n := len(rep.Failures); n > 0 {
		res.Fail = fmt.Errorf("%d of %d reference rows disagree on whether they can be analysed", n, rep.RefRows)
	}
	return res, nil
}

// fgnasValidate is 'gnnsim fpga validate fgnas': the fgnas-code model
// against the FGNAS authors' cost model's outputs.
var fgnasValidate = &Command{
	Use:   "fgnas [--reference DIR]",
	Short: "Score the fgnas-code model against the FGNAS authors' cost model's outputs",
	Long: `Price every row of a reference set of the FGNAS authors' FPGA cost model (the
layout of ../shared/fgnas-reference: reference.csv) with the fgnas-code model and
print per metric (cycles, LUT, FF, DSP) the share of rows that agree exactly and
the median, 90th percentile and maximum absolute percentage error, then, as the
last line:

  exact_share=S median_abs_pct_err=X p90_abs_pct_err=Y rows=N

S is the share of rows exact on all four metrics; X and Y pool the errors of
every (row, metric); N is the number of rows. --worst N prints, before the
table, the N rows with the largest error (ours/theirs per metric); --json
prints instead a JSON array with one object per row (all, or the N worst).

--out writes every row as a long Parquet table, one row per (reference
row, metric), typed columns: line, design_id, source, dataset, metric
(cycles, LUT, FF, DSP), ours, theirs, abs_pct_err (null against 0), error
(why a row could not be priced: then one row, metric empty); metadata
gnnsim.command, gnnsim.flags, gnnsim.reference, gnnsim.version.

The exit status is 1 when a row cannot be priced (the summary is still printed).`,
	Example: `  gnnsim fpga validate fgnas --reference ../shared/fgnas-reference
  gnnsim fpga validate fgnas --worst 5
  gnnsim fpga validate fgnas --json --worst 3`,
	JSONUsage: "print a JSON array with one object per row instead of the report",
	OutUsage:  "also write every row's metrics to a Parquet file (columns in --help)",
	New:       func() Evaluation { return &fgnasValidation{} },
}

type fgnasValidation struct {
	noUnitFlags
	refDir string
	worst  int
}

func (v *fgnasValidation) OwnFlags(f Flags) {
	f.String(&v.refDir, "reference", "", "reference set directory (default: $GNNSIM_SHARED/fgnas-reference, or shared/fgnas-reference beside the module)")
	f.Int(&v.worst, "worst", 0, 0, 1_000_000, "show the N rows with the largest error (with --json: print only those)")
}

// Eval prices every reference row with the fgnas-code model.
func (v *fgnasValidation) Eval(_ context.Context, in *Input) (*Result, error) {
	if in.Changed("worst") && v.worst < 1 {
		return nil, fmt.Errorf("--worst: want a positive number of rows, got %d", v.worst)
	}
	dir, err := referenceDir(v.refDir, "fgnas-reference", fpgaref.FindDir)
	if err != nil {
		return nil, err
	}
	ref, err := fpgaref.Load(dir)
	if err != nil {
		return nil, err
	}
	rep := fpgaref.Score(ref)
	long := fpgaref.LongRows(rep.Results)
	rows := make([]fgnasValidateRow, len(long))
	for i, r := range long {
		rows[i] = fgnasValidateRow(r)
	}
	res := &Result{Parquet: referenceParquet(rows, dir)}
	if n := len(rep.Failures); n > 0 {
		res.Fail = fmt.Errorf("%d of %d reference rows could not be priced", n, rep.Rows)
	}
	res.WriteJSON = func(w io.Writer) error {
		if v.worst > 0 {
			return fpgaref.WriteJSON(w, rep.Worst(v.worst))
		}
		rs := make([]*fpgaref.Result, len(rep.Results))
		for i := range rep.Results {
			rs[i] = &rep.Results[i]
		}
		return fpgaref.WriteJSON(w, rs)
	}
	res.Text = func(w io.Writer) error {
		fmt.Fprintf(w, "reference: %s (%d rows)\n", dir, len(ref.Rows))
		if v.worst > 0 {
			fmt.Fprintf(w, "the %d rows with the largest error:\n", v.worst)
			if err := fpgaref.WriteWorst(w, rep.Worst(v.worst)); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		return rep.Write(w)
	}
	return res, nil
}
