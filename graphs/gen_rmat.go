package graphs

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"

	"gnnsim/internal/par"
)

// RMAT returns a recursive-matrix (R-MAT, Chakrabarti et al. 2004) graph on
// n nodes from m edge draws. Each draw descends scale = ceil(log2 n) levels
// of the 2^scale x 2^scale adjacency matrix, picking the top-left,
// top-right, bottom-left or bottom-right quadrant with probability a, b, c
// and d = 1-a-b-c. Draws that land on a node >= n are dropped (not redrawn),
// the rest are symmetrized, and self-loops and duplicates are removed, so
// the graph has at most m edges. Isolated nodes are kept.
func RMAT(n, m int, a, b, c float64, rng *rand.Rand) (*Graph, error) {
	return rmat(n, m, a, b, c, rng, nil, noMeter{})
}

// rmatParallelDraws is the draw count from which rmat splits the draws
// between the cores (when it knows the PCG behind rng).
const rmatParallelDraws = 1 << 20

// rmat is RMAT; when src is the PCG behind rng, large graphs draw their
// edges on every core. Every draw takes exactly ceil(scale/2) values of the
// stream, so draw i starts i*ceil(scale/2) steps into it, and a core can
// jump there (pcgAdvance) and make the very draws the serial loop makes.
// src is left where the serial loop would leave it.
func rmat(n, m int, a, b, c float64, rng *rand.Rand, src *rand.PCG, meter Meter) (*Graph, error) {
	if err := checkNodes(n); err != nil {
		return nil, fmt.Errorf("rmat: %w", err)
	}
	if m < 0 {
		return nil, fmt.Errorf("rmat: negative edge count %d", m)
	}
	if err := checkExpectedEdges(float64(m)); err != nil {
		return nil, fmt.Errorf("rmat: %w", err)
	}
	for _, q := range [...]struct {
		name string
		v    float64
	}{{"a", a}, {"b", b}, {"c", c}} {
		if err := checkProb(q.name, q.v); err != nil {
			return nil, fmt.Errorf("rmat: %w", err)
		}
	}
	const slack = 1e-9 // rounding in 1-a-b-c computed by the caller
	if a+b+c > 1+slack {
		return nil, fmt.Errorf("rmat: a+b+c = %v exceeds 1", a+b+c)
	}
	d := rmatDrawer{n: uint32(n), scale: bits.Len(uint(n - 1))}
	// Each level compares 32 random bits against fixed-point thresholds
	// (quadrant probabilities resolved to 2^-32), two levels per 64-bit
	// draw, and sets the row and column bits without branches: the
	// quadrant choice is random, so branches on it would mispredict.
	d.ta = uint64(min(a, 1) * rmatOne)
	d.tab = uint64(min(a+b, 1) * rmatOne)
	d.tabc = uint64(min(a+b+c, 1) * rmatOne)
	if src != nil && m >= rmatStreamDraws && d.scale > 0 {
		return d.csrStreamed(n, m, src, meter)
	}
	us, vs := make([]int32, m), make([]int32, m)
	var k int
	if src == nil || m < rmatParallelDraws || d.scale == 0 {
		k = d.draw(rng, us, vs)
	} else {
		meter.Stage("draws", "draws", int64(m))
		k = d.drawParallel(src, us, vs, meter)
	}
	g, err := fromEdges(n, us[:k], vs[:k], meter)
	if m >= rmatCollectDraws {
		// The draws are garbage now, but the collector's goal was set
		// while they and the CSR were both live (about twice the CSR), so
		// without a collection here the triangle counter's arrays would
		// be allocated beside the dead draws: 10^8 draws peaked at 3.28
		// GB RSS that way. Collecting a heap of pointer-free arrays takes
		// milliseconds.
		runtime.GC()
	}
	return g, err
}

// rmatCollectDraws is the number of draws from which rmat runs the
// collector once the CSR is built (64 MB of draws).
const rmatCollectDraws = 1 << 23

const rmatOne = 1 << 32

// rmatDrawer makes R-MAT edge draws.
type rmatDrawer struct {
	n             uint32
	scale         int
	ta, tab, tabc uint64
}

