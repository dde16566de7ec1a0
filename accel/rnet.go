package accel

import (
	"math/bits"
	"slices"
)

// This file models how a phase's results leave the PE array in STONNE, the
// simulator behind STONNE-Omega (package doc, "Output path"): the reduction
// network that sums each virtual neuron (VN), the collection bus that
// carries the sums to the global buffer, and the buffer's write queue. The
// phases (timing.go) feed it one wave of results per pass or weight column
// and read back when the last result was written.

// vnRoot is where one VN's sum leaves the reduction network: the ART node
// that completes it (level 0 is the root) and the cycles from the
// multipliers' output to that node's send.
type vnRoot struct {
	level, node int
	lat         int64
}

// artRoot returns where the VN of m consecutive leaves starting at leaf a
// is completed in an augmented reduction tree (ART, MAERI's) over leaves
// leaves (a power of two), and when.
//
// The tree sums a VN level by level, one cycle per level. Adjacent nodes
// with different parents are joined by a forwarding link; when a VN's
// partial sums at some level sit on both sides of such a link and the VN
// does not continue past the pair, the smaller side (ties: the right one)
// sends its sum over the link and the other node adds three operands. A
// switch's receiving side runs before its sending side within a cycle, so
// the forwarded operand arrives a cycle later: each such merge costs one
// cycle on top of the level. The sum leaves at the first level where one
// node holds the whole VN. A VN of 2^k leaves aligned to 2^k needs no link
// and takes k cycles; 13 leaves starting at 0 take 5, not 4, because leaf
// 12 joins by a link at the first level.
func artRoot(a, m, leaves int, buf *[2][]int64) vnRoot {
	lo, hi := a, a+m-1 // the VN's nodes at the current level (first: leaves)
	cur := resize((*buf)[0], m)
	clear(cur)
	nxt := (*buf)[1][:0]
	levels := bits.Len(uint(leaves)) - 1
	at := func(x int) int64 { // send time of node x from its children at lo..hi
		var t int64 = -1
		for c := 2 * x; c <= 2*x+1; c++ {
			if c >= lo && c <= hi {
				t = max(t, cur[c-lo])
			}
		}
		return t + 1
	}
	for l := levels - 1; l >= 0; l-- {
		last := 1<<l - 1
		nlo := -1
		nxt = nxt[:0]
		keep := func(x int, t int64) {
			if nlo < 0 {
				nlo = x
			}
			nxt = append(nxt, t)
		}
		for x := lo / 2; x <= hi/2; x++ {
			if x == 0 || x == last || x%2 == 0 {
				// No link (the first and last nodes), or the right node of a
				// pair whose left node holds nothing of this VN.
				keep(x, at(x))
				continue
			}
			lx, rx := x, x+1
			if rx > hi/2 { // the right node holds nothing of this VN
				keep(lx, at(lx))
				continue
			}
			tl, tr := at(lx), at(rx)
			left := min(2*lx+1, hi) - lo + 1 // VN nodes left of the link
			right := hi - 2*rx + 1           // and right of it
			switch {
			case left >= right && hi < 2*rx+2:
				keep(lx, max(tl, tr+1)) // right merges into left
			case left < right && lo > 2*lx-1:
				keep(rx, max(tr, tl+1)) // left merges into right
			default: // the VN goes on past the pair: both move up
				keep(lx, tl)
				keep(rx, tr)
			}
			x++
		}
		cur, nxt = nxt, cur
		lo, hi = nlo, nlo+len(cur)-1
		if lo == hi {
			(*buf)[0], (*buf)[1] = cur, nxt
			return vnRoot{level: l, node: lo, lat: cur[0]}
		}
	}
	panic("accel: ART never completed a VN") // unreachable: the root holds every leaf
}

// collector is the output path of one phase: k VNs whose sums leave the
// reduction network lat cycles after the multipliers produce them, travel
// over collection-bus lines and are written through the global buffer's
// write queue.
//
//   - Bus lines. With an ART, the two nodes of a forwarding-link pair share
//     a bus line (the first and last node of a level have their own); a line
//     delivers one result per cycle, alternating between its two inputs
//     (round robin, the left input first). With a temporal reduction each
//     PE's accumulator has its own line. The buffer takes what the lines
//     delivered in the order of the lines: the pairs level by level from
//     the root, then the unpaired nodes.
//   - Write queue. Each cycle the buffer appends what arrived and writes
//     the first ceil(n/2) of the n results queued: STONNE's write loop pops
//     while its index is below the shrinking queue length, so a burst of n
//     results takes floor(log2 n) + 1 cycles to write, not one.
//
// A result is timestamped when it is written, and the phase's controller
// starts its next row (aggregation) or tile (combination) only once every
// result of the current one has been written.
type collector struct {
	lat     []int64 // per VN
	line    []int   // per VN: bus line, numbered in the buffer's receive order
	input   []uint8 // per VN: the line input (0 or 1)
	onLine  [][2]int32
	nLines  int
	byLat   []int   // VNs sorted by latency
	latLo   []int64 // distinct latencies, ascending
	latHi   []int   // end of each latency's VNs in byLat
	popT    []int64 // per VN: when its result of the last wave was written
	arrived [][2]int32
	served  [][2]int32
	ptr     []uint8
	ptr0    []uint8
	fifo    []int32
	sent    []int32
	keys    []lineKey
	order   []int
	bucket  []int
	buf     [2][]int64
}

