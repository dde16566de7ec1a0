package gcos

import "gnnsim/sim"

// transfer moves bytes on ch, requested at cycle at, in whole bursts (the
// HBM moves nothing smaller), and returns when the last byte has arrived.
func transfer(ch *sim.Channel, at, bytes int64) int64 {
	if bytes <= 0 {
		return at
	}
	bursts := (bytes + BurstBytes - 1) / BurstBytes
	return ch.Request(at, bursts*BurstBytes).Last
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
//
// A job with a dep (the consumer of an inter-engine pipeline) queues its
// chunk k after its producer's chunk k+1: the consumer cannot ask for chunk
// k before the producer has computed it, while the producer prefetches
// chunk k+1 as soon as chunk k has loaded. Queued the other way, the
// producer's prefetch would wait behind a request that itself waits for
// the producer's compute, and load and compute would never overlap. HyGCN
// orders its engines' off-chip requests by priority for the same reason
// (Yan et al., HPCA 2020, abstract: "priority-based off-chip memory
// access coordination to improve off-chip bandwidth utilization").
func runPhase(start int64, jobs []job, ch *sim.Channel) int64 {
	for step := range maxChunks + 1 {
		for i := range jobs {
			j := &jobs[i]
			k := step
			if j.dep != nil {
				k-- // one chunk behind its producer in the queue
			}
			if k < 0 || k >= j.chunks {
				continue
			}
			t := j.issue(start)
			l := transfer(ch, t, part(j.bytes, j.chunks, k))
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
