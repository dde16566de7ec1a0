package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/bench"
)

func init() { register(newSweepCmd, newMergeCmd, datasetCmd) }

func newSweepCmd() *cobra.Command {
	var out, shard string
	var workers int
	sweepCmd := &cobra.Command{
		Use:   "sweep SPEC",
		Short: "Run a benchmark sweep described by a YAML spec",
		Long: `Run a sweep: graphs x feature sizes x configurations x hardware, as the
YAML spec says (commented example: bench/testdata/example.yaml). Results go to
OUT/graphs.parquet and OUT/runs.parquet (columns: see the bench package doc).

The spec's unit: key names the hardware kind: omega (default, the accelerator
swept over graphs); fpga, which sweeps a grid of FPGA designs (archs x tiles
x bits, bench/testdata/fpga.yaml); soc, which sweeps zoo models mapped onto
a SoC's units (models x graph_ops x power_modes x dvfs grid x mappings:
presets all-gpu, all-dla, graphers-on-dla, {random: {count, seed}} or soc eval
--mapping text; bench/testdata/soc.yaml); or dsa, which sweeps one
MAESTRO-priced DSA running zoo models (models x dataflows (built-ins or .m
files) x pes x l2_bytes, bench/testdata/dsa.yaml; a row equals 'gnnsim eval
--unit dsa --json'). fpga, soc and dsa write only OUT/runs.parquet, one row
per design point with typed columns, chunked by chunk_points.
unit: gcos sweeps G-CoS designs x model files x data sets the same way
(bench/testdata/gcos.yaml; a row equals 'gnnsim gcos eval --json').

The sweep is cut into chunks of chunk_graphs graphs, each written as a part
file under OUT/parts/ as soon as it is done. A rerun of the same command skips
finished chunks, so a killed sweep loses only the chunks in flight. With
--shard i/n (or SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, or
JOB_COMPLETION_INDEX with GNNSIM_SHARD_COUNT) only chunks c with c mod n = i
run; 'gnnsim merge' joins the shards. Output is byte-identical whatever the
worker count or sharding.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			spec, err := bench.LoadSpec(args[0])
			if err != nil {
				return err
			}
			def := ""
			if spec.Name != "" {
				def = "results/" + spec.Name
			} else if out == "" && !cmd.Flags().Changed("out") {
				return fmt.Errorf("%s: the spec has no name: give --out DIR (or a name: key for results/<name>)", args[0])
			}
			return runSweep(cmd, spec, out, def, workers, shard)
		},
	}
	outDirFlag(sweepCmd.Flags(), &out, "out", "", "output directory (default results/<spec name>)")
	workersFlag(sweepCmd.Flags(), &workers, 0, "parallel workers (default: number of CPUs); results do not depend on it")
	sweepCmd.Flags().StringVar(&shard, "shard", "", "run shard i of n (0-based), e.g. 0/4; default: from Slurm/Kubernetes environment, else the whole sweep")
	summaryFlags(sweepCmd)
	return sweepCmd
}

func newMergeCmd() *cobra.Command {
	var mergeOut string
	mergeCmd := &cobra.Command{
		Use:   "merge DIR...",
		Short: "Join the shard outputs of one sweep into one dataset",
		Long: `Join the part files of sweep directories (the shards of one spec, run into
separate directories or into one shared directory) into graphs.parquet and
runs.parquet. The result is byte-identical to an unsharded run of the spec.
Fails, naming the chunk, if any part is missing.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if mergeOut == "" && !cmd.Flags().Changed("out") {
				mergeOut = args[0]
			}
			if err := checkOutDir("out", mergeOut); err != nil {
				return err
			}
			start := time.Now()
			sum, err := bench.Merge(args, mergeOut)
			if err != nil {
				return err
			}
			sum.WriteText(cmd.OutOrStdout(), mergeOut, time.Since(start))
			return nil
		},
	}
	outDirFlag(mergeCmd.Flags(), &mergeOut, "out", "", "output directory (default: the first DIR)")
	return mergeCmd
}