// draw makes len(us) draws from r, keeps those inside [0, n)^2 at the front
// of us and vs, and returns how many it kept.
func (d *rmatDrawer) draw(r interface{ Uint64() uint64 }, us, vs []int32) int {
	k := 0
	for range us {
		var u, v uint32
		var x uint64
		for l := range d.scale {
			if l%2 == 0 {
				x = r.Uint64()
			} else {
				x >>= 32
			}
			y := x & (rmatOne - 1)
			// Quadrants a, b, c, d = (row, col) bits 00, 01, 10, 11.
			ub := b2u(y >= d.tab)
			vb := b2u(y >= d.ta) ^ ub ^ b2u(y >= d.tabc)
			u = u<<1 | ub
			v = v<<1 | vb
		}
		if u < d.n && v < d.n {
			us[k], vs[k] = int32(u), int32(v)
			k++
		}
	}
	return k
}

// drawParallel makes the draws of draw(src, ...) in chunks on every core,
// each from its own PCG advanced to the chunk's first draw, then closes
// the gaps the dropped draws leave, keeping the serial order.
func (d *rmatDrawer) drawParallel(src *rand.PCG, us, vs []int32, meter Meter) int {
	m := len(us)
	hi, lo := pcgState(src)
	steps := uint64(d.scale+1) / 2 // stream values per draw
	// Chunks of about meterBlock draws (at least 4 per core), so the
	// meter moves a few times a second; the chunking does not change the
	// draws.
	chunks := max(4*runtime.GOMAXPROCS(0), m/meterBlock)
	size := (m + chunks - 1) / chunks
	kept := make([]int, chunks)
	par.For(chunks, 0, func(c int) error {
		start, end := min(c*size, m), min((c+1)*size, m)
		h, l := pcgAdvance(hi, lo, uint64(start)*steps)
		kept[c] = d.draw(rand.NewPCG(h, l), us[start:end], vs[start:end])
		meter.Add(int64(end - start))
		return nil
	})
	k := 0
	for c := range chunks {
		start := min(c*size, m)
		copy(us[k:], us[start:start+kept[c]])
		copy(vs[k:], vs[start:start+kept[c]])
		k += kept[c]
	}
	src.Seed(pcgAdvance(hi, lo, uint64(m)*steps))
	return k
}

// b2u converts a bool to 0 or 1; the compiler turns it into a SETcc.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// pcgState returns the 128-bit state of p (math/rand/v2 exposes it only
// through MarshalBinary: "pcg:" and the high and low halves, big-endian).
func pcgState(p *rand.PCG) (hi, lo uint64) {
	b, _ := p.MarshalBinary()
	return binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])
}

// The multiplier and increment of math/rand/v2's PCG: every Uint64 call
// first sets state = state*pcgMul + pcgInc (mod 2^128), then outputs a
// function of the new state (see math/rand/v2/pcg.go). TestPCGAdvance pins
// pcgAdvance to the library's own steps.
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
)

// pcgAdvance returns the state k steps after (hi, lo), in O(log k)
// (Brown, "Random number generation with arbitrary strides", 1994): the
// composition of k affine maps x -> mul*x + inc is x -> M*x + C with M =
// mul^k and C = inc*(mul^(k-1) + ... + 1), built by squaring.
func pcgAdvance(hi, lo, k uint64) (uint64, uint64) {
	accMulHi, accMulLo := uint64(0), uint64(1)
	accIncHi, accIncLo := uint64(0), uint64(0)
	curMulHi, curMulLo := uint64(pcgMulHi), uint64(pcgMulLo)
	curIncHi, curIncLo := uint64(pcgIncHi), uint64(pcgIncLo)
	for ; k > 0; k >>= 1 {
		if k&1 != 0 {
			accMulHi, accMulLo = mul128(accMulHi, accMulLo, curMulHi, curMulLo)
			accIncHi, accIncLo = mul128(accIncHi, accIncLo, curMulHi, curMulLo)
			accIncHi, accIncLo = add128(accIncHi, accIncLo, curIncHi, curIncLo)
		}
		// cur = cur o cur: inc' = (mul+1)*inc, mul' = mul^2.
		h, l := add128(curMulHi, curMulLo, 0, 1)
		curIncHi, curIncLo = mul128(h, l, curIncHi, curIncLo)
		curMulHi, curMulLo = mul128(curMulHi, curMulLo, curMulHi, curMulLo)
	}
	hi, lo = mul128(accMulHi, accMulLo, hi, lo)
	return add128(hi, lo, accIncHi, accIncLo)
}

// mul128 and add128 are 128-bit arithmetic mod 2^128.
func mul128(ah, al, bh, bl uint64) (uint64, uint64) {
	h, l := bits.Mul64(al, bl)
	return h + ah*bl + al*bh, l
}

