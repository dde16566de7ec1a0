package main

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/accel"
	"gnnsim/bench"
	"gnnsim/graphs"
	"gnnsim/nas/fgnas"
	"gnnsim/soc"
	"gnnsim/workload"
)

func init() { register(newEvalCmd) }

// evalUnits are the unit kinds 'gnnsim eval' takes, in the order --help
// lists them.
var evalUnits = []string{"omega", "soc", "fpga", "dsa", "gcos"}

type evalFlags struct {
	unit, model, graph, data string
	dataDir, out             string
	features                 int
	jsonOut                  bool
	omega                    simulateFlags
	soc                      socEvalFlags
	fpga                     fpgaEvalFlags
	dsa                      dsaEvalFlags
	gcos                     gcosEvalFlags
}

func newEvalCmd() *cobra.Command {
	var f evalFlags
	unitFlags := map[string]*pflag.FlagSet{}
	cmd := &cobra.Command{
		Use:   "eval --unit omega|soc|fpga|dsa|gcos --model NAME|FILE [--graph G | --data NAME|PATH] [unit options] [--json]",
		Short: "Evaluate a model on one unit kind: the same code paths as simulate, soc eval and fpga eval",
		Long: `Evaluate one model on one unit kind. Each unit runs the code path of its own
command and prints that command's output (text, or with --json the same JSON):

  --unit omega   'gnnsim simulate': the Omega-style spatial accelerator runs
                 every layer of a GNN stack on the graph of --graph (a
                 path) or --data (a name or a path), one row per (graph,
                 layer, dataflow, tiling). Only gcn, gin, sage (mean) and
                 single-head gat layers are modelled: any other layer is
                 refused with its name. A layer's activation is fused
                 into the combination phase's output write and gets no
                 row of its own ('go doc gnnsim/accel.ModelLayers').
  --unit soc     'gnnsim soc eval': a zoo model (ViG, Pyramid ViG, CNNs,
                 which bring their own input) or a GNN stack model file on
                 the graph of --graph / --data (input width: the file's
                 features:, else --features, else the data set's), mapped
                 onto the SoC's units.
  --unit fpga    'gnnsim fpga eval': the GNN stack of a model file as an FGNAS
                 FPGA design (gcn, gat and sage layers; activations relu,
                 tanh, sigmoid, elu or none) on the Planetoid statistics of
                 --data (cora, citeseer or pubmed by name: published
                 statistics; or a Planetoid / .npz path: measured).
  --unit dsa     one MAESTRO-priced DSA (package soc/maestro) runs every
                 layer of a zoo model alone: --dataflow (a built-in or a .m
                 file), --pes, --l1 (bytes per PE), --l2, --noc (elements
                 per cycle), --clock (MHz); the row a 'unit: dsa' sweep
                 writes for the same point (bench/testdata/dsa.yaml).
  --unit gcos    'gnnsim gcos eval': a fixed design of the G-CoS template
                 (--config FILE, default the built-in one) running the GNN
                 stack of a model file (gcn, gin, sage, gat layers, any
                 depth) on --data (cora, citeseer, pubmed, reddit by name,
                 or a graph path; default cora).

--model is a zoo model name ('gnnsim models') or a model file (YAML, the
format in 'gnnsim models show --help'). A GNN stack's input width is its
file's features:, else --features when given, else the data set's (a
node-classification set such as cora), else --features' default 64.

Without --json each unit prints its command's text ('gnnsim omega eval',
'soc eval', 'fpga eval', 'dsa eval', 'gcos eval': see their --help). --json
prints the command's JSON (omega: an array, one object per (graph, layer,
dataflow, tiling)), whose keys are, listed from the row types:
` + evalKeyLists() + `
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

A unit's options are refused with another --unit.`,
		Example: `  gnnsim eval --unit soc --model vig-s --mapping gpu --json
  gnnsim eval --unit fpga --model sage3.yaml --data cora
  gnnsim eval --unit dsa --model vig-ti --dataflow kcp_ws --pes 1024 --l2 524288
  gnnsim eval --unit omega --model gcn1.yaml --graph ../shared/data/matrix-market/karate.mtx --features 64`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindUnitFlags(cmd, f.unit, unitFlags); err != nil {
				return err
			}
			return runEval(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.unit, "unit", "", "unit kind: "+strings.Join(evalUnits, ", ")+" (required)")
	fl.StringVar(&f.model, "model", "", "zoo model ("+strings.Join(workload.ModelNames(), ", ")+") or model file (required)")
	fl.StringVar(&f.graph, "graph", "", "omega: graph file or directory (as simulate --graphs)")
	dataFlags(fl, &f.data, &f.dataDir, "", "data set (fpga: default cora)")
	outFileFlag(fl, &f.out, "out", "", "also write the result as a Parquet file, the unit command's --out columns")
	intFlag(fl, &f.features, "features", 64, 1, workload.MaxFeatures, "omega, soc: input width of a GNN stack whose file gives none (default: a node-classification set's features, else 64)")
	fl.BoolVar(&f.jsonOut, "json", false, "print the unit command's JSON instead of text")

	addEvalUnitFlags(fl, &f, unitFlags)
	_ = cmd.MarkFlagRequired("unit")
	_ = cmd.MarkFlagRequired("model")
	return cmd
}

// addEvalUnitFlags registers every unit's own flags on fl, each unit's
// set kept in unitFlags so that bindUnitFlags can route them. A name
// several units share (--dataflow, --pes, --out) is registered once, its
// usage naming each unit's meaning.
func addEvalUnitFlags(fl *pflag.FlagSet, f *evalFlags, unitFlags map[string]*pflag.FlagSet) {
	om := pflag.NewFlagSet("omega", pflag.ContinueOnError)
	om.StringVar(&f.omega.format, "format", "", "omega: raw graph format: tu, mtx, edgelist or cites (default: detect from the path)")
	addOmegaFlags(om, &f.omega)
	so := pflag.NewFlagSet("soc", pflag.ContinueOnError)
	addSocFlags(so, &f.soc)
	fp := pflag.NewFlagSet("fpga", pflag.ContinueOnError)
	addFPGAFlags(fp, &f.fpga, "cost-model")
	ds := pflag.NewFlagSet("dsa", pflag.ContinueOnError)
	addDSAFlags(ds, &f.dsa)
	gc := pflag.NewFlagSet("gcos", pflag.ContinueOnError)
	addGcosFlags(gc, &f.gcos)
	unitFlags["omega"], unitFlags["soc"], unitFlags["fpga"], unitFlags["dsa"], unitFlags["gcos"] = om, so, fp, ds, gc
	for _, u := range evalUnits {
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
func bindUnitFlags(cmd *cobra.Command, unit string, unitFlags map[string]*pflag.FlagSet) error {
	if !slices.Contains(evalUnits, unit) {
		return fmt.Errorf("--unit %q: unknown unit kind (want one of %s)", cut(unit), strings.Join(evalUnits, ", "))
	}
	var wrong string
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		for _, u := range evalUnits { // in order: the same message every run
			if u != unit && unitFlags[u].Lookup(fl.Name) != nil && unitFlags[unit].Lookup(fl.Name) == nil && wrong == "" {
				wrong = fmt.Sprintf("--%s is an option of --unit %s, not %s", fl.Name, u, unit)
			}
		}
	})
	if wrong != "" {
		return fmt.Errorf("%s", wrong)
	}
	// A flag name several units share (--dataflow, --pes, --out)
	// is registered once; its text is parsed again by the active
	// unit's own flag, with that unit's meaning and range.
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

// runEval resolves the model and hands it to the unit's own code path.
func runEval(cmd *cobra.Command, f *evalFlags) error {
	spec, err := workload.ResolveModelSpec(f.model)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if f.graph != "" && f.data != "" {
		return fmt.Errorf("--graph and --data exclude each other")
	}
	switch f.unit {
	case "omega":
		if err := checkOmegaFlags(cmd, &f.omega); err != nil {
			return err
		}
		o := f.omega
		o.graphsPath, o.data, o.dataDir, o.jsonOut, o.out = f.graph, f.data, f.dataDir, f.jsonOut, f.out
		if o.graphsPath == "" && o.data == "" {
			return fmt.Errorf("--unit omega needs a graph: --graph PATH or --data NAME|PATH")
		}
		ref, err := omegaData(&o)
		if err != nil {
			return err
		}
		features := f.features
		if ref.Labelled && !cmd.Flags().Changed("features") {
			p, err := graphs.LoadPlanetoid(ref.Path)
			if err != nil {
				return fmt.Errorf("--data: %w", err)
			}
			features = p.NumFeatures() // the data set's, as soc and fpga take it
		}
		return runOmega(cmd, &o, func(g *graphs.Graph) ([]workload.Layer, error) {
			m, err := spec.Build(workload.Size{Nodes: int64(g.NumNodes()), NNZ: int64(g.NumEdges())}, features)
			if err != nil {
				return nil, fmt.Errorf("--model %s: %w", f.model, err)
			}
			ls, err := accel.ModelLayers(m) // names as models show prints them
			if err != nil {
				return nil, fmt.Errorf("--model %s: %w", f.model, err)
			}
			return ls, nil
		})
	case "soc":
		if err := checkSocFlags(cmd, &f.soc); err != nil {
			return err
		}
		s := f.soc
		s.jsonOut, s.out = f.jsonOut, f.out
		if spec.NeedsGraph() {
			data, features := cmp.Or(f.graph, f.data), 0
			if cmd.Flags().Changed("features") {
				features = f.features
			}
			m, err := socModel(spec, f.model, data, f.dataDir, features)
			if err != nil {
				return err
			}
			s.model, s.built = m.Name, &m
			return runSocEval(cmd, &s)
		}
		if spec.Name != spec.Zoo || spec.GraphOp != "" {
			return fmt.Errorf("--model %s: --unit soc takes a zoo model by name (%s) or a GNN stack model file; a zoo model file with overrides is not taken on the soc path yet",
				f.model, strings.Join(workload.ModelNames(), ", "))
		}
		if f.graph != "" || f.data != "" {
			return fmt.Errorf("--unit soc: a zoo model brings its own input; --graph and --data are for a model file's GNN stack")
		}
		s.model = spec.Zoo
		return runSocEval(cmd, &s)
	case "dsa":
		// A model file is refused as such by runDSAEval, whatever else is given.
		if (f.graph != "" || f.data != "") && spec.Zoo != "" {
			return fmt.Errorf("--unit dsa: a zoo model brings its own input; --graph and --data are not taken")
		}
		d := f.dsa
		d.out = f.out // eval's --out: one row, the --json fields as columns
		return runDSAEval(cmd, spec, &d, f.jsonOut)
	case "gcos":
		if f.graph != "" {
			return fmt.Errorf("--unit gcos: give the graph as --data (a name or a path), not --graph")
		}
		g := f.gcos
		g.model, g.data, g.dataDir, g.jsonOut, g.out = f.model, f.data, f.dataDir, f.jsonOut, f.out
		if g.data == "" {
			g.data = "cora"
		}
		return runGcosEval(cmd, &g)
	default: // fpga
		if f.graph != "" {
			return fmt.Errorf("--unit fpga prices a design on a data set's statistics: give --data (cora, citeseer, pubmed, or a Planetoid / .npz path), not --graph")
		}
		p := f.fpga
		p.data, p.dataDir, p.spec, p.asJSON, p.out = f.data, f.dataDir, spec, f.jsonOut, f.out
		if p.data == "" {
			p.data = "cora"
		}
		if spec.Zoo != "" {
			// Name the layer the FPGA pipeline cannot take: the zoo's
			// first layer is never a GNN stack's (a conv or a patch stem).
			m, err := spec.Build(workload.Size{}, 0)
			if err != nil {
				return fmt.Errorf("--model %s: %w", f.model, err)
			}
			nodes, err := m.Graph()
			if err != nil {
				return fmt.Errorf("--model %s: %w", f.model, err)
			}
			if len(nodes) > 0 {
				return fmt.Errorf("--unit fpga: model %s: layer %s (%s) has no FPGA pipeline: the FPGA takes a model file's GNN stack of gcn, gat and sage layers",
					m.Name, nodes[0].Name, nodes[0].Layer.Kind)
			}
		}
		if spec.Name == "" {
			spec.Name = f.model
		}
		return runFPGAEval(cmd, &p)
	}
}

// evalKeyLists lists, per unit kind, the JSON keys of its result: the help's
// column lists come from the row types, so they follow them.
func evalKeyLists() string {
	var b strings.Builder
	for _, k := range []struct {
		name string
		row  any
	}{{"omega", accel.Record{}}, {"soc", soc.Report{}}, {"fpga", fgnas.EvalRecord{}}, {"dsa", bench.DSARow{}}, {"gcos", bench.GCoSRow{}}} {
		line := "  " + k.name + ":"
		for i, key := range jsonKeys(reflect.TypeOf(k.row)) {
			sep := " "
			if i > 0 {
				line += ","
			}
			if len(line)+len(sep)+len(key) > 76 {
				b.WriteString(line + "\n")
				line, sep = "   ", " "
			}
			line += sep + key
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// jsonKeys names the JSON keys of struct type t; a list of structs is
// named with its keys, key(k1 k2 ...).
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if e := f.Type; e.Kind() == reflect.Slice && e.Elem().Kind() == reflect.Struct {
			name += "(" + strings.Join(jsonKeys(e.Elem()), " ") + ")"
		}
		keys = append(keys, name)
	}
	return keys
}
