package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/bench"
	"gnnsim/workload"
)

// 'gnnsim eval --unit KIND' and 'gnnsim KIND eval' are built here from the
// kinds' table (bench.CommandKinds): each kind's bench.Command declares
// its options, help and evaluation; nothing below names a kind.

func init() { register(newEvalCmd) }

// kindFlags is bench.Flags on a flag set: a kind's options become the
// command line's range-checked flags.
type kindFlags struct{ fs *pflag.FlagSet }

func (k kindFlags) String(p *string, name, def, usage string) { k.fs.StringVar(p, name, def, usage) }
func (k kindFlags) Bool(p *bool, name string, def bool, usage string) {
	k.fs.BoolVar(p, name, def, usage)
}
func (k kindFlags) Int(p *int, name string, def int, lo, hi int64, usage string) {
	intFlag(k.fs, p, name, def, lo, hi, usage)
}
func (k kindFlags) Int64(p *int64, name string, def, lo, hi int64, usage string) {
	intFlag(k.fs, p, name, def, lo, hi, usage)
}
func (k kindFlags) Float(p *float64, name string, def, lo, hi float64, open bool, usage string) {
	floatFlag(k.fs, p, name, def, lo, hi, open, usage)
}
func (k kindFlags) Data(data, dir *string, def, usage string) {
	namedDataFlags(k.fs, data, dir, def, usage)
}
func (k kindFlags) Required(name string) { _ = cobra.MarkFlagRequired(k.fs, name) }

// newKindCmd is the command of c, an evaluation or a validation of the
// kinds' table: its options, --json and --out (when it writes one).
func newKindCmd(c *bench.Command) *cobra.Command {
	ev := c.New()
	var out string
	var asJSON bool
	cmd := &cobra.Command{Use: c.Use, Short: c.Short, Long: c.Long, Example: c.Example, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runKindEval(cmd, ev, &bench.Input{}, out, asJSON) }}
	fl := cmd.Flags()
	ev.OwnFlags(kindFlags{fl})
	ev.UnitFlags(kindFlags{fl})
	fl.BoolVar(&asJSON, "json", false, c.JSONUsage)
	if c.OutUsage != "" {
		outFileFlag(fl, &out, "out", "", c.OutUsage)
	}
	return cmd
}

// kindNamed is the table's kind named name.
func kindNamed(name string) bench.UnitKind {
	for _, k := range bench.Kinds() {
		if k.Name == name {
			return k
		}
	}
	panic("gnnsim: no kind " + name) // the table is fixed when compiling
}

// kindCmd is the command what picks from the table entry of the kind
// named name ('KIND eval', 'KIND validate').
func kindCmd(name string, what func(bench.UnitKind) *bench.Command) *cobra.Command {
	c := what(kindNamed(name))
	if c == nil {
		panic("gnnsim: kind " + name + " has no such command")
	}
	return newKindCmd(c)
}

// kindEvalCmd is 'gnnsim KIND eval' of the kind named name.
func kindEvalCmd(name string) *cobra.Command {
	return kindCmd(name, func(k bench.UnitKind) *bench.Command { return k.Command })
}

// kindValidateCmd scores the kind named name against its reference set.
func kindValidateCmd(name string) *cobra.Command {
	return kindCmd(name, func(k bench.UnitKind) *bench.Command { return k.Validate })
}

// runKindEval evaluates, writes --out (the rows, the run's flags in the
// metadata) and prints the result as text or JSON; a result's Fail is
// returned once it is out.
func runKindEval(cmd *cobra.Command, ev bench.Evaluation, in *bench.Input, out string, asJSON bool) error {
	in.Changed = cmd.Flags().Changed
	in.Stderr, in.Progress = cmd.ErrOrStderr(), progressOut(cmd)
	res, err := ev.Eval(cmd.Context(), in)
	if err != nil {
		return err
	}
	if out != "" {
		if err := checkReplace(out); err != nil {
			return err
		}
		if err := res.Parquet(out, runMeta(cmd)); err != nil {
			return err
		}
	}
	w := cmd.OutOrStdout()
	switch {
	case asJSON && res.WriteJSON != nil:
		err = res.WriteJSON(w)
	case asJSON:
		err = writeJSON(w, res.JSON)
	default:
		err = res.Text(w)
	}
	if err != nil {
		return err
	}
	return res.Fail
}

type evalFlags struct {
	unit, model, graph, data string
	dataDir, out             string
	features                 int
	jsonOut                  bool
}

func newEvalCmd() *cobra.Command { return newEvalCmdOf(bench.CommandKinds()) }

