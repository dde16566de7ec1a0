package workload

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Process is the distribution of inter-arrival gaps.
type Process uint8

// The arrival processes; see the package documentation for their laws.
const (
	Pareto  Process = iota + 1 // Pareto type I gaps (seed 002)
	Lomax                      // Pareto type II gaps (numpy.random.pareto)
	Poisson                    // exponential gaps
)

var processNames = [...]string{Pareto: "pareto", Lomax: "lomax", Poisson: "poisson"}

// String returns the lower-case name of p.
func (p Process) String() string {
	if p >= Pareto && p <= Poisson {
		return processNames[p]
	}
	return fmt.Sprintf("Process(%d)", uint8(p))
}

// ParseProcess parses "pareto", "lomax" or "poisson".
func ParseProcess(s string) (Process, error) {
	for p := Pareto; p <= Poisson; p++ {
		if s == processNames[p] {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown arrival process %q (want pareto, lomax or poisson)", s)
}

// DefaultParetoShape is the Pareto shape used when a spec leaves it zero.
// Seed 002 does not state its shape.
const DefaultParetoShape = 1.5

// DefaultUtilisation is seed 002's target mean utilisation.
const DefaultUtilisation = 0.85

// arrivalStream separates the arrival generator's PCG stream from other uses
// of the same seed.
const arrivalStream = 0x6172726976616c73 // "arrivals"

// ArrivalSpec describes a generated arrival trace.
type ArrivalSpec struct {
	Process Process
	// Shape is the Pareto/Lomax shape alpha; it must exceed 1 so the mean
	// gap exists. Zero means DefaultParetoShape. Ignored for Poisson.
	Shape float64
	// MeanGap is the expected inter-arrival gap in cycles (see MeanGap).
	MeanGap float64
	// Exact rescales the drawn gaps so that their realised mean is MeanGap.
	Exact bool
}

func (s ArrivalSpec) shape() float64 {
	if s.Shape == 0 {
		return DefaultParetoShape
	}
	return s.Shape
}

// Validate reports whether s describes a usable trace.
func (s ArrivalSpec) Validate() error {
	switch s.Process {
	case Pareto, Lomax:
		if a := s.shape(); !(a > 1) || math.IsInf(a, 0) {
			return fmt.Errorf("workload: %v shape = %v, want a finite value > 1 (the mean gap must exist)", s.Process, a)
		}
	case Poisson:
	default:
		return fmt.Errorf("workload: invalid arrival process %d", uint8(s.Process))
	}
	if !(s.MeanGap > 0) || math.IsInf(s.MeanGap, 0) {
		return spanError(fmt.Sprintf("workload: mean gap = %v cycles, want a finite value > 0", s.MeanGap))
	}
	return nil
}

// ErrSpan marks a trace the clock cannot hold: a mean gap that is not
// finite, or arrivals spanning past the clock (a load asked for so low, or
// jobs so many, that the gaps add up beyond it). errors.Is finds it.
var ErrSpan = errors.New("workload: arrivals beyond the clock")

// spanError is an error that is ErrSpan, with its own message.
type spanError string

func (e spanError) Error() string        { return string(e) }
func (e spanError) Is(target error) bool { return target == ErrSpan }

// maxTraceSpan bounds the expected span of a generated trace so that arrival
// times plus any realistic execution stay far from int64 overflow.
const maxTraceSpan = 1 << 60

// Times draws n arrival times (cycles, non-decreasing) from the spec, seeded.
func (s ArrivalSpec) Times(n int, seed uint64) ([]int64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("workload: %d arrivals requested", n)
	}
	if float64(n)*s.MeanGap > maxTraceSpan {
		return nil, spanError(fmt.Sprintf("workload: %d arrivals with mean gap %v cycles overflow the clock", n, s.MeanGap))
	}
	rng := rand.New(rand.NewPCG(seed, arrivalStream))
	gaps := make([]float64, n)
	a := s.shape()
	var sum float64
	for i := range gaps {
		var g float64
		switch s.Process {
		case Pareto:
			xm := s.MeanGap * (a - 1) / a
			g = xm * math.Pow(uniformOpen(rng), -1/a)
		case Lomax:
			g = s.MeanGap * lomax(-math.Log(uniformOpen(rng)), a)
		case Poisson:
			g = s.MeanGap * rng.ExpFloat64()
		}
		gaps[i] = g
		sum += g
	}
	if sum > maxTraceSpan {
		// A single heavy-tail draw can be astronomically large; refuse
		// rather than wrap around.
		return nil, errOverflow
	}
	scale := 1.0
	if s.Exact && n > 0 && sum > 0 {
		scale = s.MeanGap * float64(n) / sum
	}
	times := make([]int64, n)
	var t float64
	for i, g := range gaps {
		t += g * scale
		if t > maxTraceSpan {
			return nil, errOverflow
		}
		times[i] = int64(math.Round(t))
	}
	return times, nil
}

var errOverflow = errors.New("workload: drawn gaps overflow the clock; use a larger shape or fewer jobs")

// lomax returns a Lomax gap of shape a and mean 1 from x = -ln U, an
// exponential draw: (a-1) (U^(-1/a) - 1) = (1-1/a) x expm1(x/a)/(x/a).
// Written this way it stays exact for any shape: computing U^(-1/a) - 1
// directly loses every digit once 1/a nears the float epsilon (issue 38
// item 7: shape 1e20 put every job at 0, 1e16 on 64 distinct times, and
// (a-1) overflowed near 1e308). As a grows the gaps tend to exponential
// ones of mean 1 (Poisson arrivals).
func lomax(x, a float64) float64 {
	e := x / a
	h := 1 + e/2 // expm1(e)/e to within e^2/6, for e where the ratio would lose digits
	if e > 1e-8 {
		h = math.Expm1(e) / e
	}
	return (1 - 1/a) * x * h
}

// uniformOpen returns a uniform value in (0, 1], so that U^(-1/alpha) is
// finite.
func uniformOpen(rng *rand.Rand) float64 { return 1 - rng.Float64() }

// MeanGap returns the mean inter-arrival gap (cycles) at which jobs with the
// given reference service times offer utilisation util to machines machines:
// mean(service) / (machines * util).
func MeanGap(service []int64, machines int, util float64) (float64, error) {
	if len(service) == 0 {
		return 0, errors.New("workload: MeanGap of no jobs")
	}
	if machines <= 0 {
		return 0, fmt.Errorf("workload: %d machines, want > 0", machines)
	}
	if !(util > 0) || math.IsInf(util, 0) {
		return 0, fmt.Errorf("workload: utilisation = %v, want a finite value > 0", util)
	}
	var sum float64
	for i, s := range service {
		if s <= 0 {
			return 0, fmt.Errorf("workload: service time of job %d is %d cycles, want > 0", i, s)
		}
		sum += float64(s)
	}
	return sum / float64(len(service)) / (float64(machines) * util), nil
}

// OfferedUtilisation returns sum(service) / (machines * span), span being
// the last of the arrival times: the load a trace actually offers. It
// returns +Inf when the span is zero and the service non-zero.
func OfferedUtilisation(service, arrivals []int64, machines int) float64 {
	var sum float64
	for _, s := range service {
		sum += float64(s)
	}
	var span int64
	for _, t := range arrivals {
		span = max(span, t)
	}
	return sum / (float64(machines) * float64(span))
}

// SetArrivals copies times into jobs' Arrival fields, job i getting times[i].
func SetArrivals(jobs []Job, times []int64) error {
	if len(jobs) != len(times) {
		return fmt.Errorf("workload: %d jobs but %d arrival times", len(jobs), len(times))
	}
	for i := range jobs {
		jobs[i].Arrival = times[i]
	}
	return nil
}
