package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/stat"

	"gnnsim/bench"
	"gnnsim/graphs"
	"gnnsim/train"
	"gnnsim/workload"
)

func init() { register(newTrainCmd) }

// maxLR bounds --lr: Adam steps above 10 per unit gradient only diverge
// (the seed papers use 0.005 to 0.01).
const maxLR = 10.0

// maxTrainSeeds bounds train --seeds: each seed is a whole training.
const maxTrainSeeds = 10_000

// maxSplitPerClass bounds --split-train and --split-val (nodes per class).
const maxSplitPerClass = 1_000_000

func newTrainCmd() *cobra.Command {
	var (
		data, dataDir, model, archText     string
		attention, aggregation, activation string
		hidden, heads, outHeads            int
		bitsText                           string
		nSeeds, workers                    int
		firstSeed                          uint64
		cfg                                train.Config
		splitTrain, splitVal               int
		asJSON, long                       bool
		out                                string
	)
	cmd := &cobra.Command{
		Use:   "train --data NAME|PATH [--model gcn|gat|sage] [flags]",
		Short: "Train a GNN for node classification on a Planetoid data set (CPU) and report accuracy",
		Long: `Train a GNN for full-batch semi-supervised node classification on the CPU and
report the test accuracy at the epoch of best validation accuracy, per seed
and as mean ± sample standard deviation.

--data is a data set name (cora, citeseer, pubmed: the Planetoid files
under --data-dir, public split) or a path: a Planetoid file set
(../shared/data/planetoid/ind/cora names ind.cora.*; public split) or a
gnn-benchmark .npz file (split drawn per class with --split-train/
--split-val and --seed). Features are row-normalised.

--model picks the reference network and its training setting:
  gcn  Kipf and Welling: 2 layers, GCN attention, sum, ReLU; Adam lr 0.01,
       weight decay 5e-4 on the first layer, dropout 0.5, 200 epochs
  gat  Velickovic et al.: --heads x --hidden with ELU, --out-heads averaged
       output heads; lr 0.005, decay 5e-4 on all weights, dropout 0.6 on
       inputs and coefficients, 200 epochs
  sage GraphSAGE (Hamilton et al.; PyG's SAGEConv, root weight on): 2
       layers, self and neighbour weights, mean of the neighbours, ReLU;
       lr 0.01, decay 5e-4 on all weights, dropout 0.5, 200 epochs
       (--aggregation max: the maximum of the projected neighbours,
       max_j W x_j; PyG's max projects max_j x_j: 'go doc gnnsim/train')
--attention (constant, gcn, gat, sage), --aggregation (add, mean, max) change
every layer, --activation (linear, relu, tanh, sigmoid, elu, leaky_relu,
relu6, softplus) the hidden layers; --arch gives the whole network as
'go doc gnnsim/train.Arch.String' writes it, or as a GNN stack model file
(FILE.yaml, 'gnnsim models show --help'; kinds gcn, gat and sage, the last
layer as wide as the classes). Training flags override the
model's setting.

--bits quantises the trained weights and activations post-training to
signed fixed point (FGNAS Eq. 7-8): w=I.F,a=I.F gives I integer and F
fraction bits for the weights (w) and activations (a) of every layer; join
per-layer groups with '/'. Float and quantised accuracies are both shown.

The same flags give the same numbers, whatever --workers is. Progress
(epochs trained over all seeds) goes to stderr; --quiet silences it.

Table columns, one row per seed: seed; epoch (the epoch of best
validation accuracy, whose test accuracy is reported); val % and test %
(validation and test accuracy at that epoch); with --bits, qval % and
qtest % (the same after quantisation). The last line is the mean ± sample
standard deviation of the test accuracy over the seeds.

--json prints {data, arch, config, bits, runs, test_mean, test_std,
quant_test_mean, quant_test_std}; --out writes the runs as a Parquet file
with typed columns seed, epoch, val, test, quant_val, quant_test (percent;
without --bits, quant_val and quant_test equal val and test), its metadata holding gnnsim.data, gnnsim.arch, gnnsim.bits,
gnnsim.config (the training setting as JSON), gnnsim.command,
gnnsim.flags, gnnsim.seed (the first seed) and gnnsim.version.`,
		Example: `  gnnsim train --data cora --model gcn --hidden 16 --seeds 10
  gnnsim train --data ../shared/data/planetoid/ind/cora --model gcn --hidden 16 --seeds 10
  gnnsim train --data ../shared/data/planetoid/ind/cora --model gat --heads 8 --hidden 8
  gnnsim train --data ../shared/data/planetoid/ind/cora --model sage --aggregation max
  gnnsim train --data cora --model sage --arch examples/sage3.yaml
  gnnsim train --data ../shared/data/planetoid/ind/citeseer --bits w=1.5,a=2.4 --json
  gnnsim train --data ../shared/data/planetoid/ind/cora --seeds 10 --out runs.parquet
  gnnsim train --data ../shared/data/planetoid/ind/cora --arch gat:16x4:max:tanh/gcn:0x1:mean:linear`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl := cmd.Flags()
			if isModelFile(model) {
				// --model names the workload in every command: here a
				// model file is the network --arch FILE gives, trained
				// with the settings of its first layer's preset.
				if archText != "" {
					return fmt.Errorf("--model %s and --arch: give the network one way", model)
				}
				spec, err := workload.ReadModelSpec(model)
				if err != nil {
					return fmt.Errorf("--model: %w", err)
				}
				archText, model = model, "gcn"
				if len(spec.Layers) > 0 {
					if k := strings.ToLower(spec.Layers[0].Kind); k == "gat" || k == "sage" {
						model = k
					}
				}
			}
			if !fl.Changed("hidden") {
				switch model {
				case "gat":
					hidden = 8
				case "sage":
					hidden = 64
				}
			}
			arch, preset, err := train.Preset(model, hidden, heads, outHeads)
			if err != nil {
				return fmt.Errorf("--model: %w", err)
			}
			specFeatures := 0
			switch {
			case isModelFile(archText):
				spec, err := workload.ReadModelSpec(archText)
				if err != nil && !strings.Contains(err.Error(), archText) {
					return fmt.Errorf("--arch %s: %w", archText, err)
				} else if err != nil {
					return fmt.Errorf("--arch: %w", err)
				}
				if arch, err = train.SpecArch(spec); err != nil {
					return fmt.Errorf("--arch %s: %w", archText, err)
				}
				specFeatures = spec.Features
			case archText != "":
				if arch, err = train.ParseArch(archText); err != nil {
					return fmt.Errorf("--arch: %w", err)
				}
			}
			if err := overrideLayers(arch, attention, aggregation, activation); err != nil {
				return err
			}
			// Training flags given on the command line override the model's setting.
			if fl.Changed("epochs") {
				preset.Epochs = cfg.Epochs
			}
			if fl.Changed("lr") {
				preset.LR = cfg.LR
			}
			if fl.Changed("weight-decay") {
				preset.WeightDecay = cfg.WeightDecay
			}
			if fl.Changed("decay-all") {
				preset.DecayAll = cfg.DecayAll
			}
			if fl.Changed("dropout") {
				preset.Dropout = cfg.Dropout
			}
			if fl.Changed("attn-dropout") {
				preset.AttnDropout = cfg.AttnDropout
			}
			var bits []train.Bits
			if bitsText != "" {
				if bits, err = train.ParseBits(bitsText); err != nil {
					return fmt.Errorf("--bits: %w", err)
				}
			}
			ref, err := resolveData(data, dataDir, bench.NeedLabels)
			if err != nil {
				return err
			}
			p, err := graphs.LoadPlanetoid(ref.Path)
			if err != nil {
				return err
			}
			if p.Train == nil {
				if err := p.SplitPerClass(splitTrain, splitVal, firstSeed); err != nil {
					return err
				}
			}
			d, err := train.NewData(p)
			if err != nil {
				return err
			}
			if specFeatures != 0 && specFeatures != d.NumFeatures {
				return fmt.Errorf("--arch %s: features %d, %s has %d", archText, specFeatures, d.Name, d.NumFeatures)
			}
			seeds := make([]uint64, nSeeds)
			for i := range seeds {
				seeds[i] = firstSeed + uint64(i)
			}
			preset.Seed = firstSeed // reported; run i trains with seed firstSeed+i
			sctx, stop := signalContext()
			defer stop()
			ctx, cancel := context.WithCancelCause(sctx)
			defer cancel(nil)
			prog := bench.NewProgress(progressOut(cmd), "train", "epochs", len(seeds)*preset.Epochs)
			// A budget of days is refused once its rate is known, naming
			// the ETA, unless --long says it is meant.
			hook := func() {
				prog.Add(1)
				if !long {
					if err := prog.CheckETA(bench.MaxETA, "fewer --seeds or --epochs, or --long to run it anyway"); err != nil {
						cancel(err)
					}
				}
			}
			runs, err := train.TrainSeeds(train.WithEpochHook(ctx, hook), d, arch, preset, bits, seeds, workers)
			prog.Done()
			if cause := context.Cause(ctx); cause != nil && sctx.Err() == nil {
				return cause
			}
			if err != nil {
				return err
			}
			rep := newTrainReport(d, arch, preset, bits, runs)
			if out != "" {
				config, err := json.Marshal(rep.Config)
				if err != nil {
					return err
				}
				extra := map[string]string{"gnnsim.data": rep.Data, "gnnsim.arch": rep.Arch, "gnnsim.bits": rep.Bits, "gnnsim.config": string(config)}
				if err := writeOut(cmd, out, rep.Runs, extra); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			rep.print(cmd.OutOrStdout(), d)
			return nil
		},
	}
	f := cmd.Flags()
	dataFlags(f, &data, &dataDir, "", "node-classification set (required)")
	f.StringVar(&model, "model", "gcn", "reference model: gcn, gat or sage, or a model file FILE.yaml (as --arch FILE, with its first layer's preset settings)")
	f.StringVar(&archText, "arch", "", "whole network, e.g. gcn:16x1:add:relu/gcn:0x1:add:linear, or a model file FILE.yaml (overrides --model's layers)")
	intFlag(f, &hidden, "hidden", 16, 1, train.MaxWidth, "features per head of the hidden layer (default 16 for gcn, 8 for gat, 64 for sage)")
	intFlag(f, &heads, "heads", 8, 1, train.MaxHeads, "attention heads of the hidden layer (gat)")
	intFlag(f, &outHeads, "out-heads", 1, 1, train.MaxHeads, "averaged heads of the output layer (gat)")
	f.StringVar(&attention, "attention", "", "attention of every layer: constant, gcn, gat or sage")
	f.StringVar(&aggregation, "aggregation", "", "aggregation of every layer: add, mean or max")
	f.StringVar(&activation, "activation", "", "activation of the hidden layers: linear, relu, tanh, sigmoid, elu, leaky_relu, relu6, softplus")
	intFlag(f, &cfg.Epochs, "epochs", 200, 1, train.MaxEpochs, "training epochs (default: the model's, 200)")
	floatFlag(f, &cfg.LR, "lr", 0.01, 0, maxLR, true, "Adam learning rate (default: the model's)")
	floatFlag(f, &cfg.WeightDecay, "weight-decay", 5e-4, 0, 1, false, "L2 weight decay (default: the model's)")
	f.BoolVar(&cfg.DecayAll, "decay-all", false, "decay every layer's weights, not only the first layer's (default: the model's)")
	floatFlag(f, &cfg.Dropout, "dropout", 0.5, 0, 0.99, false, "dropout on every layer input (default: the model's)")
	floatFlag(f, &cfg.AttnDropout, "attn-dropout", 0, 0, 0.99, false, "dropout on GAT coefficients (default: the model's)")
	f.StringVar(&bitsText, "bits", "", "post-training fixed-point formats, w=I.F,a=I.F (every layer) or one group per layer joined by '/'")
	intFlag(f, &nSeeds, "seeds", 10, 1, maxTrainSeeds, "number of seeds (trainings): --seed, --seed+1, ...")
	f.BoolVar(&long, "long", false, "run a budget estimated to take more than a day (refused without it, once its rate is measured)")
	f.Uint64Var(&firstSeed, "seed", 1, "first seed (and the seed of an .npz split)")
	intFlag(f, &splitTrain, "split-train", 20, 1, maxSplitPerClass, "training nodes per class of an .npz split")
	intFlag(f, &splitVal, "split-val", 30, 0, maxSplitPerClass, "validation nodes per class of an .npz split")
	workersFlag(f, &workers, 0, "trainings run at once (default: number of CPUs); results do not depend on it")
	f.BoolVar(&asJSON, "json", false, "print one JSON object (accuracies in percent) instead of the table")
	outFileFlag(f, &out, "out", "", "also write one row per seed to a Parquet file (columns in --help)")
	quietFlag(cmd)
	cmd.MarkFlagRequired("data")
	return cmd
}