// newEvalCmdOf is 'gnnsim eval' over kinds, each with a Command.
func newEvalCmdOf(kinds []bench.UnitKind) *cobra.Command {
	var f evalFlags
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	evals := map[string]bench.Evaluation{}
	unitFlags := map[string]*pflag.FlagSet{}
	cmd := &cobra.Command{
		Use:   "eval --unit " + strings.Join(names, "|") + " --model NAME|FILE [--graph G | --data NAME|PATH] [unit options] [--json]",
		Short: "Evaluate a model on one unit kind: the same code paths as simulate, soc eval and fpga eval",
		Long:  evalLong(kinds),
		Example: `  gnnsim eval --unit soc --model vig-s --mapping gpu --json
  gnnsim eval --unit fpga --model sage3.yaml --data cora
  gnnsim eval --unit dsa --model vig-ti --dataflow kcp_ws --pes 1024 --l2 524288
  gnnsim eval --unit omega --model gcn1.yaml --graph ../shared/data/matrix-market/karate.mtx --features 64`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindUnitFlags(cmd, names, f.unit, unitFlags); err != nil {
				return err
			}
			spec, err := workload.ResolveModelSpec(f.model)
			if err != nil {
				return fmt.Errorf("--model: %w", err)
			}
			if f.graph != "" && f.data != "" {
				return fmt.Errorf("--graph and --data exclude each other")
			}
			in := &bench.Input{Unit: true, Model: f.model, Spec: spec, Graph: f.graph, Data: f.data, DataDir: f.dataDir,
				Features: f.features, FeaturesSet: cmd.Flags().Changed("features")}
			return runKindEval(cmd, evals[f.unit], in, f.out, f.jsonOut)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.unit, "unit", "", "unit kind: "+strings.Join(names, ", ")+" (required)")
	fl.StringVar(&f.model, "model", "", "zoo model ("+strings.Join(workload.ModelNames(), ", ")+") or model file (required)")
	fl.StringVar(&f.graph, "graph", "", "omega: graph file or directory (as simulate --graphs)")
	dataFlags(fl, &f.data, &f.dataDir, "", "data set (fpga: default cora)")
	outFileFlag(fl, &f.out, "out", "", "also write the result as a Parquet file, the unit command's --out columns")
	intFlag(fl, &f.features, "features", 64, 1, workload.MaxFeatures, "omega, soc: input width of a GNN stack whose file gives none (default: a node-classification set's features, else 64)")
	fl.BoolVar(&f.jsonOut, "json", false, "print the unit command's JSON instead of text")
	for _, k := range kinds {
		ev := k.Command.New()
		fs := pflag.NewFlagSet(k.Name, pflag.ContinueOnError)
		ev.UnitFlags(kindFlags{fs})
		evals[k.Name], unitFlags[k.Name] = ev, fs
	}
	addUnitFlags(fl, names, unitFlags)
	_ = cmd.MarkFlagRequired("unit")
	_ = cmd.MarkFlagRequired("model")
	return cmd
}

// evalLong is eval's help: each kind's paragraph and its JSON keys.
func evalLong(kinds []bench.UnitKind) string {
	var units strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&units, "  --unit %-8s%s\n", k.Name, strings.ReplaceAll(k.Command.Unit, "\n", "\n"+strings.Repeat(" ", 17)))
	}
	return `Evaluate one model on one unit kind. Each unit runs the code path of its own
command and prints that command's output (text, or with --json the same JSON):

` + units.String() + `
--model is a zoo model name ('gnnsim models') or a model file (YAML, the
format in 'gnnsim models show --help'). A GNN stack's input width is its
file's features:, else --features when given, else the data set's (a
node-classification set such as cora), else --features' default 64.

Without --json each unit prints its command's text ('gnnsim omega eval',
'soc eval', 'fpga eval', 'dsa eval', 'gcos eval': see their --help). --json
prints the command's JSON (omega: an array, one object per (graph, layer,
dataflow, tiling)), whose keys are, listed from the row types:
` + bench.KeyList(kinds) + `
--out FILE.parquet writes the same fields as typed columns, the run's flags
in the metadata: omega one row per (graph, layer, dataflow, tiling), the
others one row (fpga's stages a list column; soc's layers, --layers, only in
--json). dsa: fits false means a kernel's double-buffered tiles exceed the
L1 or L2, or the dataflow's clusters exceed the PEs (refused says which, and
the costs are 0). gcos: accuracy is not measured.

--data is the same everywhere ('gnnsim train', 'fpga eval', 'search'): a
data set name looked up under --data-dir (cora, citeseer, pubmed, the real
graph sets ENZYMES, MUTAG, ..., a SuiteSparse matrix by file name such as
karate) or a path (file, folder or Planetoid prefix).

A unit's options are refused with another --unit.`
}

// addUnitFlags registers every unit's own flags on fl. A name several
// units share (--dataflow, --pes) is registered once, its usage naming
// each unit's meaning; bindUnitFlags routes it.
func addUnitFlags(fl *pflag.FlagSet, names []string, unitFlags map[string]*pflag.FlagSet) {
	for _, u := range names {
		unitFlags[u].VisitAll(func(x *pflag.Flag) {
			if y := fl.Lookup(x.Name); y != nil {
				if y.Value != x.Value && !strings.Contains(y.Usage, "; "+u+": ") {
					y.Usage += "; " + u + ": " + x.Usage
				}
				return
			}
			if !strings.HasPrefix(x.Usage, u+": ") {
				x.Usage = u + ": " + x.Usage
			}
			fl.AddFlag(x)
		})
	}
}

// bindUnitFlags checks that the flags given on cmd belong to unit (a flag
// of another unit is refused, naming it) and hands the text of each shared
// flag to the unit's own flag, which parses it with that unit's meaning
// and range.
func bindUnitFlags(cmd *cobra.Command, names []string, unit string, unitFlags map[string]*pflag.FlagSet) error {
	if !slices.Contains(names, unit) {
		return fmt.Errorf("--unit %q: unknown unit kind (want one of %s)", cut(unit), strings.Join(names, ", "))
	}
	var wrong string
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		for _, u := range names { // in order: the same message every run
			if u != unit && unitFlags[u].Lookup(fl.Name) != nil && unitFlags[unit].Lookup(fl.Name) == nil && wrong == "" {
				wrong = fmt.Sprintf("--%s is an option of --unit %s, not %s", fl.Name, u, unit)
			}
		}
	})
	if wrong != "" {
		return fmt.Errorf("%s", wrong)
	}
	// A flag name several units share (--dataflow, --pes) is registered
	// once; its text is parsed again by the active unit's own flag, with
	// that unit's meaning and range.
	var serr error
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if own := unitFlags[unit].Lookup(fl.Name); own != nil && own.Value != fl.Value && serr == nil {
			if err := own.Value.Set(fl.Value.String()); err != nil {
				serr = err
			}
		}
	})
	return serr
}
