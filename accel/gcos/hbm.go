package gcos

import "math"

// memory is the shared off-chip memory as the template sees it: a FIFO
// bandwidth server serving requests in the order they are queued.
type memory interface {
	// Transfer moves bytes requested at cycle at and returns the cycle
	// the last byte arrives.
	Transfer(at, bytes int64) int64
	reset()
}

// fifo serves whole bursts at bytesPerCycle, one request after another,
// each delivered latency cycles after its service ends (the latency
// overlaps with later requests).
type fifo struct {
	bytesPerCycle float64
	latency       int64
	free          int64
}

func (f *fifo) reset() { f.free = 0 }

func (f *fifo) Transfer(at, bytes int64) int64 {
	if bytes <= 0 {
		return at
	}
	bursts := (bytes + BurstBytes - 1) / BurstBytes
	service := int64(math.Ceil(float64(bursts*BurstBytes) / f.bytesPerCycle))
	start := max(at, f.free) // FIFO: never before the request queued ahead
	f.free = start + service
	return f.free + f.latency
}

// job is one engine's share of a phase: Chunks steps, each loading its
// bytes from memory and then computing, double buffered (chunk k+2 loads
// once chunk k has computed). A job with a dep computes chunk k only after
// dep's chunk k (an inter-engine pipeline).
type job struct {
	chunks         int
	bytes, compute int64 // totals, spread evenly over the chunks
	dep            *job

	next int
	load [maxChunks]int64
	end  [maxChunks]int64
}

func part(total int64, n, k int) int64 {
	q, r := total/int64(n), total%int64(n)
	if int64(k) < r {
		return q + 1
	}
	return q
}

// issue returns when the next chunk may request its bytes: once the chunk
// before has loaded and the buffer it will fill (the one of two chunks
// back) has been computed, and, in a pipeline, once its input has.
func (j *job) issue(start int64) int64 {
	k := j.next
	t := start
	if k >= 1 {
		t = max(t, j.load[k-1])
	}
	if k >= 2 {
		t = max(t, j.end[k-2])
	}
	if j.dep != nil {
		t = max(t, j.dep.end[k])
	}
	return t
}

// runPhase runs jobs from cycle start and returns the cycle the last one
// finishes. Requests join the memory's FIFO queue in a fixed order, chunk
// by chunk and job by job within a chunk (round robin), whatever their
// request cycles: every start and finish time is then a max-plus function
// of compute and transfer times, so a design with faster sub-accelerators
// or more bandwidth is never slower (a queue ordered by request time can be
// overtaken and is not).
func runPhase(start int64, jobs []job, mem memory) int64 {
	for k := range maxChunks {
		for i := range jobs {
			j := &jobs[i]
			if k >= j.chunks {
				continue
			}
			t := j.issue(start)
			l := mem.Transfer(t, part(j.bytes, j.chunks, k))
			j.load[k] = l
			s := l
			if k >= 1 {
				s = max(s, j.end[k-1])
			}
			if j.dep != nil {
				s = max(s, j.dep.end[k])
			}
			j.end[k] = s + part(j.compute, j.chunks, k)
			j.next++
		}
	}
	end := start
	for i := range jobs {
		if j := &jobs[i]; j.chunks > 0 {
			end = max(end, j.end[j.chunks-1])
		}
	}
	return end
}