// overrideLayers applies --attention and --aggregation to every layer and
// --activation to the hidden layers.
func overrideLayers(a train.Arch, attention, aggregation, activation string) error {
	for i := range a.Layers {
		l := &a.Layers[i]
		var err error
		if attention != "" {
			if l.Attention, err = train.ParseAttention(attention); err != nil {
				return fmt.Errorf("--attention: %w", err)
			}
		}
		if aggregation != "" {
			if l.Aggregation, err = train.ParseAggregation(aggregation); err != nil {
				return fmt.Errorf("--aggregation: %w", err)
			}
		}
		if activation != "" && i < len(a.Layers)-1 {
			if l.Activation, err = train.ParseActivation(activation); err != nil {
				return fmt.Errorf("--activation: %w", err)
			}
		}
	}
	return nil
}

// trainReport is what 'gnnsim train' prints; accuracies in percent.
type trainReport struct {
	Data      string        `json:"data"`
	Arch      string        `json:"arch"`
	Config    train.Config  `json:"config"`
	Bits      string        `json:"bits"`
	Runs      []trainRunRow `json:"runs"`
	TestMean  float64       `json:"test_mean"`
	TestStd   float64       `json:"test_std"`
	QTestMean float64       `json:"quant_test_mean"`
	QTestStd  float64       `json:"quant_test_std"`
}