type lineKey struct {
	single      bool // an unpaired node: after all pairs
	level, slot int
	vn          int
	input       uint8
}

// setup lays out k VNs of m leaves each (VN i on leaves [i*m, (i+1)*m)) on
// a reduction network over leaves leaves: an ART when m > 1, a temporal
// reduction (one accumulator per PE) when m = 1.
func (c *collector) setup(m, k, leaves int) {
	c.lat = resize(c.lat, k)
	c.line = resize(c.line, k)
	c.input = resize(c.input, k)
	c.popT = resize(c.popT, k)
	c.byLat = resize(c.byLat, k)
	c.latLo, c.latHi = c.latLo[:0], c.latHi[:0]
	if m == 1 {
		// Temporal: accumulator v on line v; every result takes no time
		// in the network.
		for v := range k {
			c.lat[v], c.line[v], c.input[v], c.byLat[v] = 0, v, 0, v
		}
		c.nLines = k
		if k > 0 {
			c.latLo, c.latHi = append(c.latLo, 0), append(c.latHi, k)
		}
	} else {
		c.layoutART(m, k, leaves)
	}
	c.onLine = resize(c.onLine, c.nLines)
	for l := range c.onLine {
		c.onLine[l] = [2]int32{-1, -1}
	}
	for v := range k {
		c.onLine[c.line[v]][c.input[v]] = int32(v)
	}
	c.arrived = resize(c.arrived, c.nLines)
	c.served = resize(c.served, c.nLines)
	c.ptr = resize(c.ptr, c.nLines)
	c.ptr0 = resize(c.ptr0, c.nLines)
}

// layoutART places the VNs' roots and numbers the bus lines in the
// buffer's receive order: the pair lines level by level from the root, then
// the unpaired nodes' lines likewise. VNs lie left to right, so within a
// level their roots are in VN order and a stable bucketing by (paired,
// level) sorts them.
func (c *collector) layoutART(m, k, leaves int) {
	levels := bits.Len(uint(leaves))
	c.keys = resize(c.keys, k)
	c.bucket = resize(c.bucket, 2*levels+1)
	clear(c.bucket)
	minLat, maxLat := int64(-1), int64(-1)
	pow2 := m&(m-1) == 0
	for v := range k {
		var r vnRoot
		if pow2 {
			// Aligned 2^j leaves: completed by the subtree's root, j levels
			// up, with no forwarding link.
			j := bits.Len(uint(m)) - 1
			r = vnRoot{level: levels - 1 - j, node: v, lat: int64(j)}
		} else {
			r = artRoot(v*m, m, leaves, &c.buf)
		}
		c.lat[v] = r.lat
		key := lineKey{level: r.level, slot: r.node, vn: v}
		if r.node == 0 || r.node == 1<<r.level-1 {
			key.single = true
		} else {
			key.slot, key.input = (r.node+1)/2, uint8(1-r.node%2)
		}
		c.keys[v] = key
		c.bucket[key.bucketOf(levels)+1]++
		if minLat < 0 || r.lat < minLat {
			minLat = r.lat
		}
		maxLat = max(maxLat, r.lat)
	}
	for b := 1; b < len(c.bucket); b++ {
		c.bucket[b] += c.bucket[b-1]
	}
	c.order = resize(c.order, k)
	for v := range k {
		b := c.keys[v].bucketOf(levels)
		c.order[c.bucket[b]] = v
		c.bucket[b]++
	}
	c.nLines = 0
	for j, v := range c.order {
		key := c.keys[v]
		if j > 0 {
			p := c.keys[c.order[j-1]]
			if p.single != key.single || p.level != key.level || p.slot != key.slot {
				c.nLines++
			}
		}
		c.line[v], c.input[v] = c.nLines, key.input
	}
	if k > 0 {
		c.nLines++
	}
	// VNs by latency (counting sort: the latencies span a few cycles).
	n := int(maxLat-minLat) + 2
	c.bucket = resize(c.bucket, n)
	clear(c.bucket)
	for v := range k {
		c.bucket[c.lat[v]-minLat+1]++
	}
	for b := 1; b < n; b++ {
		c.bucket[b] += c.bucket[b-1]
	}
	for v := range k {
		b := c.lat[v] - minLat
		c.byLat[c.bucket[b]] = v
		c.bucket[b]++
	}
	for j, v := range c.byLat {
		if j == 0 || c.lat[v] != c.latLo[len(c.latLo)-1] {
			c.latLo = append(c.latLo, c.lat[v])
			c.latHi = append(c.latHi, j)
		}
		c.latHi[len(c.latHi)-1] = j + 1
	}
}

