package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"gnnsim/internal/cliflag"
	"gnnsim/repro/seed002"
	"gnnsim/workload"
)

func init() { register(newScheduleCmd) }

// scheduleFlags are schedule's flags, both paths'.
type scheduleFlags struct {
	data, policies, seedList, jobModels                  []string
	models, machines, arrivals, scenario, inference, out string
	graph, spec, dvfs                                    string
	util, shape                                          float64
	jobs, workers, features                              int
	exact, asJSON, static                                bool
}

func newScheduleCmd() *cobra.Command {
	var o scheduleFlags
	cmd := &cobra.Command{
		Use:     "schedule (--data DIR [--models MODELS] | --job-models MODELS) [flags]",
		Short:   "Online scheduling of jobs on accelerators (seed 002, section 4) or on a SoC's units sharing one memory",
		Long:    scheduleLong,
		Example: scheduleExample,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	o.addFlags(cmd)
	return cmd
}

const scheduleExample = `  gnnsim schedule --data sweep/ --models models/ --seeds 1,2,3
  gnnsim schedule --job-models vig-s,vig-s/split:dla,googlenet --machines gpu,dla --arrivals poisson --jobs 2000
  gnnsim schedule --job-models vig-s,vig-s/split:dla,googlenet,resnet50,alexnet --arrivals sched/testdata/hetero.csv --out out/`

const scheduleLong = `Two paths.

OMEGA PATH (--data): release the cases (graph, F, G) of sweep directories as
GCN-layer jobs over an arrival trace and schedule them on a set of Omega
accelerators with the standard policies, in seed 002's scenarios:

  scenario 1  baselines (Random, FCFS, LIFO, SJF-Nodes, SJF-Edges) run a random tiling
  scenario 2  baselines run the optimal tiling
  SJF-Truth always runs the optimal tiling (true latencies; not feasible in practice);
  SJF-Predicted the tiling the --models predictor says is fastest, and pays
  --inference-cycles per job before it can be dispatched.

True latencies are the runs table's cycles. Generated arrivals have a mean gap
set so that the jobs offer --utilisation of the machines' capacity, counting
each job at its best tiling averaged over the machines; each seed shuffles the
jobs and draws its own gaps. A replayed trace (CSV or Parquet, the columns of
package workload) gives the arrival times and job order itself: job_id,
arrival_cycle, and the case of each job as graph_index (its index in the data,
i.e. runs-table order) or as graph (a graph name with a single case), so
job_id,arrival_cycle,graph_index is a complete trace; sizes, widths and kinds
come from the data, not the trace. A trace without jobs is an error.

Prints the metrics per scenario and policy, averaged over the seeds (cycles), and
SJF-Predicted's speed-ups over the best feasible baseline. Table columns: sc
(the scenario, 1 or 2); policy; feas (whether the policy could run in
practice in that scenario: "no" when it knows the true latencies, as
SJF-Truth, or runs the optimal tiling, as the scenario 2 baselines; seed 002
marks these with a diamond); completion (mean finish time); turnaround (mean
finish - arrival); execution (mean finish - start); waiting (mean start -
arrival); p99 turnaround (99th percentile, nearest rank). Speed-ups are the
best baseline's mean over SJF-Predicted's, written "Nx faster" above 1 and
"Nx slower" (the inverse) below it; "x SJF-Truth" is SJF-Predicted's mean
over SJF-Truth's (1 is the oracle's); ♦ marks a scenario without a feasible
baseline. With --json prints a
JSON array instead: one object per policy and scenario with keys policy, scenario,
mean_completion, mean_turnaround, mean_execution, mean_waiting, p99_turnaround.
--out DIR writes schedule_records.parquet (every job of every run),
schedule_metrics.parquet (per run) and schedule_mean.parquet (per policy and
scenario).

SOC PATH (--job-models): jobs are inferences of models (zoo names such as
vig-s, googlenet, or model files; a GNN model file runs on --graph) on the
units of one SoC (--spec, default the Jetson AGX Xavier; --machines names
the units that take jobs, default all: gpu,dla; DSAs the spec declares are
units too). The units run at once and share the one memory (a sim.Channel):
every step of a job (a compute phase, a hand-off between units) sends its
bytes through it, so two memory-bound jobs on the GPU and the DLA each run
slower than alone. A step also needs its unit: a DLA job's GPU-fallback
kernels wait while the GPU runs another job's step. A job's mapping is
whole (every block on the unit it is dispatched to) or, for an entry
NAME/split:UNIT, split: the graph blocks (ViG's Graphers, a GNN's layers)
on UNIT, the rest on the dispatch unit, with the hand-offs between them.
With one job in the SoC at a time a job takes exactly what 'gnnsim soc
eval' gives for the same model and mapping. Profiles (each model on each
unit, at --dvfs) are priced once. The memory arbitrates as in 'gnnsim soc
corun' (soc.SendShared: first come first served, interleaved streams at
the memory's mixed efficiency), but step by step: a step's bytes are
requested when it starts, where 'soc corun' spreads each kernel's bytes
over its time in 64 KiB chunks and adds the longer latency of interleaved
accesses. So concurrent jobs here usually slow each other less than the
same pair in 'soc corun'; chunking every job would multiply the events of
an online study of 10^5 jobs.

Arrivals: poisson, bursty (or pareto: Pareto gaps of --shape), lomax or
periodic (camera frames, a fixed gap), with the mean gap set so the jobs
offer --utilisation of the SoC's measured capacity: load 1 is as many jobs
a second as the SoC completes when 2,000 jobs of the mix queue up at once
(EFT, memory contention included; printed, and kept in the tables'
gnnsim.capacity_jobs_per_s), so 0.85 leaves the units idle about 15 % of
the time; --jobs (default 1,000) per seed; each seed draws
its own trace, and seeds run one after another (--workers is the Omega
path's). Or a CSV trace to replay: columns job_id, arrival_ps
(integer ps from the origin) and model (an entry of --job-models). Policies:
Random, FCFS, LIFO, SJF-Nodes, SJF-Edges (the model's input nodes / edges;
a CNN has no edges, so among CNN jobs SJF-Edges is FCFS),
SJF-Truth (least contention-free latency over (job, free unit) pairs) and EFT
(earliest finish time: a job goes, on arrival, to the unit where it would
finish first given its latency there and the work already queued for that
unit). SJF-Predicted needs a predictor and is not offered here.

Prints each model's contention-free latency on each machine, then per
policy, averaged over the seeds, in ms: policy; feas (yes: every policy
here uses only what a deployment can measure, the per-unit latency
profiles); completion (mean finish time from the trace origin); turnaround
(mean finish - arrival); execution (mean finish - start: the job's run,
stretched by waiting for units and memory); waiting (mean start - arrival);
p99 turn. (99th percentile of turnaround, nearest rank); slowdown (mean of
execution / contention-free latency over the jobs: 1 = never slowed);
utilisation (per machine: time holding a job / makespan). --json prints
one object per policy: policy, feasible, seeds, jobs, mean_completion_ms,
mean_turnaround_ms, mean_execution_ms, mean_waiting_ms, p99_turnaround_ms,
makespan_ms, mean_slowdown, machines, utilisation. --out DIR writes
schedule_records.parquet (per job and run: policy, seed, job_id, model,
machine, arrival_ps, start_ps, finish_ps, alone_ps, slowdown),
schedule_metrics.parquet and schedule_mean.parquet (seed 002's metric
columns, times in ps, scenario 1) and schedule_policies.png/.svg (seed
002's bars, each metric over its largest value).

Limits (checked before any work): --jobs at most 1,000,000, at most 1,000
seeds, --utilisation above 0, --shape above 1.`

func (o *scheduleFlags) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	pathListFlag(f, &o.data, "data", nil, "sweep directory whose cases are the jobs (repeat or comma-separate for several)")
	f.StringVar(&o.models, "models", "", "model directory of the latency predictor (needed by SJF-Predicted)")
	listFlag(f, &o.policies, "policies", nil, "policies to run (default all seven: Random, FCFS, LIFO, SJF-Nodes, SJF-Edges, SJF-Truth, SJF-Predicted; EFT on request). SoC path default: the six without SJF-Predicted, and EFT")
	f.StringVar(&o.machines, "machines", "seq,sp,pp", "accelerators, DATAFLOW[:TILINGS] each: seq,sp,pp is seed 002's set with free tiling a..h; sp:c fixes tiling c. SoC path: unit names (default: all the SoC's units)")
	f.Float64Var(&o.util, "utilisation", workload.DefaultUtilisation, "target offered load of generated arrivals (0..1 and beyond)")
	f.StringVar(&o.arrivals, "arrivals", "pareto", "arrival process pareto, lomax or poisson (SoC path also bursty, periodic), or a trace file (.csv, .parquet; SoC path .csv) to replay")
	f.Float64Var(&o.shape, "shape", workload.DefaultParetoShape, "shape of Pareto/Lomax inter-arrival gaps (> 1)")
	f.BoolVar(&o.exact, "exact", true, "rescale each seed's gaps so that it offers exactly --utilisation")
	intFlag(f, &o.jobs, "jobs", 0, 0, seed002.MaxJobs, "trace length; 0: every case once in a seeded order, N: N jobs drawn with replacement. SoC path: N jobs per seed (0: 1,000)")
	listFlag(f, &o.seedList, "seeds", []string{"1", "2", "3", "4", "5"}, "seeds of the runs (each draws its own trace and random choices)")
	f.StringVar(&o.scenario, "scenario", "both", "1 (baselines with random tiling), 2 (with optimal tiling) or both")
	f.StringVar(&o.inference, "inference-cycles", strconv.Itoa(seed002.InferenceCycles), "cycles charged per job to SJF-Predicted for running the predictors: a number (default: seed 002's 2,312), or 'measured' to time this host's predictor at the accelerator clock (not reproducible)")
	outDirFlag(f, &o.out, "out", "", "directory to write the Parquet records and metrics into")
	f.BoolVar(&o.asJSON, "json", false, "print a JSON array (one object per policy and scenario, cycles averaged over seeds)")
	f.Bool("long", false, "SoC path: run a budget (--jobs x --seeds x --policies) measured to take more than a day (refused without it, once its rate is measured)")
	workersFlag(f, &o.workers, 0, "seeds run at once (default: number of CPUs); results do not depend on it")
	listFlag(f, &o.jobModels, "job-models", nil, "SoC path: models the jobs run, zoo names or model files, NAME/split:UNIT for the split mapping (e.g. vig-s,vig-s/split:dla,googlenet)")
	f.StringVar(&o.graph, "graph", "", "SoC path: graph a GNN model file runs on (graph file or set; its first graph)")
	intFlag(f, &o.features, "features", 0, 0, int64(workload.MaxFeatures), "SoC path: input width of a GNN model file that gives none")
	f.StringVar(&o.spec, "spec", "", "SoC path: SoC spec YAML (default: the built-in Jetson AGX Xavier)")
	f.StringVar(&o.dvfs, "dvfs", "", `SoC path: operating points in MHz, e.g. "gpu=1377,emc=2133" (default: highest)`)
	f.BoolVar(&o.static, "static", false, "static concurrent schedules of the --job-models networks (two or more) split between two units (--machines, default gpu,dla): GPU only, GPU&DLA, H2H-like, Herald-like and a contention-aware search, each co-run to the steady state")
}