// trainRunRow is one training (one seed): a row of the table, of --json's
// runs and of --out.
type trainRunRow struct {
	Seed      uint64  `json:"seed" parquet:"seed"`
	Epoch     int     `json:"epoch" parquet:"epoch"`
	Val       float64 `json:"val" parquet:"val"`
	Test      float64 `json:"test" parquet:"test"`
	QuantVal  float64 `json:"quant_val" parquet:"quant_val"`
	QuantTest float64 `json:"quant_test" parquet:"quant_test"`
}

func newTrainReport(d *train.Data, a train.Arch, c train.Config, bits []train.Bits, runs []train.Run) *trainReport {
	r := &trainReport{Data: d.Name, Arch: a.String(), Config: c}
	parts := make([]string, len(bits))
	for i, b := range bits {
		parts[i] = b.String()
	}
	r.Bits = strings.Join(parts, "/")
	test, qtest := make([]float64, len(runs)), make([]float64, len(runs))
	for i, x := range runs {
		r.Runs = append(r.Runs, trainRunRow{x.Seed, x.Epoch, 100 * x.Val, 100 * x.Test, 100 * x.QuantVal, 100 * x.QuantTest})
		test[i], qtest[i] = 100*x.Test, 100*x.QuantTest
	}
	r.TestMean, r.TestStd = stat.MeanStdDev(test, nil)
	r.QTestMean, r.QTestStd = stat.MeanStdDev(qtest, nil)
	if len(runs) == 1 {
		r.TestStd, r.QTestStd = 0, 0 // stat gives NaN for one sample
	}
	return r
}

