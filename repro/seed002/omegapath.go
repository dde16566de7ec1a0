package seed002

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gnnsim/accel"
	"gnnsim/bench"
	"gnnsim/internal/cliflag"
	"gnnsim/predict"
	"gnnsim/sched"
	"gnnsim/workload"
)

// This file is the schedule command's Omega path: the cases of sweep
// directories released as GCN-layer jobs on Omega accelerators in seed
// 002's scenarios. Its errors name the command's flags, as they are the
// only way to set these options.

// OmegaOptions are the options of the Omega path (gnnsim schedule
// --data), as given on the command line.
type OmegaOptions struct {
	Context     context.Context // stops the runs (a signal); nil: never
	Data        []string        // sweep directories
	Models      string          // predictor directory ("": none)
	Machines    string
	Arrivals    string // a process name or a trace file
	Scenario    string // 1, 2 or both
	Inference   string // cycles charged per prediction, or "measured"
	Policies    []string
	Seeds       []string
	Utilisation float64
	Shape       float64
	Exact       bool
	Jobs        int
	Workers     int
	Out         string
	Meta        map[string]string // the command and its flags as given: the tables' metadata
}

// MaxSeeds bounds the seeds of a schedule.
const MaxSeeds = 1000

// CheckScheduleSizes checks the numeric options of a schedule against the
// limits in the command's help.
func CheckScheduleSizes(util, shape float64, jobs, workers, seeds int) error {
	if err := cliflag.CheckPositive("utilisation", util); err != nil {
		return err
	}
	if math.IsNaN(shape) || math.IsInf(shape, 0) || shape <= 1 {
		return fmt.Errorf("--shape %v: want a finite number above 1", shape)
	}
	if err := cliflag.CheckRange("jobs", jobs, 0, MaxJobs); err != nil {
		return err
	}
	if seeds > MaxSeeds {
		return fmt.Errorf("--seeds: %d seeds, at most %d", seeds, MaxSeeds)
	}
	return cliflag.CheckWorkers(workers)
}

// OmegaSchedule is the Omega path resolved (jobs, machines, arrivals)
// and, after Run, its result.
type OmegaSchedule struct {
	o      *OmegaOptions
	ms     []sched.Machine
	js     *JobSet
	opts   ScheduleOptions
	charge int64
	// Result is what Run gave.
	Result *ScheduleResult
}

// RunOmega checks the options, reads the jobs, schedules them and writes
// the tables into o.Out when it is set.
func RunOmega(o *OmegaOptions) (*OmegaSchedule, error) {
	r, err := newOmegaSchedule(o)
	if err != nil {
		return nil, err
	}
	r.opts.Context = o.Context
	if o.Out == "" {
		r.Result, err = r.js.Schedule(r.opts)
		return r, err
	}
	undo, err := MakeOutDir(o.Out)
	if err != nil {
		return nil, err
	}
	meta := r.meta()
	// The job records go to the file as the runs end (bounded memory
	// whatever the jobs, seeds and policies), then the metrics.
	err = StreamRecords(filepath.Join(o.Out, ScheduleRecordsFile), meta, func(add func(*sched.Result) error) error {
		opts := r.opts
		opts.Records = add
		var err error
		r.Result, err = r.js.Schedule(opts)
		return err
	})
	if err != nil {
		undo()
		return nil, err
	}
	return r, WriteSchedule(o.Out, r.Result, meta)
}

// newOmegaSchedule checks the Omega path's options and reads its jobs.
func newOmegaSchedule(o *OmegaOptions) (*OmegaSchedule, error) {
	if len(o.Data) == 0 {
		return nil, fmt.Errorf("--data is required (jobs from a sweep, on Omega accelerators), or --job-models (model inferences on a SoC's units)")
	}
	if o.Out != "" {
		if err := cliflag.CheckOutDir("out", o.Out); err != nil {
			return nil, err
		}
	}
	if err := CheckScheduleSizes(o.Utilisation, o.Shape, o.Jobs, o.Workers, len(o.Seeds)); err != nil {
		return nil, err
	}
	r := &OmegaSchedule{o: o}
	var err error
	if r.ms, err = ParseMachines(o.Machines); err != nil {
		return nil, fmt.Errorf("%w (SoC units such as gpu, dla run model inferences: give --job-models)", err)
	}
	r.opts = ScheduleOptions{Policies: o.Policies, Workers: o.Workers,
		Arrivals: ArrivalOptions{Utilisation: o.Utilisation, Shape: o.Shape, Exact: o.Exact, Jobs: o.Jobs}}
	if r.opts.Arrivals.Process, r.opts.Arrivals.Trace, err = ParseArrivals(o.Arrivals); err != nil {
		return nil, err
	}
	if r.opts.Scenarios, err = ParseScenario(o.Scenario); err != nil {
		return nil, err
	}
	if r.opts.Seeds, err = cliflag.Seeds(o.Seeds); err != nil {
		return nil, err
	}
	cases, err := bench.ReadDatasets(o.Data)
	if err != nil {
		return nil, err
	}
	var pred *predict.Predictor
	if o.Models != "" {
		if pred, err = predict.LoadPredictor(o.Models); err != nil {
			return nil, err
		}
	}
	// Without a predictor NewJobSet must get a nil interface, not a nil
	// *predict.Predictor (which it would try to call).
	if pred != nil {
		r.js, err = NewJobSet(cases, r.ms, pred)
	} else {
		r.js, err = NewJobSet(cases, r.ms, nil)
	}
	if err != nil {
		return nil, err
	}
	if r.charge, err = inferenceCharge(o.Inference, pred, cases); err != nil {
		return nil, err
	}
	r.opts.InferenceCycles = r.charge
	return r, nil
}