// run picks the path: static schedules, the SoC path (--job-models) or
// the Omega path (--data).
func (o *scheduleFlags) run(cmd *cobra.Command) error {
	if o.static {
		return runScheduleStatic(cmd, o)
	}
	// A signal stops the runs (within a few thousand events) and removes
	// what --out had begun: main reports the interruption.
	ctx, stop := signalContext()
	defer stop()
	w := cmd.OutOrStdout()
	if len(o.jobModels) == 0 {
		r, err := seed002.RunOmega(&seed002.OmegaOptions{Context: ctx, Data: o.data, Models: o.models, Machines: o.machines,
			Arrivals: o.arrivals, Scenario: o.scenario, Inference: o.inference, Policies: o.policies, Seeds: o.seedList,
			Utilisation: o.util, Shape: o.shape, Exact: o.exact, Jobs: o.jobs, Workers: o.workers, Out: o.out, Meta: runMeta(cmd)})
		if err != nil {
			return o.spanHint(err)
		}
		if o.asJSON {
			return writeJSON(w, seed002.Summaries(r.Result.Mean))
		}
		r.WriteText(w)
		return nil
	}
	if len(o.data) > 0 || o.models != "" {
		return fmt.Errorf("--job-models (the SoC path) excludes --data and --models (the Omega path)")
	}
	if cmd.Flags().Changed("scenario") || cmd.Flags().Changed("inference-cycles") || cmd.Flags().Changed("exact") {
		return fmt.Errorf("--scenario, --inference-cycles and --exact belong to the Omega path; the SoC path has one mapping per unit and no predictor")
	}
	if err := seed002.CheckScheduleSizes(o.util, o.shape, o.jobs, o.workers, len(o.seedList)); err != nil {
		return err
	}
	seeds, err := parseSeeds(o.seedList)
	if err != nil {
		return err
	}
	s, err := loadSoC(o.spec, "", "")
	if err != nil {
		return err
	}
	long, _ := cmd.Flags().GetBool("long")
	r, err := seed002.RunSoC(&seed002.SoCOptions{Context: ctx, SoC: s, Models: o.jobModels, Graph: o.graph, DVFS: o.dvfs,
		Features: o.features, Machines: o.machines, MachinesSet: cmd.Flags().Changed("machines"), Arrivals: o.arrivals,
		Policies: o.policies, Utilisation: o.util, Shape: o.shape, Jobs: o.jobs, Seeds: seeds, Out: o.out, Long: long,
		Progress: progressOut(cmd), Meta: runMeta(cmd)})
	if err != nil {
		return o.spanHint(err)
	}
	if o.asJSON {
		return writeJSON(w, r.Rows)
	}
	r.WriteText(w)
	return nil
}

// spanHint names the flags behind an arrival trace the clock cannot hold
// (workload.ErrSpan): a --utilisation so low, or --jobs so many, that the
// gaps add up past it.
func (o *scheduleFlags) spanHint(err error) error {
	if errors.Is(err, workload.ErrSpan) {
		return fmt.Errorf("--utilisation %g with --jobs %d: %w (a lower utilisation spreads the arrivals further apart: raise --utilisation or lower --jobs)", o.util, o.jobs, err)
	}
	return err
}

// parseSeeds reads a --seeds list (package cliflag).
var parseSeeds = cliflag.Seeds