func datasetCmd() *cobra.Command {
	var out, preset, dataDir, shard string
	var do bench.DatasetOptions
	var workers int
	cmd := &cobra.Command{
		Use:   "dataset",
		Short: "Build seed 002's data sets: graphs simulated on all 24 configurations",
		Long: `Build seed 002's data sets as sweep directories (graphs.parquet and
runs.parquet, as 'gnnsim sweep' writes them): every graph simulated on the 24
configurations (3 inter-phase dataflows x 8 tilings). 'graphlaxy' generates
the synthetic sets, 'real' loads the real ones. Both are sweeps underneath, so
they resume, shard and merge like 'gnnsim sweep'; their output feeds
'gnnsim predict' and 'gnnsim schedule'.`,
	}
	flags := func(c *cobra.Command) {
		outDirFlag(c.Flags(), &out, "out", "", "output directory (default results/<data set>)")
		c.Flags().StringVar(&do.Mode, "mode", bench.DatasetMode, "accelerator model: omega (STONNE-Omega numbers, seed 002's labels and repro seed002's) or extended")
		c.Flags().Uint64Var(&do.Seed, "seed", 1, "seed of every random choice")
		sizeFlags(c, &do.Sizes)
		workersFlag(c.Flags(), &workers, 0, "parallel workers (default: number of CPUs)")
		c.Flags().StringVar(&shard, "shard", "", "run shard i of n, as for sweep")
		summaryFlags(c)
	}
	glx := &cobra.Command{
		Use:   "graphlaxy",
		Short: "Graphlaxy Small (243 graphs), Medium (9,171) or Large (6,381) x 24 configurations",
		Long: `Generate one of seed 002's synthetic data sets with the Graphlaxy generator
(published sizes: small 243 graphs of 10.49 nodes on average, medium 9,171 of
241.95, large 6,381 of 782.36) and simulate every graph on the 24
configurations of the default 512-PE hardware. By default graph i gets
F = [16,32,64][i%3] and G = [16,32][i%2], the rule of the STONNE-Omega reference
set (seed 002 does not state its F and G); --F, --G and --sizes-mode change it.
Labels default to omega mode, as in 'repro seed002', so 'predict train' on this
output reaches the reproduction's accuracy. The last line reads: graphs=N runs=M
wall_s=T out=DIR.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkSizeFlags(do.Sizes); err != nil {
				return err
			}
			spec, err := bench.GraphlaxySpec(preset, do)
			if err != nil {
				return err
			}
			return runSweep(c, spec, out, "results/graphlaxy-"+preset, workers, shard)
		},
	}
	flags(glx)
	glx.Flags().StringVar(&preset, "preset", "medium", "data set: small, medium or large")
	real := &cobra.Command{
		Use:   "real",
		Short: "The real data sets (TU, Matrix Market networks, Cora) x 24 configurations",
		Long: `Load the real data sets under --data-dir and simulate every graph on the 24
configurations. The sets looked for, and where (bench.RealSets): ENZYMES,
PROTEINS, REDDIT-BINARY, MUTAG, AIDS, NCI1 as TU directories tu/<NAME>/; every
square matrix of matrix-market/ (SuiteSparse; rectangular ones are skipped and
listed); QOPTLib as tu/QOPTLib/ or qoptlib/*.mtx; PATTERN and TSP as tu/<NAME>/
or benchmarking-gnns/<NAME>/*.mtx; Cora as planetoid/cora/cora.cites. Absent sets
are left out (nothing is downloaded). Feature sizes as for graphlaxy. The last
line reads: graphs=N runs=M wall_s=T out=DIR.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkSizeFlags(do.Sizes); err != nil {
				return err
			}
			spec, err := bench.RealSpec(dataDir, do)
			if err != nil {
				return err
			}
			return runSweep(c, spec, out, "results/real", workers, shard)
		},
	}
	flags(real)
	dataDirFlag(real.Flags(), &dataDir, "folder of the real data sets (env GNNSIM_DATA)")
	cmd.AddCommand(glx, real)
	return cmd
}

// checkDataFlags checks the data-folder flags whose default is
// defaultDataDir: a folder the user named (with the flag or GNNSIM_DATA)
// must exist and hold something, or every data set would be skipped
// silently. The built-in default may be absent (a fresh clone works
// offline on generated graphs).
func checkDataFlags(cmd *cobra.Command) error {
	// --data "" given on the command line would mean the command's
	// default data set (cora) in some commands: never what was asked.
	if f := cmd.Flags().Lookup("data"); f != nil && f.Changed && f.Value.Type() == "string" && strings.TrimSpace(f.Value.String()) == "" {
		return fmt.Errorf("--data is empty: name a data set or a path (leave the flag out for the command's default)")
	}
	def := defaultDataDir()
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.DefValue != def || f.Value.Type() != "string" {
			return
		}
		named := f.Changed || os.Getenv("GNNSIM_DATA") != ""
		if !named {
			return
		}
		dir, how := f.Value.String(), "--"+f.Name+" "
		if !f.Changed {
			how = "GNNSIM_DATA="
		}
		ents, rerr := os.ReadDir(dir)
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			err = fmt.Errorf("%s%s: not a directory (it does not exist): name the shared data folder (with planetoid/, ...)", how, dir)
		case rerr != nil:
			err = fmt.Errorf("%s%s: not a readable directory (%v): name the shared data folder (with planetoid/, ...)", how, dir, errors.Unwrap(rerr))
		case len(ents) == 0:
			err = fmt.Errorf("%s%s is an empty folder: name the shared data folder (with planetoid/, ...)", how, dir)
		}
	})
	return err
}

// sizeFlags registers --F, --G and --sizes-mode, the feature sizes of a
// preset data set (empty: bench.DefaultSizes).
func sizeFlags(c *cobra.Command, s *bench.SizeSpec) {
	d := bench.DefaultSizes()
	c.Flags().IntSliceVar(&s.F, "F", nil, fmt.Sprintf("input feature sizes F, a list (default %v; 1..%d)", d.F, bench.MaxFeatures))
	c.Flags().IntSliceVar(&s.G, "G", nil, fmt.Sprintf("output feature sizes G, a list (default %v; 1..%d)", d.G, bench.MaxFeatures))
	c.Flags().StringVar(&s.Mode, "sizes-mode", "", "how graphs get F and G from the lists: cycle (graph i: F[i mod len], G[i mod len]; default), cross (every pair) or random")
}

// checkSizeFlags refuses feature sizes outside [1, bench.MaxFeatures] and
// unknown modes, naming the flag.
func checkSizeFlags(s bench.SizeSpec) error {
	for _, f := range []struct {
		name string
		v    []int
	}{{"F", s.F}, {"G", s.G}} {
		for _, x := range f.v {
			if x < 1 || x > bench.MaxFeatures {
				return fmt.Errorf("--%s %d: a feature size is 1 to %d", f.name, x, bench.MaxFeatures)
			}
		}
	}
	switch s.Mode {
	case "", "cycle", "cross", "random":
		return nil
	}
	return fmt.Errorf("--sizes-mode %q: want cycle, cross or random", s.Mode)
}

func defaultDataDir() string {
	if d := os.Getenv("GNNSIM_DATA"); d != "" {
		return d
	}
	return "../shared/data"
}

func shardFlag(v string) (bench.Shard, error) {
	if v != "" {
		return bench.ParseShard(v)
	}
	s, _, err := bench.ShardFromEnv(nil)
	return s, err
}

// runSweep plans and runs spec into out (defaultOut when empty) with the
// --workers and --shard flags shared by sweep and dataset, stopping cleanly
// on SIGINT/SIGTERM.
func runSweep(cmd *cobra.Command, spec *bench.Spec, out, defaultOut string, workers int, shard string) error {
	sh, err := shardFlag(shard)
	if err != nil {
		return err
	}
	if out == "" && !cmd.Flags().Changed("out") {
		out = defaultOut
	}
	if err := checkOutDir("out", out); err != nil {
		return err
	}
	if err := checkWorkers(workers); err != nil {
		return err
	}
	start := time.Now()
	plan, err := bench.NewPlan(spec)
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	go func() {
		// After the first signal, a second one kills at once.
		<-ctx.Done()
		stop()
	}()
	sum, err := plan.Run(ctx, out, bench.Options{Workers: workers, Shard: sh, Progress: progressOut(cmd)})
	w := cmd.OutOrStdout()
	if sum != nil {
		for _, f := range sum.Removed {
			fmt.Fprintf(cmd.ErrOrStderr(), "removed damaged part file %s; its chunk is recomputed by its shard\n", f)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			kept := 0
			if sum != nil {
				kept = sum.ChunksDone
			}
			return fmt.Errorf("interrupted: kept %d of %d chunks in %s; rerun the same command to resume", kept, plan.NumChunks(), out)
		}
		return err
	}
	wall := time.Since(start)
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
		fmt.Fprintf(cmd.ErrOrStderr(), "wall_s=%.2f\n", wall.Seconds())
		return writeJSON(cmd.OutOrStdout(), sum.Report(out))
	}
	if !sum.Complete {
		fmt.Fprintf(w, "shard %s done: %d of %d chunks present in %s (%d computed, %d reused); run 'gnnsim merge' once all shards finish\n",
			sh, sum.ChunksDone, sum.Chunks, out, sum.ChunksComputed, sum.ChunksReused)
		return nil
	}
	sum.WriteText(w, out, wall)
	return nil
}

// summaryFlags adds --json and --quiet to a command that runs a sweep.
func summaryFlags(c *cobra.Command) {
	c.Flags().Bool("json", false, "print the summary as one JSON object (keys graphs, points (design points of an fpga, soc or dsa sweep, else 0), runs, chunks, chunks_done, chunks_computed, chunks_reused, complete, best, skipped, removed, out); the wall time goes to stderr")
	quietFlag(c)
}
