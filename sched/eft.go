package sched

// EFT returns earliest finish time, the list-scheduling rule for unrelated
// machines (HEFT's machine choice, online): when a job arrives it is
// assigned to the machine on which it would finish first, given its
// latency there (its best mapping's, from the Table) and the work already
// assigned to that machine (the running job's expected remainder plus the
// machine's queue); each machine runs its own queue first come, first
// served. A machine whose queue is empty stays idle even when other
// machines have queued jobs (Info.Holds): the job waits for the machine
// it was promised to.
//
// Estimates are corrected at every dispatch: the machine's expected free
// time becomes now plus the dispatched job's latency plus its queue. Ties
// go to the lower machine index. EFT uses the Table's latencies; in a
// SharedProblem those are the contention-free profiles of each job on each
// unit, which a deployment measures, so the run counts it feasible there;
// on a seed 002 problem the Table is the truth and EFT is an oracle.
func EFT() Policy { return &eftPolicy{} }

type eftPolicy struct {
	env *Env
	// Per machine: its FIFO (live part from head), the sum of the queued
	// jobs' latencies and when its assigned work is expected to end.
	q      [][]int32
	head   []int
	queued []int64
	ready  []int64
}

func (e *eftPolicy) Info() Info { return Info{Name: "EFT", Oracle: true, Holds: true} }

func (e *eftPolicy) Reset(env *Env) {
	e.env = env
	M := len(env.p.machines)
	if len(e.q) != M {
		e.q, e.head, e.queued, e.ready = make([][]int32, M), make([]int, M), make([]int64, M), make([]int64, M)
	}
	for m := range M {
		e.q[m], e.head[m], e.queued[m], e.ready[m] = e.q[m][:0], 0, 0, 0
	}
}

func (e *eftPolicy) Enqueue(j int) {
	p := e.env.p
	M := len(p.machines)
	now := e.env.Now()
	bm, bf := -1, int64(0)
	for m := range M {
		f := max(now, e.ready[m]) + p.bestTruth[j*M+m]
		if bm < 0 || f < bf {
			bm, bf = m, f
		}
	}
	if h := e.head[bm]; h > 0 && h >= len(e.q[bm])/2 {
		n := copy(e.q[bm], e.q[bm][h:])
		e.q[bm], e.head[bm] = e.q[bm][:n], 0
	}
	e.q[bm] = append(e.q[bm], int32(j))
	e.queued[bm] += p.bestTruth[j*M+bm]
	e.ready[bm] = bf
}

func (e *eftPolicy) Pick(free []int) (int, int, bool) {
	p := e.env.p
	M := len(p.machines)
	for _, m := range free {
		if e.head[m] == len(e.q[m]) {
			continue
		}
		j := e.q[m][e.head[m]]
		e.head[m]++
		lat := p.bestTruth[int(j)*M+m]
		e.queued[m] -= lat
		e.ready[m] = e.env.Now() + lat + e.queued[m]
		return int(j), m, true
	}
	return 0, 0, false
}
