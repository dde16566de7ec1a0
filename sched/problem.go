package sched

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gnnsim/workload"
)

// Machine is one accelerator of the set.
type Machine struct {
	Name string
	// Dataflow is the machine's inter-phase dataflow id in the caller's
	// numbering (e.g. seq, sp, pp). The harness records it and does not
	// interpret it: latencies come from the Table.
	Dataflow int
	// Tilings lists the tiling ids (columns of the latency Table) this
	// machine may run. One entry means a fixed tiling; several mean the
	// tiling is chosen per job.
	Tilings []int
}

// maxTableEntries bounds a Table (16 GiB of int64): a larger one is a
// mistake in the caller's dimensions, not a workload.
const maxTableEntries = 1 << 31

// Table holds one latency in cycles per (job, machine, tiling id). The
// caller fills it, usually from the accelerator simulator; entries for
// tilings a machine cannot run are ignored.
type Table struct {
	jobs, machines, tilings int
	cycles                  []int64
}

// NewTable returns a zero-filled table for the given dimensions.
func NewTable(jobs, machines, tilings int) (*Table, error) {
	if jobs <= 0 || machines <= 0 || tilings <= 0 {
		return nil, fmt.Errorf("sched: table dimensions %d jobs x %d machines x %d tilings, want all > 0", jobs, machines, tilings)
	}
	if jobs > maxTableEntries/machines/tilings {
		return nil, fmt.Errorf("sched: table of %d x %d x %d entries is too large", jobs, machines, tilings)
	}
	return &Table{jobs, machines, tilings, make([]int64, jobs*machines*tilings)}, nil
}

// Dims returns the table's dimensions.
func (t *Table) Dims() (jobs, machines, tilings int) { return t.jobs, t.machines, t.tilings }

func (t *Table) index(job, machine, tiling int) int {
	if uint(job) >= uint(t.jobs) || uint(machine) >= uint(t.machines) || uint(tiling) >= uint(t.tilings) {
		panic(fmt.Sprintf("sched: table index (%d, %d, %d) out of range (%d, %d, %d)", job, machine, tiling, t.jobs, t.machines, t.tilings))
	}
	return (job*t.machines+machine)*t.tilings + tiling
}

// Set stores the latency of job on machine with tiling. Out-of-range
// indices panic, like a slice index.
func (t *Table) Set(job, machine, tiling int, cycles int64) {
	t.cycles[t.index(job, machine, tiling)] = cycles
}

// At returns the latency of job on machine with tiling.
func (t *Table) At(job, machine, tiling int) int64 { return t.cycles[t.index(job, machine, tiling)] }

// PredictCycles makes a Table usable as a Predictor (a perfect one when it
// is the truth table, or a table of predictions computed elsewhere).
func (t *Table) PredictCycles(job, machine, tiling int) (float64, error) {
	return float64(t.At(job, machine, tiling)), nil
}

// Predictor gives predicted latencies in cycles. job indexes the jobs given
// to NewProblem; tiling is a tiling id from the machine's Tilings.
type Predictor interface {
	PredictCycles(job, machine, tiling int) (float64, error)
}

// PredictorFunc adapts a function to Predictor.
type PredictorFunc func(job, machine, tiling int) (float64, error)

// PredictCycles calls f.
func (f PredictorFunc) PredictCycles(job, machine, tiling int) (float64, error) {
	return f(job, machine, tiling)
}

// Problem is a scheduling instance: jobs with arrival times, machines, true
// latencies and optional predictions. It is read-only once built and may be
// shared by concurrent runs. The truth Table is referenced, not copied: do
// not modify it afterwards.
type Problem struct {
	jobs     []workload.Job
	machines []Machine
	truth    *Table
	pred     []float64 // same layout as truth.cycles; nil without a predictor

	// Per (job, machine), index j*M+m: the best true and predicted latency
	// over the machine's tilings and the tiling id achieving it.
	bestTruth      []int64
	bestTruthTile  []int32
	bestPred       []float64
	bestPredTile   []int32
	order          []int32 // job indices by arrival, ties by index
	latestFinishUB int64   // last arrival + sum of each job's worst latency
}

