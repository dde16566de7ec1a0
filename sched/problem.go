package sched

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gnnsim/workload"
)

// Machine is one place a job can run: an accelerator, an SoC unit, a
// sub-accelerator of a template. The harness does not interpret it: what a
// job costs on it comes from the Table.
type Machine struct {
	Name string
	// Mappings names the ways the machine can run a job (dataflow
	// configurations of an Omega accelerator, operating points of a DVFS
	// unit, ...), in the order of the machine's columns in a Table. One
	// mapping means the machine's mapping is fixed; several, that a
	// MappingRule chooses one per job.
	Mappings []string
}

// maxTableEntries bounds a Table (16 GiB of int64): a larger one is a
// mistake in the caller's dimensions, not a workload.
const maxTableEntries = 1 << 31

// Table holds one latency in cycles per (job, machine, mapping), a job's
// row holding every machine's mappings in machine order. The caller fills
// it, usually from a hardware model's runs (an hw.Mapper runs each mapping).
type Table struct {
	jobs   int
	offset []int // offset[m] is machine m's first column; offset[M] the row width
	cycles []int64
}

// NewTable returns a zero-filled table for jobs on machines: one column per
// mapping of each machine.
func NewTable(jobs int, machines []Machine) (*Table, error) {
	if jobs <= 0 || len(machines) == 0 {
		return nil, fmt.Errorf("sched: table of %d jobs x %d machines, want both > 0", jobs, len(machines))
	}
	offset := make([]int, len(machines)+1)
	for m, mc := range machines {
		if err := mc.validate(m); err != nil {
			return nil, err
		}
		offset[m+1] = offset[m] + len(mc.Mappings)
		if offset[m+1] > maxTableEntries {
			break // reported below
		}
	}
	if width := offset[len(machines)]; width > maxTableEntries || jobs > maxTableEntries/width {
		return nil, fmt.Errorf("sched: table of %d jobs x %d mappings is too large", jobs, width)
	}
	return &Table{jobs: jobs, offset: offset, cycles: make([]int64, jobs*offset[len(machines)])}, nil
}

// validate checks that machine m has mappings, each named once.
func (mc *Machine) validate(m int) error {
	if len(mc.Mappings) == 0 {
		return fmt.Errorf("sched: machine %d (%s) has no mappings", m, mc.Name)
	}
	for k, name := range mc.Mappings {
		if slices.Contains(mc.Mappings[:k], name) {
			return fmt.Errorf("sched: machine %d (%s): mapping %q listed twice", m, mc.Name, name)
		}
	}
	return nil
}

// Dims returns the table's jobs and machines.
func (t *Table) Dims() (jobs, machines int) { return t.jobs, len(t.offset) - 1 }

// Mappings returns the number of mappings of machine m.
func (t *Table) Mappings(m int) int { return t.offset[m+1] - t.offset[m] }

func (t *Table) index(job, machine, mapping int) int {
	if uint(job) >= uint(t.jobs) || uint(machine) >= uint(len(t.offset)-1) || uint(mapping) >= uint(t.Mappings(machine)) {
		panic(fmt.Sprintf("sched: table index (%d, %d, %d) out of range (%d jobs, %d machines)", job, machine, mapping, t.jobs, len(t.offset)-1))
	}
	return job*t.offset[len(t.offset)-1] + t.offset[machine] + mapping
}

// Set stores the latency of job on machine with its mapping number mapping
// (an index into Machine.Mappings). Out-of-range indices panic, like a
// slice index.
func (t *Table) Set(job, machine, mapping int, cycles int64) {
	t.cycles[t.index(job, machine, mapping)] = cycles
}

// At returns the latency of job on machine with mapping.
func (t *Table) At(job, machine, mapping int) int64 {
	return t.cycles[t.index(job, machine, mapping)]
}

// PredictCycles makes a Table usable as a Predictor (a perfect one when it
// is the truth table, or a table of predictions computed elsewhere).
func (t *Table) PredictCycles(job, machine, mapping int) (float64, error) {
	return float64(t.At(job, machine, mapping)), nil
}

// Predictor gives predicted latencies in cycles. job indexes the jobs given
// to NewProblem; mapping indexes the machine's Mappings.
type Predictor interface {
	PredictCycles(job, machine, mapping int) (float64, error)
}

// PredictorFunc adapts a function to Predictor.
type PredictorFunc func(job, machine, mapping int) (float64, error)

// PredictCycles calls f.
func (f PredictorFunc) PredictCycles(job, machine, mapping int) (float64, error) {
	return f(job, machine, mapping)
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
	// over the machine's mappings and the mapping achieving it.
	bestTruth      []int64
	bestTruthMap   []int32
	bestPred       []float64
	bestPredMap    []int32
	order          []int32 // job indices by arrival, ties by index
	latestFinishUB int64   // last arrival + sum of each job's worst latency
}

// NewProblem validates its inputs and precomputes each job's best mappings.
// jobs[i] is row i of truth, which must have been made for machines. pred
// may be nil; then policies and mapping rules that need predictions fail to
// run. Every latency must be positive, and every prediction finite and
// positive.
func NewProblem(jobs []workload.Job, machines []Machine, truth *Table, pred Predictor) (*Problem, error) {
	if err := workload.ValidateAll(jobs); err != nil {
		return nil, fmt.Errorf("sched: %w", err)
	}
	return newProblem(jobs, machines, truth, pred)
}