func add128(ah, al, bh, bl uint64) (uint64, uint64) {
	l, c := bits.Add64(al, bl, 0)
	h, _ := bits.Add64(ah, bh, c)
	return h, l
}

// rmatStreamDraws is the number of draws from which rmat builds the CSR
// without keeping the draws (csrStreamed): 8 bytes a draw, 8 GB at 10^9.
// Making every draw twice and updating two count arrays at random costs
// time: at 10^8 draws (load ~10) the two passes and the sort took 40 s,
// 72 s and 35 s against 13 s of draws and 39 s of CSR in one pass, for
// 0.8 GB that the triangle counter's peak does not need anyway. So only
// the sizes where the draws would decide the peak (10^9: 8 GB beside an
// 8 GB CSR) take it. A variable so that tests take it at small sizes.
var rmatStreamDraws = 1 << 28

// rmatStreamWorkers bounds the cores csrStreamed uses (GenPeakBytes
// counts on it).
const rmatStreamWorkers = 4

// csrStreamed builds the CSR of the m draws drawParallel would make from
// src, and leaves src where it would, without holding the draws: the
// draws are made twice, in the same chunks, the first time to count each
// node's entries per worker, the second to put them in place (each worker
// has its own segment of every row, so no two cores write one slot); the
// rows are then sorted and deduplicated as fromEdges does, so the graph
// is fromEdges' exactly (TestRMATStreamedCSR). Memory: the CSR's
// 2m entries and a few int32 arrays of n nodes per core, instead of the
// draws beside the CSR.
func (d *rmatDrawer) csrStreamed(n, m int, src *rand.PCG, meter Meter) (*Graph, error) {
	if 2*int64(m) > MaxEntries {
		return nil, fmt.Errorf("graphs: %d edges exceed the CSR limit of %d entries", m, MaxEntries)
	}
	hi, lo := pcgState(src)
	steps := uint64(d.scale+1) / 2 // stream values per draw
	chunks := max(4*runtime.GOMAXPROCS(0), m/meterBlock)
	size := (m + chunks - 1) / chunks
	// Each worker holds a count array of n nodes: at most
	// rmatStreamWorkers of them, so that memory does not grow with the
	// core count (the graph does not depend on it).
	workers := min(runtime.GOMAXPROCS(0), chunks, rmatStreamWorkers)
	const batch = 1 << 14
	// each runs f on every kept draw of the chunks of worker w (chunks w,
	// w+workers, ...: the same in both passes), batch by batch.
	each := func(f func(w int, us, vs []int32)) {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				us, vs := make([]int32, batch), make([]int32, batch)
				for c := w; c < chunks; c += workers {
					start, end := min(c*size, m), min((c+1)*size, m)
					h, l := pcgAdvance(hi, lo, uint64(start)*steps)
					r := rand.NewPCG(h, l)
					for b := start; b < end; b += batch {
						k := d.draw(r, us[:min(batch, end-b)], vs[:min(batch, end-b)])
						f(w, us[:k], vs[:k])
					}
					meter.Add(int64(end - start))
				}
			}()
		}
		wg.Wait()
	}
	meter.Stage("degrees", "draws", int64(m))
	cnt := make([][]int32, workers) // entries of each row drawn by each worker
	for w := range cnt {
		cnt[w] = make([]int32, n)
	}
	each(func(w int, us, vs []int32) {
		c := cnt[w]
		for i, a := range us {
			if b := vs[i]; a != b {
				c[a]++
				c[b]++
			}
		}
	})
	// deg: row starts; cnt[w][r] becomes worker w's next slot in row r.
	deg := make([]int32, n+1)
	for r := range n {
		at := deg[r]
		for w := range cnt {
			k := cnt[w][r]
			cnt[w][r] = at
			at += k
		}
		deg[r+1] = at
	}
	col := make([]int32, deg[n])
	meter.Stage("csr", "draws", int64(m))
	each(func(w int, us, vs []int32) {
		next := cnt[w]
		for i, a := range us {
			if b := vs[i]; a != b {
				col[next[a]] = b
				next[a]++
				col[next[b]] = a
				next[b]++
			}
		}
	})
	src.Seed(pcgAdvance(hi, lo, uint64(m)*steps))
	uniq := cnt[0]
	cnt = nil
	meter.Stage("sort", "entries", int64(len(col)))
	return finishCSR(n, deg, col, uniq, meter), nil
}
