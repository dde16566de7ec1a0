package accel

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestARTRoot(t *testing.T) {
	var buf [2][]int64
	for _, tc := range []struct {
		a, m, leaves     int
		level, node, lat int
	}{
		{0, 2, 512, 8, 0, 1},   // one adder
		{6, 2, 512, 8, 3, 1},   // aligned pairs anywhere
		{0, 16, 512, 5, 0, 4},  // an aligned subtree of 16
		{0, 16, 256, 4, 0, 4},  // the same on a smaller tree
		{0, 15, 512, 5, 0, 4},  // 15 leaves: no forwarding link needed
		{0, 13, 512, 6, 0, 5},  // leaf 12 joins by a link: one cycle more
		{0, 14, 512, 6, 0, 5},  // leaves 12-13 likewise
		{0, 18, 512, 5, 0, 5},  // 18 leaves: ceil(log2 18) levels
		{0, 28, 512, 5, 0, 6},  // 28 leaves: 24-27 join by links twice
		{18, 18, 512, 6, 3, 5}, // the second VN of 18: completed through links
	} {
		r := artRoot(tc.a, tc.m, tc.leaves, &buf)
		if r.level != tc.level || r.node != tc.node || r.lat != int64(tc.lat) {
			t.Errorf("artRoot(%d, %d, %d) = level %d node %d lat %d, want %d %d %d", tc.a, tc.m, tc.leaves, r.level, r.node, r.lat, tc.level, tc.node, tc.lat)
		}
	}
	// Properties over layouts: a VN takes at least a cycle and at most two
	// per level (a link at every level); aligned powers of two take one per
	// level and no link. (Three-operand adds at the links let a VN finish
	// in fewer than ceil(log2 m) cycles: 40 leaves at 40 take 5.)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		leaves := 1 << (2 + rng.IntN(8))
		m := 2 + rng.IntN(leaves-1)
		k := 1 + rng.IntN(leaves/m)
		levels := bits.Len(uint(leaves)) - 1
		for v := range k {
			r := artRoot(v*m, m, leaves, &buf)
			if r.lat < 1 || r.lat > 2*int64(levels) || r.level < 0 || r.level >= levels || r.node >= 1<<r.level {
				t.Fatalf("leaves %d, VN %d of %d leaves: %+v", leaves, v, m, r)
			}
			if m&(m-1) == 0 && (r.lat != int64(bits.Len(uint(m))-1) || r.node != v) {
				t.Fatalf("leaves %d, aligned VN %d of %d leaves: %+v", leaves, v, m, r)
			}
		}
	}
}

// TestCollectorWrites checks the output path on cases worked by hand.
func TestCollectorWrites(t *testing.T) {
	var c collector
	// A burst of n results on n separate lines (temporal reduction) is
	// written over floor(log2 n) + 1 cycles: ceil(half) of the queue each.
	for n := 1; n <= 64; n++ {
		c.setup(1, n, 64)
		if got, want := c.run(10, 100, 1), int64(11+bits.Len(uint(n))-1); got != want {
			t.Errorf("burst of %d: last written at %d, want %d", n, got, want)
		}
	}
	// 11 VNs of 2 leaves: VN 0 has its own line, 1 and 2 share one (1
	// first), 3 and 4 ... 9 and 10. The buffer receives the pair lines, then
	// VN 0's: 6 results (1 3 5 7 9 0) the cycle after they reach the lines
	// (cycle 1: one adder level), then 5 (2 4 6 8 10). The buffer writes 3
	// of 6, 4 of 8, 2, 1, 1: the stamps of ENZYMES_g127's combination
	// under tiling b in the reference set, 532 533 532 ... less 530.
	c.setup(2, 11, 512)
	last := c.run(0, 100, 1)
	want := []int64{3, 2, 3, 2, 4, 2, 4, 3, 5, 3, 6}
	if last != 6 || !slices.Equal(c.popT, want) {
		t.Errorf("11 pairs: written at %v (last %d), want %v (last 6)", c.popT, last, want)
	}
}

// TestCollectorMatchesNaive compares the collector, which skips idle cycles
// and repeats periodic waves, with a plain cycle-by-cycle simulation.
func TestCollectorMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var c collector
	for i := range 3000 {
		leaves := 1 << (3 + rng.IntN(7))
		m := 1 + rng.IntN(min(leaves, 40))
		k := 1 + rng.IntN(leaves/m)
		gap := int64(1 + rng.IntN(12))
		waves := int64(1 + rng.IntN(20))
		base := int64(rng.IntN(5))
		c.setup(m, k, leaves)
		got := c.run(base, gap, waves)
		gotPop := slices.Clone(c.popT)
		want, wantPop := naiveCollect(&c, base, gap, waves)
		if got != want || !slices.Equal(gotPop, wantPop) {
			t.Fatalf("case %d: %d VNs of %d leaves on %d, gap %d, %d waves: last %d, stamps %v; naive %d, %v", i, k, m, leaves, gap, waves, got, gotPop, want, wantPop)
		}
	}
}

// naiveCollect simulates c's output path cycle by cycle with explicit
// queues of results.
func naiveCollect(c *collector, base, gap, waves int64) (int64, []int64) {
	k := len(c.lat)
	type item struct{ v int }
	queues := make([][2][]item, c.nLines)
	ptr := make([]int, c.nLines)
	var fifo, sent []item
	pop := make([]int64, k)
	total := waves * int64(k)
	var written, last int64
	for t := int64(0); written < total; t++ {
		fifo = append(fifo, sent...)
		sent = sent[:0]
		n := (len(fifo) + 1) / 2
		for _, it := range fifo[:n] {
			pop[it.v] = t
			last = t
		}
		written += int64(n)
		fifo = fifo[n:]
		for v := range k {
			d := t - base - c.lat[v]
			if d >= 0 && d%gap == 0 && d/gap < waves {
				l, in := c.line[v], c.input[v]
				queues[l][in] = append(queues[l][in], item{v})
			}
		}
		for l := range queues {
			for range 2 {
				in := ptr[l]
				ptr[l] ^= 1
				if q := queues[l][in]; len(q) > 0 {
					sent = append(sent, q[0])
					queues[l][in] = q[1:]
					break
				}
			}
		}
	}
	return last, pop
}

// clog2 returns ceil(log2(x)) for x >= 1 (0 for x <= 1).
func clog2(x int64) int64 {
	if x <= 1 {
		return 0
	}
	return int64(bits.Len64(uint64(x - 1)))
}