func (r *trainReport) print(w io.Writer, d *train.Data) {
	c := r.Config
	decay := "first layer"
	if c.DecayAll {
		decay = "all weights"
	}
	fmt.Fprintf(w, "%s: %d nodes, %d features, %d classes; split %d/%d/%d\n",
		d.Name, d.NumNodes, d.NumFeatures, d.NumClasses, len(d.Train), len(d.Val), len(d.Test))
	fmt.Fprintf(w, "network %s\n", r.Arch)
	fmt.Fprintf(w, "%d epochs, Adam lr %g, weight decay %g (%s), dropout %g, coefficient dropout %g\n",
		c.Epochs, c.LR, c.WeightDecay, decay, c.Dropout, c.AttnDropout)
	quant := r.Bits != ""
	if quant {
		fmt.Fprintf(w, "quantised to %s\n", r.Bits)
	}
	fmt.Fprintf(w, "\n%6s %6s %8s %8s", "seed", "epoch", "val %", "test %")
	if quant {
		fmt.Fprintf(w, " %8s %8s", "qval %", "qtest %")
	}
	fmt.Fprintln(w)
	for _, x := range r.Runs {
		fmt.Fprintf(w, "%6d %6d %8.2f %8.2f", x.Seed, x.Epoch, x.Val, x.Test)
		if quant {
			fmt.Fprintf(w, " %8.2f %8.2f", x.QuantVal, x.QuantTest)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\ntest accuracy %.2f ± %.2f %% over %d seeds", r.TestMean, r.TestStd, len(r.Runs))
	if quant {
		fmt.Fprintf(w, "; quantised %.2f ± %.2f %%", r.QTestMean, r.QTestStd)
	}
	fmt.Fprintln(w)
}

// isModelFile reports whether a --model or --arch value names a model file
// (YAML) rather than a preset or an inline architecture.
func isModelFile(s string) bool {
	return strings.HasSuffix(s, ".yaml") || strings.HasSuffix(s, ".yml")
}
