package sched

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/csvtab"
	"gnnsim/sim"
	"gnnsim/workload"
)

// SharedArrivals describes a generated trace of model inferences.
type SharedArrivals struct {
	// Process is poisson (exponential gaps), bursty (Pareto type I gaps
	// of Shape: seed 002's heavy tail, arrivals in bursts), lomax, or
	// periodic (frames of a camera: a fixed gap).
	Process string
	Shape   float64 // Pareto/Lomax shape (0: workload.DefaultParetoShape)
	// Utilisation sets the mean gap: the jobs offer this load to the
	// machines. With CapacityPS (SaturatedJobPS) the gap is CapacityPS /
	// Utilisation: load 1 is as many jobs as the SoC completes when they
	// queue up, memory contention included. Without, each job counts at
	// its contention-free latency averaged over the machines, which
	// overstates a heterogeneous SoC's capacity (a load of 0.85 left the
	// units busy 99 %).
	Utilisation float64
	Jobs        int
	CapacityPS  float64
}

// saturationJobs is the size of the burst SaturatedJobPS measures.
const saturationJobs = 2000

// SaturatedJobPS measures the SoC's capacity for a mix of classes: a
// burst of jobs (classes drawn uniformly, as GenerateShared draws them,
// from seed), all arriving at 0, scheduled with EFT on machines sharing
// channel, interleaved streams at the memory's mixed efficiency (as
// SharedProblem.SetMixedEfficiency); it returns the makespan over the
// jobs, the mean time per job at saturation (ps). Memory contention and
// each unit's speed on each class are in it; an arrival rate of
// 1/SaturatedJobPS is load 1.
func SaturatedJobPS(classes []JobClass, machines []string, units int, channel sim.Channel, mixed float64, seed uint64) (float64, error) {
	if len(classes) == 0 {
		return 0, errors.New("sched: no job classes")
	}
	rng := rand.New(rand.NewPCG(seed, classStream))
	jobs := make([]SharedJob, saturationJobs)
	for i := range jobs {
		jobs[i] = SharedJob{ID: int64(i), Class: rng.IntN(len(classes))}
	}
	sp, err := NewSharedProblem(classes, jobs, machines, units, channel)
	if err != nil {
		return 0, err
	}
	if err := sp.SetMixedEfficiency(mixed); err != nil {
		return 0, err
	}
	res, err := RunShared(sp, EFT(), Options{Seed: seed})
	if err != nil {
		return 0, err
	}
	m := res.Metrics()
	if !(m.Makespan > 0) {
		return 0, errors.New("sched: a burst of jobs took no time")
	}
	return m.Makespan / saturationJobs, nil
}

// classStream separates the draw of job classes from the arrival draws.
const classStream = 0x636c617373657300 // "classes"

// GenerateShared draws a trace of a.Jobs inferences of classes (priced on
// the same machines): each job's class uniformly, its arrival from the
// process, both from seed.
func GenerateShared(classes []JobClass, a SharedArrivals, seed uint64) ([]SharedJob, error) {
	if a.Jobs <= 0 {
		return nil, fmt.Errorf("sched: %d jobs, want > 0", a.Jobs)
	}
	if len(classes) == 0 || len(classes[0].Steps) == 0 {
		return nil, errors.New("sched: no job classes or no machines")
	}
	M := len(classes[0].Steps)
	ref := make([]int64, len(classes))
	for c := range classes {
		if len(classes[c].Steps) != M {
			return nil, fmt.Errorf("sched: class %s has runs on %d machines, class %s on %d", classes[c].Name, len(classes[c].Steps), classes[0].Name, M)
		}
		var sum float64
		for m := range M {
			sum += float64(classes[c].AlonePS(m))
		}
		ref[c] = int64(math.Round(sum / float64(M)))
	}
	rng := rand.New(rand.NewPCG(seed, classStream))
	jobs := make([]SharedJob, a.Jobs)
	service := make([]int64, a.Jobs)
	for i := range jobs {
		c := rng.IntN(len(classes))
		jobs[i] = SharedJob{ID: int64(i), Class: c}
		service[i] = ref[c]
	}
	machinesOf := M
	if a.CapacityPS > 0 { // the measured time per job of all machines together
		service, machinesOf = []int64{int64(math.Round(a.CapacityPS))}, 1
	}
	gap, err := workload.MeanGap(service, machinesOf, a.Utilisation)
	if err != nil {
		return nil, fmt.Errorf("sched: %w", err)
	}
	var times []int64
	switch strings.ToLower(a.Process) {
	case "periodic":
		times = make([]int64, a.Jobs)
		for i := range times {
			t := float64(i+1) * gap
			if t > math.MaxInt64/4 {
				return nil, errors.New("sched: periodic trace overflows the clock: fewer jobs or a higher utilisation")
			}
			times[i] = int64(math.Round(t))
		}
	default:
		var proc workload.Process
		switch strings.ToLower(a.Process) {
		case "poisson":
			proc = workload.Poisson
		case "bursty", "pareto":
			proc = workload.Pareto
		case "lomax":
			proc = workload.Lomax
		default:
			return nil, fmt.Errorf("sched: unknown arrival process %q (want poisson, bursty, lomax or periodic)", a.Process)
		}
		if times, err = (workload.ArrivalSpec{Process: proc, Shape: a.Shape, MeanGap: gap}).Times(a.Jobs, seed); err != nil {
			return nil, fmt.Errorf("sched: %w", err)
		}
	}
	for i := range jobs {
		jobs[i].Arrival = times[i]
	}
	return jobs, nil
}

