package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/repro/seed002"
	"gnnsim/sched"
	"gnnsim/sim"
	"gnnsim/soc"
	"gnnsim/workload"
)

// scheduleSoC holds the options of schedule's SoC path.
type scheduleSoC struct {
	ctx                 context.Context // stops the runs (a signal); nil: never
	models              []string
	graph, spec, dvfs   string
	features            int
	machines, arrivals  string
	policies            []string
	util, shape         float64
	jobs                int
	seeds               []uint64
	out                 string
	asJSON, machinesSet bool
	long                bool // run a budget measured to take more than a day
}

// socPolicies is the SoC path's default policy list: every standard
// policy but SJF-Predicted (no predictor), and EFT.
var socPolicies = []string{"Random", "FCFS", "LIFO", "SJF-Nodes", "SJF-Edges", "SJF-Truth", "EFT"}

// socScheduleRow is one policy's averaged metrics (the JSON object).
type socScheduleRow struct {
	Policy           string    `json:"policy"`
	Feasible         bool      `json:"feasible"`
	Seeds            int       `json:"seeds"`
	Jobs             int       `json:"jobs"`
	MeanCompletionMS float64   `json:"mean_completion_ms"`
	MeanTurnaroundMS float64   `json:"mean_turnaround_ms"`
	MeanExecutionMS  float64   `json:"mean_execution_ms"`
	MeanWaitingMS    float64   `json:"mean_waiting_ms"`
	P99TurnaroundMS  float64   `json:"p99_turnaround_ms"`
	MakespanMS       float64   `json:"makespan_ms"`
	MeanSlowdown     float64   `json:"mean_slowdown"`
	Machines         []string  `json:"machines"`
	Utilisation      []float64 `json:"utilisation"`
}

// parseSoCModel reads one --job-models entry: a zoo name or model file,
// with "/split:UNIT" for the split mapping.
func parseSoCModel(entry, graph string, features int) (sched.SoCModel, error) {
	name, offload := entry, ""
	if i := strings.LastIndex(entry, "/split:"); i >= 0 {
		name, offload = entry[:i], entry[i+len("/split:"):]
		if offload == "" {
			return sched.SoCModel{}, fmt.Errorf("--job-models %s: /split: names no unit (e.g. vig-s/split:dla)", entry)
		}
	}
	spec, err := workload.ResolveModelSpec(name)
	if err != nil {
		return sched.SoCModel{}, fmt.Errorf("--job-models: %w", err)
	}
	var in workload.Size
	if spec.NeedsGraph() {
		if graph == "" {
			return sched.SoCModel{}, fmt.Errorf("--job-models %s: a GNN model file runs on a graph: give --graph PATH", name)
		}
		gs, err := loadGraphs(graph, "")
		if err != nil {
			return sched.SoCModel{}, fmt.Errorf("--graph: %w", err)
		}
		if len(gs) == 0 {
			return sched.SoCModel{}, fmt.Errorf("--graph %s: no graph", graph)
		}
		in = workload.Size{Nodes: int64(gs[0].NumNodes()), NNZ: int64(gs[0].NumEdges())}
		if features == 0 && spec.Features == 0 {
			return sched.SoCModel{}, fmt.Errorf("--job-models %s: --graph %s has no node features: give the input width with --features (or features: in the file)", name, graph)
		}
	}
	m, err := spec.Build(in, features)
	if err != nil {
		return sched.SoCModel{}, fmt.Errorf("--job-models %s: %w", name, err)
	}
	if spec.Zoo == "" && spec.Name == "" {
		m.Name = name
	}
	return sched.SoCModel{Model: m, Offload: offload}, nil
}

// socRun is the SoC path resolved (the SoC, its units and job classes,
// the arrivals) and what its runs gave.
type socRun struct {
	o        *scheduleSoC
	s        *soc.SoC
	set      soc.Setting
	machines []string
	classes  []sched.JobClass
	ch       sim.Channel
	pols     []string
	process  string
	replay   []sched.SharedJob // a replayed trace; nil: generated arrivals
	capPS    float64           // the SoC's measured time per job of the mix (generated arrivals)

	runs []sched.Metrics
	slow map[string][]float64 // each run's mean slowdown, per policy
	sp   *sched.SharedProblem // the last seed's problem
}