// NewProblem validates its inputs and precomputes each job's best tilings.
// jobs[i] is row i of truth. pred may be nil; then policies and tiling rules
// that need predictions fail to run. Every latency a machine can incur must
// be positive, and every prediction finite and positive.
func NewProblem(jobs []workload.Job, machines []Machine, truth *Table, pred Predictor) (*Problem, error) {
	if len(jobs) == 0 {
		return nil, errors.New("sched: no jobs")
	}
	if len(machines) == 0 {
		return nil, errors.New("sched: no machines")
	}
	if truth == nil {
		return nil, errors.New("sched: nil truth table")
	}
	if truth.jobs != len(jobs) || truth.machines != len(machines) {
		return nil, fmt.Errorf("sched: truth table is %d jobs x %d machines, problem has %d x %d", truth.jobs, truth.machines, len(jobs), len(machines))
	}
	if len(jobs) > math.MaxInt32 {
		return nil, fmt.Errorf("sched: %d jobs exceed the int32 job index", len(jobs))
	}
	if err := workload.ValidateAll(jobs); err != nil {
		return nil, fmt.Errorf("sched: %w", err)
	}
	p := &Problem{
		jobs:     slices.Clone(jobs),
		machines: make([]Machine, len(machines)),
		truth:    truth,
	}
	for m, mc := range machines {
		if len(mc.Tilings) == 0 {
			return nil, fmt.Errorf("sched: machine %d (%s) has no tilings", m, mc.Name)
		}
		for k, t := range mc.Tilings {
			if t < 0 || t >= truth.tilings {
				return nil, fmt.Errorf("sched: machine %d (%s): tiling %d outside the table's 0..%d", m, mc.Name, t, truth.tilings-1)
			}
			if slices.Contains(mc.Tilings[:k], t) {
				return nil, fmt.Errorf("sched: machine %d (%s): tiling %d listed twice", m, mc.Name, t)
			}
		}
		mc.Tilings = slices.Clone(mc.Tilings)
		if mc.Name == "" {
			mc.Name = fmt.Sprintf("m%d", m)
		}
		p.machines[m] = mc
	}

	n, M := len(jobs), len(machines)
	p.bestTruth = make([]int64, n*M)
	p.bestTruthTile = make([]int32, n*M)
	if pred != nil {
		p.pred = make([]float64, len(truth.cycles))
		p.bestPred = make([]float64, n*M)
		p.bestPredTile = make([]int32, n*M)
	}
	var maxArrival, sumWorst int64
	for j := range n {
		maxArrival = max(maxArrival, jobs[j].Arrival)
		var worst int64
		for m := range M {
			bt, bc := int32(-1), int64(0)
			pt, pc := int32(-1), 0.0
			for _, t := range p.machines[m].Tilings {
				c := truth.At(j, m, t)
				if c <= 0 {
					return nil, fmt.Errorf("sched: true latency of job %d (id %d) on machine %d tiling %d is %d cycles, want > 0", j, jobs[j].ID, m, t, c)
				}
				worst = max(worst, c)
				if bt < 0 || c < bc {
					bt, bc = int32(t), c
				}
				if pred == nil {
					continue
				}
				x, err := pred.PredictCycles(j, m, t)
				if err != nil {
					return nil, fmt.Errorf("sched: predicting job %d (id %d) on machine %d tiling %d: %w", j, jobs[j].ID, m, t, err)
				}
				if !(x > 0) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("sched: predicted latency of job %d (id %d) on machine %d tiling %d is %v, want finite > 0", j, jobs[j].ID, m, t, x)
				}
				p.pred[truth.index(j, m, t)] = x
				if pt < 0 || x < pc {
					pt, pc = int32(t), x
				}
			}
			p.bestTruth[j*M+m], p.bestTruthTile[j*M+m] = bc, bt
			if pred != nil {
				p.bestPred[j*M+m], p.bestPredTile[j*M+m] = pc, pt
			}
		}
		if sumWorst > math.MaxInt64/2-worst {
			return nil, errors.New("sched: total job latency overflows the clock")
		}
		sumWorst += worst
	}
	if maxArrival > math.MaxInt64/2-sumWorst {
		return nil, errors.New("sched: arrivals plus job latencies overflow the clock")
	}
	p.latestFinishUB = maxArrival + sumWorst

	p.order = make([]int32, n)
	for i := range p.order {
		p.order[i] = int32(i)
	}
	slices.SortStableFunc(p.order, func(a, b int32) int { return cmp.Compare(p.jobs[a].Arrival, p.jobs[b].Arrival) })
	return p, nil
}