// meta is the Omega path's tables' metadata: the command's (o.Meta) and
// the options as given, enough to rerun it.
func (r *OmegaSchedule) meta() map[string]string {
	o := r.o
	meta := map[string]string{}
	for k, v := range o.Meta {
		meta[k] = v
	}
	for k, v := range map[string]string{
		"gnnsim.data": strings.Join(o.Data, ","), "gnnsim.models": o.Models, "gnnsim.machines": o.Machines,
		"gnnsim.arrivals": o.Arrivals, "gnnsim.inference_cycles": strconv.FormatInt(r.charge, 10),
		"gnnsim.utilisation": strconv.FormatFloat(o.Utilisation, 'g', -1, 64), "gnnsim.shape": strconv.FormatFloat(o.Shape, 'g', -1, 64),
		"gnnsim.jobs": strconv.Itoa(r.js.TraceJobs(r.opts.Arrivals)), "gnnsim.seeds": fmt.Sprint(r.opts.Seeds),
		"gnnsim.policies": strings.Join(o.Policies, ","), "gnnsim.scenario": o.Scenario,
	} {
		meta[k] = v
	}
	return meta
}

// WriteText writes the Omega path's setting, table and speed-ups.
func (r *OmegaSchedule) WriteText(w io.Writer) {
	o, res := r.o, r.Result
	in := res.Instances[0]
	fmt.Fprintf(w, "%d jobs from %s on %d machines (%s); seeds %v; inference charge %d cycles\n",
		len(in.Case), strings.Join(o.Data, ","), len(r.ms), o.Machines, res.Seeds, r.charge)
	if r.opts.Arrivals.Trace == nil {
		fmt.Fprintf(w, "offered load (seed %d): %.3f at the best tilings, %.3f at random tilings\n", res.Seeds[0], in.Offered, in.OfferedRandom)
	}
	WriteMetricsTable(w, res.Mean)
	if sp, err := Speedups(res.Mean, sched.SJFPredicted().Info().Name); err == nil {
		fmt.Fprintln(w, "SJF-Predicted vs the best baseline (♦: no feasible baseline in the scenario):")
		for _, s := range sp {
			mark := ""
			if !s.BaselineFeasible {
				mark = " ♦"
			}
			fmt.Fprintf(w, "  scenario %d mean %-10s %s%s; %s\n", s.Scenario, s.Metric, s.Words(), mark, s.TruthWords())
		}
	}
	if o.Out != "" {
		fmt.Fprintf(w, "wrote %s/{%s,%s,%s}\n", o.Out, ScheduleRecordsFile, ScheduleRunsFile, ScheduleMeanFile)
	}
}

// WriteMetricsTable writes the policies' averaged metrics, one row per
// scenario and policy (cycles).
func WriteMetricsTable(w io.Writer, mean []sched.Metrics) {
	fmt.Fprintf(w, "%-3s %-14s %-4s %14s %14s %14s %14s %14s\n", "sc", "policy", "feas", "completion", "turnaround", "execution", "waiting", "p99 turnaround")
	for _, m := range mean {
		feas := "yes"
		if !m.Feasible {
			feas = "no"
		}
		fmt.Fprintf(w, "%-3d %-14s %-4s %14.4g %14.4g %14.4g %14.4g %14.4g\n", ScenarioOf(m.Baselines), m.Policy, feas,
			m.MeanCompletion, m.MeanTurnaround, m.MeanExecution, m.MeanWaiting, m.P99Turnaround)
	}
}

// ParseArrivals reads --arrivals: a process name, or a trace file. A value
// that looks like a file (a trace extension or a path separator) or names
// an existing file is read as a trace, so that a missing or malformed file
// is reported as such.
func ParseArrivals(v string) (workload.Process, []workload.Job, error) {
	if p, err := workload.ParseProcess(v); err == nil {
		return p, nil, nil
	}
	ext := strings.ToLower(filepath.Ext(v))
	_, statErr := os.Stat(v)
	if statErr == nil || ext == ".csv" || ext == ".parquet" || ext == ".pq" || strings.ContainsRune(v, filepath.Separator) {
		tr, err := workload.ReadTrace(v, workload.ReadOptions{F: 1, G: 1})
		if err != nil {
			return 0, nil, fmt.Errorf("--arrivals: %w", err)
		}
		return 0, tr, nil
	}
	return 0, nil, fmt.Errorf("--arrivals %q: not a process (pareto, lomax, poisson) nor a trace file (.csv, .parquet, .pq)", v)
}

// ParseScenario reads --scenario: 1, 2 or both.
func ParseScenario(s string) ([]Scenario, error) {
	switch s {
	case "1":
		return []Scenario{Scenario1}, nil
	case "2":
		return []Scenario{Scenario2}, nil
	case "both":
		return []Scenario{Scenario1, Scenario2}, nil
	}
	return nil, fmt.Errorf("--scenario %q: want 1, 2 or both", s)
}

// inferenceCharge resolves --inference-cycles: a number of cycles, or
// "measured" (this host's predictor timed, at the accelerator clock).
func inferenceCharge(v string, pred *predict.Predictor, cases []predict.Sample) (int64, error) {
	if v != "measured" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("--inference-cycles %q: want a number of cycles >= 0 or 'measured'", v)
		}
		return n, nil
	}
	if pred == nil {
		return 0, fmt.Errorf("--inference-cycles measured needs --models")
	}
	d, err := MeasureInference(pred, cases, 2000)
	if err != nil {
		return 0, err
	}
	return int64(float64(d) / float64(time.Second) * accel.DefaultHW().ClockHz), nil
}
