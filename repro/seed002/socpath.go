package seed002

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gnnsim/bench"
	"gnnsim/sched"
	"gnnsim/sim"
	"gnnsim/soc"
	"gnnsim/workload"
)

// This file is the schedule command's SoC path: seed 002's policies and
// metrics applied to model inferences on the units of one SoC sharing
// its memory (package sched's shared problem), run over seeds, written as
// seed 002's tables. Its errors name the command's flags, as they are
// the only way to set these options.

// SoCOptions are the options of the SoC path (gnnsim schedule
// --job-models).
type SoCOptions struct {
	Context     context.Context // stops the runs (a signal); nil: never
	SoC         *soc.SoC
	Models      []string // --job-models entries
	Graph, DVFS string
	Features    int
	Machines    string // unit names, comma-separated (the SoC's units unless MachinesSet)
	MachinesSet bool
	Arrivals    string
	Policies    []string
	Utilisation float64
	Shape       float64
	Jobs        int
	Seeds       []uint64
	Out         string
	Long        bool              // run a budget measured to take more than a day
	Progress    io.Writer         // progress lines; nil: none
	Meta        map[string]string // the command and its flags as given: the tables' metadata
}

// DefaultSoCJobs is the SoC path's trace length when Jobs is 0.
const DefaultSoCJobs = 1000

// SoCPolicies is the SoC path's default policy list: every standard
// policy but SJF-Predicted (no predictor), and EFT.
var SoCPolicies = []string{"Random", "FCFS", "LIFO", "SJF-Nodes", "SJF-Edges", "SJF-Truth", "EFT"}