// Jobs returns the problem's jobs (do not modify).
func (p *Problem) Jobs() []workload.Job { return p.jobs }

// Machines returns the problem's machines (do not modify).
func (p *Problem) Machines() []Machine { return p.machines }

// HasPredictions reports whether the problem was built with a Predictor.
func (p *Problem) HasPredictions() bool { return p.pred != nil }

// TrueCycles returns the true latency of job on machine with the given
// tiling id.
func (p *Problem) TrueCycles(job, machine, tiling int) int64 { return p.truth.At(job, machine, tiling) }

// PredictedCycles returns the predicted latency of job on machine with the
// given tiling id, or NaN without predictions.
func (p *Problem) PredictedCycles(job, machine, tiling int) float64 {
	if p.pred == nil {
		return math.NaN()
	}
	return p.pred[p.truth.index(job, machine, tiling)]
}

// BestTrue returns job's least true latency on machine and the tiling id
// that achieves it (on ties, the one listed first in Machine.Tilings).
func (p *Problem) BestTrue(job, machine int) (cycles int64, tiling int) {
	i := job*len(p.machines) + machine
	return p.bestTruth[i], int(p.bestTruthTile[i])
}

// BestPredicted returns job's least predicted latency on machine and its
// tiling id; NaN and -1 without predictions.
func (p *Problem) BestPredicted(job, machine int) (cycles float64, tiling int) {
	if p.pred == nil {
		return math.NaN(), -1
	}
	i := job*len(p.machines) + machine
	return p.bestPred[i], int(p.bestPredTile[i])
}

// ReferenceService returns, per job, the service time workload.MeanGap
// calibrates arrivals against: the job's best-tiling true latency averaged
// over the machines, rounded to the nearest cycle. It is the mean load a job
// puts on the set when it runs at its best tiling on a machine chosen
// without regard to speed.
func ReferenceService(truth *Table, machines []Machine) ([]int64, error) {
	if truth == nil || truth.machines != len(machines) {
		return nil, errors.New("sched: ReferenceService: table does not match the machines")
	}
	out := make([]int64, truth.jobs)
	for j := range out {
		var sum float64
		for m := range machines {
			if len(machines[m].Tilings) == 0 {
				return nil, fmt.Errorf("sched: machine %d has no tilings", m)
			}
			best := int64(math.MaxInt64)
			for _, t := range machines[m].Tilings {
				if t < 0 || t >= truth.tilings {
					return nil, fmt.Errorf("sched: machine %d: tiling %d outside the table", m, t)
				}
				c := truth.At(j, m, t)
				if c <= 0 {
					return nil, fmt.Errorf("sched: true latency of job %d on machine %d tiling %d is %d cycles, want > 0", j, m, t, c)
				}
				best = min(best, c)
			}
			sum += float64(best)
		}
		out[j] = int64(math.Round(sum / float64(len(machines))))
	}
	return out, nil
}
