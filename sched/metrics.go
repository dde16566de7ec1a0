package sched

import (
	"fmt"
	"math"
	"slices"
)

// Metrics summarises a run, or the average of runs over seeds. Times are in
// cycles; see the package documentation for the definitions.
type Metrics struct {
	Policy    string
	Baselines MappingRule // the run's mapping rule for baselines
	Seed      uint64      // the run's seed; for an average, the first seed
	Seeds     int         // runs averaged (1 for a single run)
	Jobs      int
	Feasible  bool // Info.Feasible with these baselines

	MeanCompletion float64 // mean finish time
	MeanTurnaround float64 // mean finish - arrival
	MeanExecution  float64 // mean finish - start
	MeanWaiting    float64 // mean start - arrival
	P50Turnaround  float64 // nearest-rank percentiles of finish - arrival
	P95Turnaround  float64
	P99Turnaround  float64
	Makespan       float64   // last finish
	Utilisation    []float64 // per machine: busy cycles / makespan
}

// Metrics computes the run's metrics.
func (r *Result) Metrics() Metrics {
	n := len(r.Records)
	m := Metrics{
		Policy:    r.Policy.Name,
		Baselines: r.Baselines,
		Seed:      r.Seed,
		Seeds:     1,
		Jobs:      n,
		Feasible:  r.Policy.Feasible(r.Baselines),
	}
	turn := make([]int64, n)
	var sc, st, se, sw float64
	var makespan int64
	for i := range r.Records {
		rec := &r.Records[i]
		turn[i] = rec.Finish - rec.Arrival
		sc += float64(rec.Finish)
		st += float64(turn[i])
		se += float64(rec.Finish - rec.Start)
		sw += float64(rec.Start - rec.Arrival)
		makespan = max(makespan, rec.Finish)
	}
	fn := float64(n)
	m.MeanCompletion, m.MeanTurnaround = sc/fn, st/fn
	m.MeanExecution, m.MeanWaiting = se/fn, sw/fn
	slices.Sort(turn)
	m.P50Turnaround = float64(percentile(turn, 0.50))
	m.P95Turnaround = float64(percentile(turn, 0.95))
	m.P99Turnaround = float64(percentile(turn, 0.99))
	m.Makespan = float64(makespan)
	m.Utilisation = make([]float64, len(r.Busy))
	for k, b := range r.Busy {
		m.Utilisation[k] = float64(b) / float64(makespan)
	}
	return m
}

// percentile returns the nearest-rank p-quantile of sorted: the smallest
// value with at least p*n values at or below it.
func percentile(sorted []int64, p float64) int64 {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(k, 0)]
}

// fields lists the scalar time metrics, for averaging and normalising.
func (m *Metrics) fields() []*float64 {
	return []*float64{&m.MeanCompletion, &m.MeanTurnaround, &m.MeanExecution, &m.MeanWaiting,
		&m.P50Turnaround, &m.P95Turnaround, &m.P99Turnaround, &m.Makespan}
}

// Average groups metrics by (policy, baselines' rule), in order of first
// appearance, and averages each field over the group's runs (seeds).
func Average(ms []Metrics) []Metrics {
	type key struct {
		policy    string
		baselines MappingRule
	}
	var out []Metrics
	pos := map[key]int{}
	for _, m := range ms {
		k := key{m.Policy, m.Baselines}
		i, ok := pos[k]
		if !ok {
			a := m
			a.Seeds = 0
			for _, f := range a.fields() {
				*f = 0
			}
			a.Utilisation = make([]float64, len(m.Utilisation))
			out = append(out, a)
			i = len(out) - 1
			pos[k] = i
		}
		a := &out[i]
		a.Seeds += m.Seeds
		a.Feasible = a.Feasible && m.Feasible
		w := float64(m.Seeds)
		src := m.fields()
		for f, dst := range a.fields() {
			*dst += w * *src[f]
		}
		for u := range min(len(a.Utilisation), len(m.Utilisation)) {
			a.Utilisation[u] += w * m.Utilisation[u]
		}
	}
	for i := range out {
		w := float64(out[i].Seeds)
		for _, f := range out[i].fields() {
			*f /= w
		}
		for u := range out[i].Utilisation {
			out[i].Utilisation[u] /= w
		}
	}
	return out
}

// NormaliseByMax divides each time metric by its largest value over ms, as
// seed 002's Figures 6 and 7 do ("normalized separately by the largest value
// in any algorithm"). A metric that is zero for every entry stays zero.
// Utilisation is left as is.
func NormaliseByMax(ms []Metrics) []Metrics {
	out := clone(ms)
	if len(out) == 0 {
		return out
	}
	nf := len(out[0].fields())
	for f := range nf {
		var mx float64
		for i := range out {
			mx = max(mx, *out[i].fields()[f])
		}
		if mx == 0 {
			continue // all zero (e.g. no waiting anywhere): leave zeros
		}
		for i := range out {
			*out[i].fields()[f] /= mx
		}
	}
	return out
}

// RelativeTo divides each time metric by that of the entry for policy with
// the same baselines' rule and seed: values above 1 are slower than the baseline,
// and the baseline's speed-up over an entry is that entry's value.
func RelativeTo(ms []Metrics, policy string) ([]Metrics, error) {
	out := clone(ms)
	for i := range out {
		var base *Metrics
		for k := range ms {
			if ms[k].Policy == policy && ms[k].Baselines == out[i].Baselines && ms[k].Seed == out[i].Seed {
				base = &ms[k]
				break
			}
		}
		if base == nil {
			return nil, fmt.Errorf("sched: no metrics for baseline %q with %v baselines and seed %d", policy, out[i].Baselines, out[i].Seed)
		}
		bf := base.fields()
		for f, dst := range out[i].fields() {
			*dst /= *bf[f]
		}
	}
	return out, nil
}

func clone(ms []Metrics) []Metrics {
	out := slices.Clone(ms)
	for i := range out {
		out[i].Utilisation = slices.Clone(out[i].Utilisation)
	}
	return out
}
