package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/internal/cliflag"
	"gnnsim/train"
)

func init() { register(newTrainCmd) }

// maxLR bounds --lr: Adam steps above 10 per unit gradient only diverge
// (the seed papers use 0.005 to 0.01).
const maxLR = 10.0

// maxTrainSeeds bounds train --seeds: each seed is a whole training.
const maxTrainSeeds = 10_000

// maxSplitPerClass bounds --split-train and --split-val (nodes per class).
const maxSplitPerClass = 1_000_000

// trainFlags are train's options.
type trainFlags struct {
	data, dataDir, bitsText, out string
	setup                        train.Setup // the network and training setting
	seedList                     []string
	runs, workers                int
	firstSeed                    uint64
	splitTrain, splitVal         int
	asJSON, long                 bool
}

func newTrainCmd() *cobra.Command {
	var o trainFlags
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
'go doc gnnsim/train.Arch.String' writes it. --model FILE.yaml trains a GNN
stack model file ('gnnsim models show --help'; kinds gcn, gat and sage, the
last layer as wide as the classes) with the settings of its first layer's
preset; --arch FILE.yaml, its old spelling (beside --model gcn|gat|sage),
still works for one release and says so on stderr. Training flags override
the model's setting.

--bits quantises the trained weights and activations post-training to
signed fixed point (FGNAS Eq. 7-8): w=I.F,a=I.F gives I integer and F
fraction bits for the weights (w) and activations (a) of every layer; join
per-layer groups with '/'. Float and quantised accuracies are both shown.

--seeds lists the seeds to train with (1,2,3: one training each, as every
command's --seeds); --runs N trains N seeds from --seed (--seed, --seed+1,
...; the default, 10 runs from seed 1). Before, '--seeds N' was that count:
write --runs N for it (the same trainings, the same numbers).

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
		Example: `  gnnsim train --data cora --model gcn --hidden 16 --runs 10
  gnnsim train --data ../shared/data/planetoid/ind/cora --model gcn --hidden 16 --seeds 1,2,3
  gnnsim train --data ../shared/data/planetoid/ind/cora --model gat --heads 8 --hidden 8
  gnnsim train --data ../shared/data/planetoid/ind/cora --model sage --aggregation max
  gnnsim train --data cora --model examples/sage3.yaml
  gnnsim train --data ../shared/data/planetoid/ind/citeseer --bits w=1.5,a=2.4 --json
  gnnsim train --data ../shared/data/planetoid/ind/cora --runs 10 --out runs.parquet
  gnnsim train --data ../shared/data/planetoid/ind/cora --arch gat:16x4:max:tanh/gcn:0x1:mean:linear`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTrain(cmd, &o) },
	}
	addTrainFlags(cmd, &o)
	return cmd
}

// addTrainFlags registers train's flags.
func addTrainFlags(cmd *cobra.Command, o *trainFlags) {
	f := cmd.Flags()
	dataFlags(f, &o.data, &o.dataDir, "", "node-classification set (required)")
	u := &o.setup
	f.StringVar(&u.Model, "model", "gcn", "reference model: gcn, gat or sage, or a model file FILE.yaml (with its first layer's preset settings)")
	f.StringVar(&u.Arch, "arch", "", "whole network, e.g. gcn:16x1:add:relu/gcn:0x1:add:linear (overrides --model's layers); a model file FILE.yaml here is deprecated: use --model FILE.yaml")
	intFlag(f, &u.Hidden, "hidden", 16, 1, train.MaxWidth, "features per head of the hidden layer (default 16 for gcn, 8 for gat, 64 for sage)")
	intFlag(f, &u.Heads, "heads", 8, 1, train.MaxHeads, "attention heads of the hidden layer (gat)")
	intFlag(f, &u.OutHeads, "out-heads", 1, 1, train.MaxHeads, "averaged heads of the output layer (gat)")
	f.StringVar(&u.Attention, "attention", "", "attention of every layer: constant, gcn, gat or sage")
	f.StringVar(&u.Aggregation, "aggregation", "", "aggregation of every layer: add, mean or max")
	f.StringVar(&u.Activation, "activation", "", "activation of the hidden layers: linear, relu, tanh, sigmoid, elu, leaky_relu, relu6, softplus")
	intFlag(f, &u.Config.Epochs, "epochs", 200, 1, train.MaxEpochs, "training epochs (default: the model's, 200)")
	floatFlag(f, &u.Config.LR, "lr", 0.01, 0, maxLR, true, "Adam learning rate (default: the model's)")
	floatFlag(f, &u.Config.WeightDecay, "weight-decay", 5e-4, 0, 1, false, "L2 weight decay (default: the model's)")
	f.BoolVar(&u.Config.DecayAll, "decay-all", false, "decay every layer's weights, not only the first layer's (default: the model's)")
	floatFlag(f, &u.Config.Dropout, "dropout", 0.5, 0, 0.99, false, "dropout on every layer input (default: the model's)")
	floatFlag(f, &u.Config.AttnDropout, "attn-dropout", 0, 0, 0.99, false, "dropout on GAT coefficients (default: the model's)")
	f.StringVar(&o.bitsText, "bits", "", "post-training fixed-point formats, w=I.F,a=I.F (every layer) or one group per layer joined by '/'")
	listFlag(f, &o.seedList, "seeds", nil, "seeds to train with, comma-separated (one training each; default: --runs seeds from --seed)")
	intFlag(f, &o.runs, "runs", 10, 1, maxTrainSeeds, "number of trainings, seeds --seed, --seed+1, ... (what --seeds N meant before)")
	f.BoolVar(&o.long, "long", false, "run a budget estimated to take more than a day (refused without it, once its rate is measured)")
	f.Uint64Var(&o.firstSeed, "seed", 1, "first seed of --runs (and the seed of an .npz split)")
	intFlag(f, &o.splitTrain, "split-train", 20, 1, maxSplitPerClass, "training nodes per class of an .npz split")
	intFlag(f, &o.splitVal, "split-val", 30, 0, maxSplitPerClass, "validation nodes per class of an .npz split")
	workersFlag(f, &o.workers, 0, "trainings run at once (default: number of CPUs); results do not depend on it")
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object (accuracies in percent) instead of the table")
	outFileFlag(f, &o.out, "out", "", "also write one row per seed to a Parquet file (columns in --help)")
	quietFlag(cmd)
	cmd.MarkFlagRequired("data")
}