// newProblem is NewProblem for jobs the caller has validated: a
// SharedProblem's model inferences, which are not GNN-layer jobs.
func newProblem(jobs []workload.Job, machines []Machine, truth *Table, pred Predictor) (*Problem, error) {
	if len(jobs) == 0 {
		return nil, errors.New("sched: no jobs")
	}
	if len(machines) == 0 {
		return nil, errors.New("sched: no machines")
	}
	if truth == nil {
		return nil, errors.New("sched: nil truth table")
	}
	if tj, tm := truth.Dims(); tj != len(jobs) || tm != len(machines) {
		return nil, fmt.Errorf("sched: truth table is %d jobs x %d machines, problem has %d x %d", tj, tm, len(jobs), len(machines))
	}
	if len(jobs) > math.MaxInt32 {
		return nil, fmt.Errorf("sched: %d jobs exceed the int32 job index", len(jobs))
	}
	p := &Problem{
		jobs:     slices.Clone(jobs),
		machines: make([]Machine, len(machines)),
		truth:    truth,
	}
	for m, mc := range machines {
		if err := mc.validate(m); err != nil {
			return nil, err
		}
		if len(mc.Mappings) != truth.Mappings(m) {
			return nil, fmt.Errorf("sched: machine %d (%s) has %d mappings, the truth table %d", m, mc.Name, len(mc.Mappings), truth.Mappings(m))
		}
		mc.Mappings = slices.Clone(mc.Mappings)
		if mc.Name == "" {
			mc.Name = fmt.Sprintf("m%d", m)
		}
		p.machines[m] = mc
	}

	n, M := len(jobs), len(machines)
	p.bestTruth = make([]int64, n*M)
	p.bestTruthMap = make([]int32, n*M)
	if pred != nil {
		p.pred = make([]float64, len(truth.cycles))
		p.bestPred = make([]float64, n*M)
		p.bestPredMap = make([]int32, n*M)
	}
	var maxArrival, sumWorst int64
	for j := range n {
		maxArrival = max(maxArrival, jobs[j].Arrival)
		var worst int64
		for m := range M {
			bt, bc := int32(-1), int64(0)
			pt, pc := int32(-1), 0.0
			for k := range p.machines[m].Mappings {
				c := truth.At(j, m, k)
				if c <= 0 {
					return nil, fmt.Errorf("sched: true latency of job %d (id %d) on machine %d mapping %d is %d cycles, want > 0", j, jobs[j].ID, m, k, c)
				}
				worst = max(worst, c)
				if bt < 0 || c < bc {
					bt, bc = int32(k), c
				}
				if pred == nil {
					continue
				}
				x, err := pred.PredictCycles(j, m, k)
				if err != nil {
					return nil, fmt.Errorf("sched: predicting job %d (id %d) on machine %d mapping %d: %w", j, jobs[j].ID, m, k, err)
				}
				if !(x > 0) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("sched: predicted latency of job %d (id %d) on machine %d mapping %d is %v, want finite > 0", j, jobs[j].ID, m, k, x)
				}
				p.pred[truth.index(j, m, k)] = x
				if pt < 0 || x < pc {
					pt, pc = int32(k), x
				}
			}
			p.bestTruth[j*M+m], p.bestTruthMap[j*M+m] = bc, bt
			if pred != nil {
				p.bestPred[j*M+m], p.bestPredMap[j*M+m] = pc, pt
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
// mapping.
func (p *Problem) TrueCycles(job, machine, mapping int) int64 {
	return p.truth.At(job, machine, mapping)
}

// PredictedCycles returns the predicted latency of job on machine with the
// given mapping, or NaN without predictions.
func (p *Problem) PredictedCycles(job, machine, mapping int) float64 {
	if p.pred == nil {
		return math.NaN()
	}
	return p.pred[p.truth.index(job, machine, mapping)]
}

// BestTrue returns job's least true latency on machine and the mapping that
// achieves it (on ties, the one listed first in Machine.Mappings).
func (p *Problem) BestTrue(job, machine int) (cycles int64, mapping int) {
	i := job*len(p.machines) + machine
	return p.bestTruth[i], int(p.bestTruthMap[i])
}

// BestPredicted returns job's least predicted latency on machine and its
// mapping; NaN and -1 without predictions.
func (p *Problem) BestPredicted(job, machine int) (cycles float64, mapping int) {
	if p.pred == nil {
		return math.NaN(), -1
	}
	i := job*len(p.machines) + machine
	return p.bestPred[i], int(p.bestPredMap[i])
}

// ReferenceService returns, per job, the service time workload.MeanGap
// calibrates arrivals against: the job's best-mapping true latency averaged
// over the machines, rounded to the nearest cycle. It is the mean load a job
// puts on the set when it runs at its best mapping on a machine chosen
// without regard to speed.
func ReferenceService(truth *Table) ([]int64, error) {
	if truth == nil {
		return nil, errors.New("sched: ReferenceService: nil table")
	}
	jobs, M := truth.Dims()
	out := make([]int64, jobs)
	for j := range out {
		var sum float64
		for m := range M {
			best := int64(math.MaxInt64)
			for k := range truth.Mappings(m) {
				c := truth.At(j, m, k)
				if c <= 0 {
					return nil, fmt.Errorf("sched: true latency of job %d on machine %d mapping %d is %d cycles, want > 0", j, m, k, c)
				}
				best = min(best, c)
			}
			sum += float64(best)
		}
		out[j] = int64(math.Round(sum / float64(M)))
	}
	return out, nil
}