// Shared trace columns: job_id (int, unique), arrival_ps (int >= 0, ps
// from the trace origin) and model (a class name: a model as given, with
// "/split:UNIT" for a split; a model of a single class may be named
// alone).
const (
	ColSharedJobID   = "job_id"
	ColSharedArrival = "arrival_ps"
	ColSharedModel   = "model"
)

// MaxSharedTraceJobs bounds a replayed trace, as --jobs bounds a
// generated one (a 10^7-job replay ran about 75 minutes in silence).
const MaxSharedTraceJobs = workload.MaxTraceJobs

// ReadSharedTrace reads a CSV trace of inferences (# comments allowed)
// and resolves its models against classes. Errors name the file, the line
// and the column.
func ReadSharedTrace(path string, classes []JobClass) ([]SharedJob, error) {
	f, err := boundedio.Open(path, boundedio.Trace)
	if err != nil {
		return nil, fmt.Errorf("sched: trace: %w", err)
	}
	defer f.Close()
	return ParseSharedTrace(f, path, classes)
}

// ParseSharedTrace is ReadSharedTrace on a reader; name labels errors.
func ParseSharedTrace(rd io.Reader, name string, classes []JobClass) ([]SharedJob, error) {
	tab, err := csvtab.Open(rd, csvtab.Options{Comment: '#', Name: "sched: " + name})
	if errors.Is(err, csvtab.ErrEmpty) {
		return nil, fmt.Errorf("sched: %s: empty trace (want a header: %s, %s, %s)", name, ColSharedJobID, ColSharedArrival, ColSharedModel)
	}
	if err != nil {
		return nil, fmt.Errorf("sched: %s: %w", name, err)
	}
	cols := []string{ColSharedJobID, ColSharedArrival, ColSharedModel}
	idx, err := tab.Positions(cols, false)
	if err != nil {
		return nil, fmt.Errorf("sched: %s: %w", name, err)
	}
	for k, c := range cols {
		if idx[k] < 0 {
			return nil, fmt.Errorf("sched: %s: missing column %q (want %s)", name, c, strings.Join(cols, ", "))
		}
	}
	// A class by its name; a model by its name when it has one class
	// (-1 when several share it).
	byName, byModel := map[string]int{}, map[string]int{}
	for c, cl := range classes {
		byName[strings.ToLower(cl.Name)] = c
		if cl.Alias != "" {
			byName[strings.ToLower(cl.Alias)] = c
		}
		base, _, _ := strings.Cut(strings.ToLower(cl.Name), "/")
		if _, ok := byModel[base]; ok {
			byModel[base] = -1
		} else {
			byModel[base] = c
		}
	}
	for base, c := range byModel {
		if _, ok := byName[base]; !ok {
			byName[base] = c
		}
	}
	names := make([]string, len(classes))
	for c, cl := range classes {
		names[c] = cl.Name
	}
	var jobs []SharedJob
	seen := map[int64]int{}
	_, err = tab.Each(func(rec []string, line int) error {
		if len(jobs) >= MaxSharedTraceJobs {
			return fmt.Errorf("sched: %s: more than %d jobs", name, MaxSharedTraceJobs)
		}
		id, err := strconv.ParseInt(strings.TrimSpace(rec[idx[0]]), 10, 64)
		if err != nil {
			return fmt.Errorf("sched: %s:%d: %s %q is not an integer", name, line, ColSharedJobID, rec[idx[0]])
		}
		at, err := strconv.ParseInt(strings.TrimSpace(rec[idx[1]]), 10, 64)
		if err != nil || at < 0 {
			return fmt.Errorf("sched: %s:%d: %s %q: want an integer >= 0 (ps)", name, line, ColSharedArrival, rec[idx[1]])
		}
		model := strings.ToLower(strings.TrimSpace(rec[idx[2]]))
		c, ok := byName[model]
		switch {
		case !ok:
			return fmt.Errorf("sched: %s:%d: %s %q is not one of the scheduled models (%s)", name, line, ColSharedModel, rec[idx[2]], strings.Join(names, ", "))
		case c < 0:
			return fmt.Errorf("sched: %s:%d: %s %q names several classes; give one of %s", name, line, ColSharedModel, rec[idx[2]], strings.Join(names, ", "))
		}
		if k, dup := seen[id]; dup {
			return fmt.Errorf("sched: %s:%d: %s %d already used by job %d", name, line, ColSharedJobID, id, k)
		}
		seen[id] = len(jobs)
		jobs = append(jobs, SharedJob{ID: id, Arrival: at, Class: c})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("sched: %s: trace has no jobs", name)
	}
	return jobs, nil
}

// WriteSharedTrace writes jobs as a CSV trace ReadSharedTrace reads.
func WriteSharedTrace(w io.Writer, jobs []SharedJob, classes []JobClass) error {
	return csvtab.Write(w, []string{ColSharedJobID, ColSharedArrival, ColSharedModel}, len(jobs), func(i int) []string {
		j := jobs[i]
		return []string{strconv.FormatInt(j.ID, 10), strconv.FormatInt(j.Arrival, 10), classes[j.Class].Name}
	})
}