// runScheduleSoC schedules model inferences on the units of a SoC.
func runScheduleSoC(cmd *cobra.Command, o *scheduleSoC) error {
	r, err := newSoCRun(o)
	if err != nil {
		return err
	}
	if err := r.arrivals(); err != nil {
		return err
	}
	meta := socScheduleMeta(cmd, o, r.s, r.set, r.pols)
	if r.capPS > 0 {
		meta["gnnsim.capacity_jobs_per_s"] = strconv.FormatFloat(1e12/r.capPS, 'g', -1, 64)
	}
	prog := bench.NewProgress(progressOut(cmd), "schedule", "runs", len(o.seeds)*len(r.pols))
	if o.out == "" {
		err = r.runAll(prog, func(*sched.SharedProblem, *sched.Result) error { return nil })
	} else {
		var undo func()
		if undo, err = makeOutDir(o.out); err == nil {
			// Each run's job records go to the file as the run ends, so
			// memory holds one run's, whatever the seeds and policies.
			err = sched.StreamSharedRecords(filepath.Join(o.out, seed002.ScheduleRecordsFile), meta,
				func(add func(*sched.SharedProblem, *sched.Result) error) error { return r.runAll(prog, add) })
			if err != nil {
				undo()
			}
		}
	}
	if err != nil {
		return err
	}
	mean := sched.Average(r.runs)
	if o.out != "" {
		if err := seed002.WriteSchedule(o.out, &seed002.ScheduleResult{Runs: r.runs, Mean: mean}, meta); err != nil {
			return err
		}
		title := fmt.Sprintf("%s on %s (%s), mean of %d seeds", strings.Join(o.models, ", "), strings.Join(r.machines, "+"), r.s.Name(), len(o.seeds))
		if err := seed002.PlotPolicies(filepath.Join(o.out, "schedule_policies"), title, "ps", mean); err != nil {
			return err
		}
	}
	rows := r.rows(mean)
	if o.asJSON {
		return writeJSON(cmd.OutOrStdout(), rows)
	}
	r.print(cmd.OutOrStdout(), rows)
	return nil
}

// newSoCRun resolves the SoC, its operating point, the units that take
// jobs and the job classes of --job-models.
func newSoCRun(o *scheduleSoC) (*socRun, error) {
	s, err := loadSoC(o.spec, "", "")
	if err != nil {
		return nil, err
	}
	d, err := soc.ParseDVFS(o.dvfs)
	if err != nil {
		return nil, fmt.Errorf("--dvfs: %w", err)
	}
	r := &socRun{o: o, s: s, machines: s.Units(), pols: o.policies}
	if r.set, err = s.Setting(d); err != nil {
		return nil, fmt.Errorf("--dvfs: %w", err)
	}
	if o.machinesSet {
		r.machines = strings.Split(o.machines, ",")
	}
	o.machines = strings.Join(r.machines, ",")
	models := make([]sched.SoCModel, len(o.models))
	for i, e := range o.models {
		if models[i], err = parseSoCModel(e, o.graph, o.features); err != nil {
			return nil, err
		}
	}
	if r.classes, _, err = sched.SoCClasses(s, r.set, r.machines, models); err != nil {
		return nil, fmt.Errorf("--machines/--job-models: %w", err)
	}
	for i := range r.classes { // in models' order: a trace may name a job's model as written
		if e := o.models[i]; !strings.EqualFold(e, r.classes[i].Name) {
			r.classes[i].Alias = e
		}
	}
	if r.ch, err = s.MemoryChannel(r.set); err != nil {
		return nil, err
	}
	if r.pols == nil {
		r.pols = socPolicies
	}
	return r, nil
}

// arrivals reads --arrivals: a process, whose load 1 is measured here,
// or a CSV trace to replay.
func (r *socRun) arrivals() error {
	o := r.o
	r.process = strings.ToLower(o.arrivals)
	switch r.process {
	case "poisson", "bursty", "pareto", "lomax", "periodic":
	default:
		ext := strings.ToLower(filepath.Ext(o.arrivals))
		if ext == ".parquet" || ext == ".pq" {
			return fmt.Errorf("--arrivals %s: the SoC path replays CSV traces (columns job_id, arrival_ps, model); Parquet traces are the Omega path's (--data)", o.arrivals)
		}
		if _, err := os.Stat(o.arrivals); err != nil && ext != ".csv" {
			return fmt.Errorf("--arrivals %q: on the SoC path want poisson, bursty, lomax, periodic or a trace file (.csv)", o.arrivals)
		}
		var err error
		if r.replay, err = sched.ReadSharedTrace(o.arrivals, r.classes); err != nil {
			return fmt.Errorf("--arrivals: %w", err)
		}
		return nil
	}
	// Load 1 is the SoC's measured capacity for the mix (a burst of jobs
	// under EFT, memory contention included), the same for every seed.
	var err error
	if r.capPS, err = sched.SaturatedJobPS(r.classes, r.machines, len(r.s.Units()), r.ch, r.s.MixedEfficiency(r.set), o.seeds[0]); err != nil {
		return fmt.Errorf("--utilisation: measuring the SoC's capacity: %w", err)
	}
	return nil
}

// runAll runs every policy on every seed's trace, handing each run to add
// as it ends.
func (r *socRun) runAll(prog *bench.Progress, add func(*sched.SharedProblem, *sched.Result) error) error {
	stop := prog.Beat() // a run of 10^6 jobs takes seconds: never silent
	defer stop()
	o := r.o
	ss := &sched.SharedSeeds{Classes: r.classes, Machines: r.machines, Units: len(r.s.Units()), Channel: r.ch,
		Mixed: r.s.MixedEfficiency(r.set), Replay: r.replay, Seeds: o.seeds, Policies: r.pols, Context: o.ctx,
		Arrivals: sched.SharedArrivals{Process: r.process, Shape: o.shape, Utilisation: o.util, Jobs: o.jobs, CapacityPS: r.capPS},
		Done: func() error {
			prog.Add(1)
			if err := prog.CheckETA(bench.MaxETA, "fewer --seeds, --jobs or --policies, or --long to run it anyway"); err != nil && !o.long {
				return err
			}
			return nil
		}}
	err := ss.Run(add)
	r.runs, r.slow, r.sp = ss.Runs, ss.Slowdown, ss.Problem
	if err != nil {
		return err
	}
	prog.Done()
	return nil
}