// trainSeeds returns the seeds to train with: --seeds, else --runs seeds
// from --seed. A one-seed --seeds N gets a note on stderr: N used to be a
// count.
func trainSeeds(cmd *cobra.Command, o *trainFlags) ([]uint64, error) {
	fl := cmd.Flags()
	seeds, err := cliflag.SeedsOrRuns(o.seedList, fl.Changed("seeds"), fl.Changed("runs"), o.runs, o.firstSeed, maxTrainSeeds)
	if err == nil && fl.Changed("seeds") && len(seeds) == 1 && seeds[0] > 1 {
		fmt.Fprintf(cmd.ErrOrStderr(), "gnnsim train: --seeds %d trains the one seed %d; for %d trainings from --seed (what --seeds N meant before) write --runs %d\n",
			seeds[0], seeds[0], seeds[0], seeds[0])
	}
	return seeds, err
}

// trainData loads --data with its split (an .npz file's drawn per class).
func trainData(o *trainFlags) (*train.Data, error) {
	ref, err := resolveData(o.data, o.dataDir, bench.NeedLabels)
	if err != nil {
		return nil, err
	}
	return train.LoadData(ref.Path, o.splitTrain, o.splitVal, o.firstSeed)
}

func runTrain(cmd *cobra.Command, o *trainFlags) error {
	o.setup.Given = cmd.Flags().Changed
	arch, preset, specFeatures, err := o.setup.Network()
	if err != nil {
		return err
	}
	if a := o.setup.Arch; train.IsModelFile(a) {
		fmt.Fprintf(cmd.ErrOrStderr(), "gnnsim: train --arch %s is deprecated and goes in the next release: use --model %s (it trains with the preset of the file's first layer)\n", a, a)
	}
	var bits []train.Bits
	if o.bitsText != "" {
		if bits, err = train.ParseBits(o.bitsText); err != nil {
			return fmt.Errorf("--bits: %w", err)
		}
	}
	seeds, err := trainSeeds(cmd, o)
	if err != nil {
		return err
	}
	d, err := trainData(o)
	if err != nil {
		return err
	}
	if specFeatures != 0 && specFeatures != d.NumFeatures {
		return fmt.Errorf("--arch %s: features %d, %s has %d", o.setup.Arch, specFeatures, d.Name, d.NumFeatures)
	}
	preset.Seed = seeds[0] // reported; run i trains with seed seeds[i]
	sctx, stop := signalContext()
	defer stop()
	ctx, cancel := context.WithCancelCause(sctx)
	defer cancel(nil)
	prog := bench.NewProgress(progressOut(cmd), "train", "epochs", len(seeds)*preset.Epochs)
	// A budget of days is refused once its rate is known, naming the ETA,
	// unless --long says it is meant.
	hook := prog.Guard(cancel, o.long, "fewer --seeds, --runs or --epochs, or --long to run it anyway")
	runs, err := train.TrainSeeds(train.WithEpochHook(ctx, hook), d, arch, preset, bits, seeds, o.workers)
	prog.Done()
	if cause := context.Cause(ctx); cause != nil && sctx.Err() == nil {
		return cause
	}
	if err != nil {
		return err
	}
	rep := train.NewReport(d, arch, preset, bits, runs)
	if o.out != "" {
		// gnnsim.seed is the first seed trained (--seed's value unless
		// --seeds lists others).
		extra, err := rep.Meta(seeds[0])
		if err != nil {
			return err
		}
		rows := make([]trainRunRow, len(rep.Runs))
		for i, r := range rep.Runs {
			rows[i] = trainRunRow(r)
		}
		if err := writeOut(cmd, o.out, rows, extra); err != nil {
			return err
		}
	}
	if o.asJSON {
		return writeJSON(cmd.OutOrStdout(), rep)
	}
	rep.WriteText(cmd.OutOrStdout(), d)
	return nil
}

// trainRunRow is train's Parquet row: its name is the schema's root name
// in the files --out wrote before the report moved to package train.
type trainRunRow train.RunRow