// bucketOf orders the lines: pairs by level, then unpaired nodes by level.
func (k lineKey) bucketOf(levels int) int {
	if k.single {
		return levels + k.level
	}
	return k.level
}

// pairs reports whether some bus line carries two VNs.
func (c *collector) pairs() bool {
	for _, o := range c.onLine {
		if o[0] >= 0 && o[1] >= 0 {
			return true
		}
	}
	return false
}

// run sends waves waves of results, one per VN each: wave w's result of VN
// v reaches its bus line at cycle base + w*gap + lat[v] (gap >= 1). It
// returns the cycle the last result is written; c.popT then holds when each
// VN's result of the last wave was written. Cycles count from the same
// origin as base.
func (c *collector) run(base, gap, waves int64) int64 {
	k := len(c.lat)
	if k == 0 || waves <= 0 {
		return base
	}
	clear(c.arrived)
	clear(c.served)
	clear(c.ptr)
	c.fifo, c.sent = c.fifo[:0], c.sent[:0]
	head := 0
	total := waves * int64(k)
	var written, last int64
	pending := 0 // results waiting on bus lines
	nextWave := int64(0)
	havePrev := false // the previous wave began on an idle path
	t := base + c.latLo[0]
	for written < total {
		// The buffer appends what the lines delivered last cycle and writes
		// the first half of its queue.
		c.fifo = append(c.fifo, c.sent...)
		c.sent = c.sent[:0]
		if n := len(c.fifo) - head; n > 0 {
			n = (n + 1) / 2
			for range n {
				c.popT[c.fifo[head]] = t
				head++
			}
			written += int64(n)
			last = t
			if head == len(c.fifo) {
				c.fifo, head = c.fifo[:0], 0
			}
		}
		// Results reach their lines.
		for g, lt := range c.latLo {
			d := t - base - lt
			if d < 0 || d%gap != 0 || d/gap >= waves {
				continue
			}
			w := d / gap
			if g == 0 && w == nextWave {
				// Wave w begins. If the path is idle and was idle with the
				// same line state when wave w-1 began, every later wave
				// repeats wave w-1: skip ahead.
				if written == w*int64(k) && pending == 0 && len(c.fifo) == head {
					if havePrev && slices.Equal(c.ptr, c.ptr0) {
						shift := (waves - w) * gap
						for v := range c.popT {
							c.popT[v] += shift
						}
						return last + shift
					}
					copy(c.ptr0, c.ptr)
					havePrev = true
				} else {
					havePrev = false
				}
				nextWave++
			}
			lo := 0
			if g > 0 {
				lo = c.latHi[g-1]
			}
			for _, v := range c.byLat[lo:c.latHi[g]] {
				c.arrived[c.line[v]][c.input[v]]++
				pending++
			}
		}
		// Each line delivers one result, round robin over its inputs.
		if pending > 0 {
			for l := range c.nLines {
				a, s := &c.arrived[l], &c.served[l]
				for range 2 {
					in := c.ptr[l]
					c.ptr[l] ^= 1
					if a[in] > s[in] {
						s[in]++
						c.sent = append(c.sent, c.onLine[l][in])
						pending--
						break
					}
				}
			}
		}
		t++
		if pending == 0 && len(c.sent) == 0 && len(c.fifo) == head && written < total {
			// Idle: jump to the next arrival.
			t = c.nextArrival(t, base, gap, waves)
		}
	}
	return last
}

// nextArrival returns the first cycle >= t at which some result reaches its
// line.
func (c *collector) nextArrival(t, base, gap, waves int64) int64 {
	best := int64(-1)
	for _, lt := range c.latLo {
		d := max(t-base-lt, 0)
		w := ceilDiv(d, gap)
		if w >= waves {
			continue
		}
		if a := base + lt + w*gap; best < 0 || a < best {
			best = a
		}
	}
	return best
}

// resize returns s with length n, reusing its storage.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// nextPow2 returns the smallest power of two >= x (1 for x <= 1).
func nextPow2(x int) int {
	if x <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(x-1))
}