// rows are the policies' averaged metrics in ms.
func (r *socRun) rows(mean []sched.Metrics) []socScheduleRow {
	rows := make([]socScheduleRow, len(mean))
	for i, m := range mean {
		var sd float64
		for _, v := range r.slow[m.Policy] {
			sd += v
		}
		rows[i] = socScheduleRow{Policy: m.Policy, Feasible: m.Feasible, Seeds: m.Seeds, Jobs: m.Jobs,
			MeanCompletionMS: m.MeanCompletion * 1e-9, MeanTurnaroundMS: m.MeanTurnaround * 1e-9,
			MeanExecutionMS: m.MeanExecution * 1e-9, MeanWaitingMS: m.MeanWaiting * 1e-9,
			P99TurnaroundMS: m.P99Turnaround * 1e-9, MakespanMS: m.Makespan * 1e-9,
			MeanSlowdown: sd / float64(len(r.slow[m.Policy])), Machines: r.machines, Utilisation: m.Utilisation}
	}
	return rows
}

// print writes the run's setting, each class's latency alone on each
// unit, and the policies' table.
func (r *socRun) print(w io.Writer, rows []socScheduleRow) {
	o := r.o
	src := o.arrivals
	if r.replay == nil {
		src = fmt.Sprintf("%s arrivals at %.3g load: %.4g of the SoC's %.4g jobs/s", r.process, o.util, o.util*1e12/r.capPS, 1e12/r.capPS)
	}
	fmt.Fprintf(w, "%d jobs (%s) of %s on %s of %s (%s); seeds %v\n", len(r.sp.Jobs()), src, strings.Join(o.models, ", "),
		strings.Join(r.machines, ", "), r.s.Name(), r.s.DVFS(r.set), o.seeds)
	for c, cl := range r.classes {
		fmt.Fprintf(w, "  %-24s alone:", cl.Name)
		for m := range r.machines {
			fmt.Fprintf(w, " %s %.3f ms", r.machines[m], float64(r.sp.AlonePS(c, m))*1e-9)
		}
		fmt.Fprintln(w)
	}
	printSoCSchedule(w, rows)
	if o.out != "" {
		fmt.Fprintf(w, "wrote %s/{%s,%s,%s,schedule_policies.png,schedule_policies.svg}\n", o.out,
			seed002.ScheduleRecordsFile, seed002.ScheduleRunsFile, seed002.ScheduleMeanFile)
	}
}

func printSoCSchedule(w io.Writer, rows []socScheduleRow) {
	fmt.Fprintln(w, "times in ms, averaged over the seeds (see --help for the columns):")
	fmt.Fprintf(w, "%-10s %-4s %12s %12s %12s %12s %12s %8s  %s\n", "policy", "feas", "completion", "turnaround", "execution", "waiting", "p99 turn.", "slowdown", "utilisation")
	for _, r := range rows {
		feas := "yes"
		if !r.Feasible {
			feas = "no"
		}
		var util []string
		for m, u := range r.Utilisation {
			util = append(util, fmt.Sprintf("%s %.0f%%", r.Machines[m], 100*u))
		}
		fmt.Fprintf(w, "%-10s %-4s %12.4g %12.4g %12.4g %12.4g %12.4g %8.3f  %s\n", r.Policy, feas, r.MeanCompletionMS, r.MeanTurnaroundMS,
			r.MeanExecutionMS, r.MeanWaitingMS, r.P99TurnaroundMS, r.MeanSlowdown, strings.Join(util, ", "))
	}
}

func socScheduleMeta(cmd *cobra.Command, o *scheduleSoC, s *soc.SoC, set soc.Setting, pols []string) map[string]string {
	meta := runMeta(cmd) // the command and its flags as given: enough to rerun it
	seeds := make([]string, len(o.seeds))
	for i, v := range o.seeds {
		seeds[i] = strconv.FormatUint(v, 10)
	}
	for k, v := range map[string]string{
		"gnnsim.soc": s.Name(), "gnnsim.dvfs": s.DVFS(set).String(), "gnnsim.job_models": strings.Join(o.models, ","),
		"gnnsim.machines": o.machines, "gnnsim.arrivals": o.arrivals, "gnnsim.time_unit": "ps",
		"gnnsim.utilisation": strconv.FormatFloat(o.util, 'g', -1, 64), "gnnsim.shape": strconv.FormatFloat(o.shape, 'g', -1, 64),
		"gnnsim.jobs": strconv.Itoa(o.jobs), "gnnsim.seeds": strings.Join(seeds, ","), "gnnsim.policies": strings.Join(pols, ","),
		"gnnsim.graph": o.graph, "gnnsim.features": strconv.Itoa(o.features),
	} {
		meta[k] = v
	}
	return meta
}
