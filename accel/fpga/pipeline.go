package fpga

import (
	"math"

	"gnnsim/graphs"
	"gnnsim/sim"
	"gnnsim/workload"
)

// The pipelined timing runs every stage of every layer as a process on the
// sim kernel, over blocks of blockNodes nodes. A stage works on one block
// at a time, its blocks in order; a block's cycles are the stage's work
// split in proportion to the block's nodes (node stages) or adjacency
// entries (edge stages, when the graph is known), and its pipeline depth
// is paid on the first block. Between stages that work node by node the
// blocks pass through ping-pong buffers (a sim.Store of two blocks), so a
// stage runs as soon as its upstream has produced a block and stalls when
// its downstream has not drained one:
//
//	activation(i-1) -> linear(i)         node-local: streams
//	attention(i)    -> aggregation(i)    per destination block: streams
//	aggregation(i)  -> activation(i)     node-local: streams
//
// Aggregation needs the transformed features of every neighbour, which may
// sit in any block, so it starts only when linear(i) has finished (the
// features are in memory); GAT attention likewise needs every projection.
// GCN and constant coefficients depend on degrees only and are computed
// from the start. Linear(0) reads its input from memory.
//
// At every instant some stage is busy (the earliest unfinished stage has
// all its inputs, and a stage blocked on a full buffer has a busy
// downstream, or one blocked in turn, ending at a stage writing to memory),
// so the pipelined time never exceeds the sum of the stages; and it is at
// least the busiest stage's cycles.

type proc struct {
	p       *pipe
	dur     []int64
	in, out *sim.Store[int32]
	barrier *proc   // must have finished before the first block
	waiters []*proc // procs whose barrier this is
	next    int32
	done    bool

	get   func(int32)
	fin   func()
	after func()
}

type pipe struct {
	s      *sim.Sim
	blocks int32
	end    int64
}

func (q *proc) start() {
	if q.barrier != nil && !q.barrier.done {
		q.barrier.waiters = append(q.barrier.waiters, q)
		return
	}
	q.step()
}

func (q *proc) step() {
	if q.in != nil {
		q.in.Get(q.get)
		return
	}
	q.p.s.After(q.dur[q.next], 0, q.fin)
}

func (q *proc) finish() {
	if q.out != nil {
		q.out.Put(q.next, q.after)
		return
	}
	q.afterPut()
}

func (q *proc) afterPut() {
	q.next++
	if q.next < q.p.blocks {
		q.step()
		return
	}
	q.done = true
	q.p.end = max(q.p.end, q.p.s.Now())
	for _, w := range q.waiters {
		w.step()
	}
}

// pipelined returns the event-driven time of the layers' stages. g, when
// not nil, gives each block's share of the edge stages' work.
func pipelined(layers []LayerReport, attn []workload.Attention, n int64, blockNodes int64, g *graphs.Graph) int64 {
	if n == 0 {
		return 0
	}
	blocks := ceilDiv(n, blockNodes)
	if blocks > math.MaxInt32/2 {
		blocks = math.MaxInt32 / 2
		blockNodes = ceilDiv(n, blocks)
	}
	nodeCum := func(b int64) float64 { return float64(min(b*blockNodes, n)) / float64(n) }
	edgeCum := nodeCum
	if g != nil && int64(g.NumNodes()) == n {
		total := float64(int64(len(g.Col)) + selfLoops(g, n))
		edgeCum = func(b int64) float64 {
			v := min(b*blockNodes, n)
			e := int64(g.RowPtr[v])
			if !g.SelfLoops {
				e += v
			}
			return float64(e) / total
		}
	}
	p := &pipe{s: sim.New(), blocks: int32(blocks)}
	procs := make([]*proc, 0, len(layers)*int(NumStages))
	newStore := func() *sim.Store[int32] {
		st, _ := sim.NewStore[int32](p.s, 2) // capacity 2 is valid
		return st
	}
	var prevAct *proc
	for i, lr := range layers {
		var stage [NumStages]*proc
		for s := Linear; s < NumStages; s++ {
			sr := lr.Stages[s]
			if sr.Cycles == 0 {
				continue
			}
			cum := nodeCum
			if s == Attend || s == Aggregate {
				cum = edgeCum
			}
			q := &proc{p: p, dur: split(sr.Work, blocks, cum)}
			q.dur[0] += sr.Latency
			q.get = func(int32) { q.p.s.After(q.dur[q.next], 0, q.fin) }
			q.fin = q.finish
			q.after = q.afterPut
			stage[s] = q
			procs = append(procs, q)
		}
		link := func(from, to *proc) {
			if from == nil || to == nil {
				return
			}
			st := newStore()
			from.out, to.in = st, st
		}
		link(prevAct, stage[Linear])
		if a := stage[Attend]; a != nil && attn[i] == workload.AttGAT {
			a.barrier = stage[Linear]
		}
		link(stage[Attend], stage[Aggregate])
		if stage[Aggregate] != nil {
			stage[Aggregate].barrier = stage[Linear]
		}
		link(stage[Aggregate], stage[Activate])
		prevAct = stage[Activate]
	}
	for _, q := range procs {
		q.start()
	}
	p.s.Run()
	return p.end
}

func selfLoops(g *graphs.Graph, n int64) int64 {
	if g.SelfLoops {
		return 0
	}
	return n
}

// split divides total into blocks parts by the cumulative share cum(b) of
// the first b blocks; the parts sum to total exactly.
func split(total, blocks int64, cum func(int64) float64) []int64 {
	d := make([]int64, blocks)
	prev := int64(0)
	for b := int64(1); b <= blocks; b++ {
		c := int64(math.Round(float64(total) * cum(b)))
		if b == blocks {
			c = total
		}
		c = max(c, prev)
		d[b-1] = c - prev
		prev = c
	}
	return d
}