// SoCScheduleRow is one policy's averaged metrics (the JSON object).
type SoCScheduleRow struct {
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

// ParseSoCModel reads one --job-models entry: a zoo name or model file,
// with "/split:UNIT" for the split mapping; a GNN model file runs on the
// first graph of graph (a graph file or set).
func ParseSoCModel(entry, graph string, features int) (sched.SoCModel, error) {
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
		gs, err := bench.LoadGraphs(graph, "")
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

// SoCSchedule is the SoC path resolved (the SoC, its units and job
// classes, the arrivals) and what its runs gave.
type SoCSchedule struct {
	o        *SoCOptions
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

	// Rows are the policies' metrics averaged over the seeds, in ms.
	Rows []SoCScheduleRow
}

// RunSoC schedules model inferences on the units of a SoC, every policy
// on every seed, and writes the tables into o.Out when it is set.
func RunSoC(o *SoCOptions) (*SoCSchedule, error) {
	if o.Jobs == 0 {
		o.Jobs = DefaultSoCJobs
	}
	r, err := newSoCSchedule(o)
	if err != nil {
		return nil, err
	}
	if err := r.arrivals(); err != nil {
		return nil, err
	}
	meta := r.meta()
	prog := bench.NewProgress(o.Progress, "schedule", "runs", len(o.Seeds)*len(r.pols))
	if o.Out == "" {
		err = r.runAll(prog, func(*sched.SharedProblem, *sched.Result) error { return nil })
	} else {
		var undo func()
		if undo, err = MakeOutDir(o.Out); err == nil {
			// Each run's job records go to the file as the run ends, so
			// memory holds one run's, whatever the seeds and policies.
			err = sched.StreamSharedRecords(filepath.Join(o.Out, ScheduleRecordsFile), meta,
				func(add func(*sched.SharedProblem, *sched.Result) error) error { return r.runAll(prog, add) })
			if err != nil {
				undo()
			}
		}
	}
	if err != nil {
		return nil, err
	}
	mean := sched.Average(r.runs)
	if o.Out != "" {
		if err := WriteSchedule(o.Out, &ScheduleResult{Runs: r.runs, Mean: mean}, meta); err != nil {
			return nil, err
		}
		title := fmt.Sprintf("%s on %s (%s), mean of %d seeds", strings.Join(o.Models, ", "), strings.Join(r.machines, "+"), r.s.Name(), len(o.Seeds))
		if err := PlotPolicies(filepath.Join(o.Out, "schedule_policies"), title, "ps", mean); err != nil {
			return nil, err
		}
	}
	r.Rows = r.rows(mean)
	return r, nil
}

// MakeOutDir makes the --out folder dir of a schedule and returns undo,
// which removes it again when it was made here (a failed or interrupted
// run leaves it empty: as if never made).
func MakeOutDir(dir string) (undo func(), err error) {
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return func() {
		if statErr != nil {
			os.Remove(dir)
		}
	}, nil
}

// newSoCSchedule resolves the SoC's operating point, the units that take
// jobs and the job classes of the models.
func newSoCSchedule(o *SoCOptions) (*SoCSchedule, error) {
	s := o.SoC
	d, err := soc.ParseDVFS(o.DVFS)
	if err != nil {
		return nil, fmt.Errorf("--dvfs: %w", err)
	}
	r := &SoCSchedule{o: o, s: s, machines: s.Units(), pols: o.Policies}
	if r.set, err = s.Setting(d); err != nil {
		return nil, fmt.Errorf("--dvfs: %w", err)
	}
	if o.MachinesSet {
		r.machines = strings.Split(o.Machines, ",")
	}
	o.Machines = strings.Join(r.machines, ",")
	models := make([]sched.SoCModel, len(o.Models))
	for i, e := range o.Models {
		if models[i], err = ParseSoCModel(e, o.Graph, o.Features); err != nil {
			return nil, err
		}
	}
	if r.classes, _, err = sched.SoCClasses(s, r.set, r.machines, models); err != nil {
		return nil, fmt.Errorf("--machines/--job-models: %w", err)
	}
	for i := range r.classes { // in models' order: a trace may name a job's model as written
		if e := o.Models[i]; !strings.EqualFold(e, r.classes[i].Name) {
			r.classes[i].Alias = e
		}
	}
	if r.ch, err = s.MemoryChannel(r.set); err != nil {
		return nil, err
	}
	if r.pols == nil {
		r.pols = SoCPolicies
	}
	return r, nil
}

// arrivals reads the arrivals: a process, whose load 1 is measured here,
// or a CSV trace to replay.
func (r *SoCSchedule) arrivals() error {
	o := r.o
	r.process = strings.ToLower(o.Arrivals)
	switch r.process {
	case "poisson", "bursty", "pareto", "lomax", "periodic":
	default:
		ext := strings.ToLower(filepath.Ext(o.Arrivals))
		if ext == ".parquet" || ext == ".pq" {
			return fmt.Errorf("--arrivals %s: the SoC path replays CSV traces (columns job_id, arrival_ps, model); Parquet traces are the Omega path's (--data)", o.Arrivals)
		}
		if _, err := os.Stat(o.Arrivals); err != nil && ext != ".csv" {
			return fmt.Errorf("--arrivals %q: on the SoC path want poisson, bursty, lomax, periodic or a trace file (.csv)", o.Arrivals)
		}
		var err error
		if r.replay, err = sched.ReadSharedTrace(o.Arrivals, r.classes); err != nil {
			return fmt.Errorf("--arrivals: %w", err)
		}
		return nil
	}
	// Load 1 is the SoC's measured capacity for the mix (a burst of jobs
	// under EFT, memory contention included), the same for every seed.
	var err error
	if r.capPS, err = sched.SaturatedJobPS(r.classes, r.machines, len(r.s.Units()), r.ch, r.s.MixedEfficiency(r.set), o.Seeds[0]); err != nil {
		return fmt.Errorf("--utilisation: measuring the SoC's capacity: %w", err)
	}
	return nil
}

// runAll runs every policy on every seed's trace, handing each run to add
// as it ends.
func (r *SoCSchedule) runAll(prog *bench.Progress, add func(*sched.SharedProblem, *sched.Result) error) error {
	stop := prog.Beat() // a run of 10^6 jobs takes seconds: never silent
	defer stop()
	o := r.o
	ss := &sched.SharedSeeds{Classes: r.classes, Machines: r.machines, Units: len(r.s.Units()), Channel: r.ch,
		Mixed: r.s.MixedEfficiency(r.set), Replay: r.replay, Seeds: o.Seeds, Policies: r.pols, Context: o.Context,
		Arrivals: sched.SharedArrivals{Process: r.process, Shape: o.Shape, Utilisation: o.Utilisation, Jobs: o.Jobs, CapacityPS: r.capPS},
		Done: func() error {
			prog.Add(1)
			if err := prog.CheckETA(bench.MaxETA, "fewer --seeds, --jobs or --policies, or --long to run it anyway"); err != nil && !o.Long {
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
func (r *SoCSchedule) rows(mean []sched.Metrics) []SoCScheduleRow {
	rows := make([]SoCScheduleRow, len(mean))
	for i, m := range mean {
		var sd float64
		for _, v := range r.slow[m.Policy] {
			sd += v
		}
		rows[i] = SoCScheduleRow{Policy: m.Policy, Feasible: m.Feasible, Seeds: m.Seeds, Jobs: m.Jobs,
			MeanCompletionMS: m.MeanCompletion * 1e-9, MeanTurnaroundMS: m.MeanTurnaround * 1e-9,
			MeanExecutionMS: m.MeanExecution * 1e-9, MeanWaitingMS: m.MeanWaiting * 1e-9,
			P99TurnaroundMS: m.P99Turnaround * 1e-9, MakespanMS: m.Makespan * 1e-9,
			MeanSlowdown: sd / float64(len(r.slow[m.Policy])), Machines: r.machines, Utilisation: m.Utilisation}
	}
	return rows
}

// WriteText writes the run's setting, each class's latency alone on each
// unit, and the policies' table.
func (r *SoCSchedule) WriteText(w io.Writer) {
	o := r.o
	src := o.Arrivals
	if r.replay == nil {
		src = fmt.Sprintf("%s arrivals at %.3g load: %.4g of the SoC's %.4g jobs/s", r.process, o.Utilisation, o.Utilisation*1e12/r.capPS, 1e12/r.capPS)
	}
	fmt.Fprintf(w, "%d jobs (%s) of %s on %s of %s (%s); seeds %v\n", len(r.sp.Jobs()), src, strings.Join(o.Models, ", "),
		strings.Join(r.machines, ", "), r.s.Name(), r.s.DVFS(r.set), o.Seeds)
	for c, cl := range r.classes {
		fmt.Fprintf(w, "  %-24s alone:", cl.Name)
		for m := range r.machines {
			fmt.Fprintf(w, " %s %.3f ms", r.machines[m], float64(r.sp.AlonePS(c, m))*1e-9)
		}
		fmt.Fprintln(w)
	}
	writeSoCTable(w, r.Rows)
	if o.Out != "" {
		fmt.Fprintf(w, "wrote %s/{%s,%s,%s,schedule_policies.png,schedule_policies.svg}\n", o.Out,
			ScheduleRecordsFile, ScheduleRunsFile, ScheduleMeanFile)
	}
}

func writeSoCTable(w io.Writer, rows []SoCScheduleRow) {
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

// meta is the tables' metadata: the command's (o.Meta) and the run's
// setting.
func (r *SoCSchedule) meta() map[string]string {
	o, s := r.o, r.s
	meta := map[string]string{}
	for k, v := range o.Meta {
		meta[k] = v
	}
	seeds := make([]string, len(o.Seeds))
	for i, v := range o.Seeds {
		seeds[i] = strconv.FormatUint(v, 10)
	}
	for k, v := range map[string]string{
		"gnnsim.soc": s.Name(), "gnnsim.dvfs": s.DVFS(r.set).String(), "gnnsim.job_models": strings.Join(o.Models, ","),
		"gnnsim.machines": o.Machines, "gnnsim.arrivals": o.Arrivals, "gnnsim.time_unit": "ps",
		"gnnsim.utilisation": strconv.FormatFloat(o.Utilisation, 'g', -1, 64), "gnnsim.shape": strconv.FormatFloat(o.Shape, 'g', -1, 64),
		"gnnsim.jobs": strconv.Itoa(o.Jobs), "gnnsim.seeds": strings.Join(seeds, ","), "gnnsim.policies": strings.Join(r.pols, ","),
		"gnnsim.graph": o.Graph, "gnnsim.features": strconv.Itoa(o.Features),
	} {
		meta[k] = v
	}
	if r.capPS > 0 {
		meta["gnnsim.capacity_jobs_per_s"] = strconv.FormatFloat(1e12/r.capPS, 'g', -1, 64)
	}
	return meta
}
