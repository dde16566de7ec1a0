package train

import (
	"math"
	"strings"
	"sync"
	"testing"
)

func TestFixedQuantize(t *testing.T) {
	for _, c := range []struct {
		f       Fixed
		x, want float64
	}{
		{Fixed{1, 5}, 0.1, 0.09375},       // 3.2/32 rounds to 3/32
		{Fixed{1, 5}, -0.1, -0.09375},     // symmetric rounding
		{Fixed{1, 5}, 1.0 / 64, 1.0 / 32}, // half away from zero
		{Fixed{1, 5}, 5, 2 - 1.0/32},      // clipped to 2^bi - D
		{Fixed{1, 5}, -5, -2},             // clipped to -2^bi
		{Fixed{0, 0}, 0.7, 0},             // range [-1, 0]
		{Fixed{0, 0}, -0.7, -1},
		{Fixed{2, 0}, 2.5, 3},
		{Fixed{3, 6}, 0, 0},
	} {
		if got := c.f.Quantize(c.x); got != c.want {
			t.Errorf("%v.Quantize(%v) = %v, want %v", c.f, c.x, got, c.want)
		}
	}
	// Properties on a grid: idempotent, monotone, within D/2 inside the
	// range, on the grid of multiples of D.
	for _, f := range []Fixed{{1, 0}, {1, 3}, {2, 4}, {3, 6}, {7, 16}} {
		d, lim := math.Ldexp(1, -f.Frac), math.Ldexp(1, f.Int)
		prev := math.Inf(-1)
		for x := -lim - 1; x < lim+1; x += 0.001 {
			q := f.Quantize(x)
			if f.Quantize(q) != q || q < prev || math.Mod(q/d, 1) != 0 {
				t.Fatalf("%v at %v: q=%v (prev %v)", f, x, q, prev)
			}
			if x >= -lim && x <= lim-d && math.Abs(q-x) > d/2+1e-12 {
				t.Fatalf("%v at %v: error %v > D/2", f, x, math.Abs(q-x))
			}
			prev = q
		}
	}
}

func TestParseBits(t *testing.T) {
	b, err := ParseBits("w=1.5,a=2.4")
	if err != nil || len(b) != 1 || b[0] != (Bits{W: Fixed{1, 5}, A: Fixed{2, 4}}) {
		t.Errorf("ParseBits = %v, %v", b, err)
	}
	b, err = ParseBits("a=3.3, w=2.6/w=1.1,a=1.2")
	if err != nil || len(b) != 2 || b[0].W != (Fixed{2, 6}) || b[1].A != (Fixed{1, 2}) || bitsKey(b) != "w=2.6,a=3.3/w=1.1,a=1.2" {
		t.Errorf("ParseBits = %v, %v", b, err)
	}
	for _, s := range []string{"", "w=1.5", "w=1.5,a=2", "w=1.5,w=1.5", "x=1.5,a=1.1", "w=1.5,a=-1.2", "w=1.40,a=1.1", "w=1.5;a=1.1"} {
		if _, err := ParseBits(s); err == nil {
			t.Errorf("ParseBits(%q) accepted", s)
		}
	}
	if _, err := expandBits(make([]Bits, 3), 2); err == nil || !strings.Contains(err.Error(), "3 bit formats for 2 layers") {
		t.Errorf("expandBits: %v", err)
	}
}

// TestQuantizedAccuracy checks post-training quantisation on Cora's GCN:
// 16 fraction bits (and 7 integer bits) keep the accuracy within half a
// point, 1 fraction bit with 1 integer bit collapses the network to a
// constant guess, and fewer bits never help much on average.
func TestQuantizedAccuracy(t *testing.T) {
	d := loadData(t, "cora")
	m, err := Train(d, GCNArch(16), GCNConfig())
	if err != nil {
		t.Fatal(err)
	}
	fval, ftest := m.Result.Val, m.Result.Test
	wide := []Bits{{W: Fixed{7, 16}, A: Fixed{7, 16}}}
	val, test, err := m.Evaluate(wide)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(test-ftest) >= 0.005 || math.Abs(val-fval) >= 0.005 {
		t.Errorf("16 fraction bits: val %.3f test %.3f, float %.3f %.3f", val, test, fval, ftest)
	}
	// The largest test class share is what a constant guess can reach.
	counts := make([]int, d.NumClasses)
	for _, v := range d.Test {
		counts[d.Labels[v]]++
	}
	majority := 0
	for _, c := range counts {
		majority = max(majority, c)
	}
	_, test1, err := m.Evaluate([]Bits{{W: Fixed{1, 1}, A: Fixed{1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if test1 > float64(majority)/float64(len(d.Test))+1e-9 {
		t.Errorf("1 fraction bit: test %.3f above the majority-class share %.3f", test1, float64(majority)/float64(len(d.Test)))
	}
	t.Logf("Cora GCN test accuracy: float %.3f, w=a=7.16 %.3f, w=a=1.1 %.3f", ftest, test, test1)
	for _, frac := range []int{2, 4, 6, 8} {
		_, q, _ := m.Evaluate([]Bits{{W: Fixed{2, frac}, A: Fixed{2, frac}}})
		t.Logf("  w=a=2.%d: test %.3f", frac, q)
	}
	// Evaluate leaves the model usable: float accuracy again.
	if v, te, _ := m.Evaluate(nil); v != fval || te != ftest {
		t.Errorf("after quantised evaluations, Evaluate(nil) = %v %v", v, te)
	}
}

// TestOracle checks caching and single flight: many goroutines asking for
// the same genomes train each architecture once, get the answers a direct
// Train gives, and genomes differing only in bits share one training.
func TestOracle(t *testing.T) {
	d := toyData(t, 50, 10, 3, 8)
	c := GCNConfig()
	c.Epochs, c.Seed = 40, 11
	o, err := NewOracle(d, c, 4)
	if err != nil {
		t.Fatal(err)
	}
	gcn, gat := GCNArch(8), GATArch(4, 2, 1)
	genomes := []Genome{
		{Arch: gcn},
		{Arch: gcn, Bits: []Bits{{W: Fixed{2, 4}, A: Fixed{3, 3}}}},
		{Arch: gcn, Bits: []Bits{{W: Fixed{2, 4}, A: Fixed{3, 3}}, {W: Fixed{2, 4}, A: Fixed{3, 3}}}}, // same key as the previous
		{Arch: gat},
		{Arch: gat, Bits: []Bits{{W: Fixed{1, 2}, A: Fixed{1, 2}}}},
	}
	answers := make([][]Accuracy, 8)
	var wg sync.WaitGroup
	for gr := range answers {
		wg.Go(func() {
			for i := range genomes {
				g := genomes[(i+gr)%len(genomes)]
				a, err := o.Accuracy(g)
				if err != nil {
					t.Error(err)
				}
				answers[gr] = append(answers[gr], a)
			}
		})
	}
	wg.Wait()
	if n := o.Trainings(); n != 2 {
		t.Errorf("%d trainings for 2 architectures", n)
	}
	for gr := range answers {
		for i := range genomes {
			if answers[gr][i] != answers[0][(i+gr)%len(genomes)] {
				t.Fatalf("goroutine %d got a different answer for genome %d", gr, (i+gr)%len(genomes))
			}
		}
	}
	for _, g := range genomes {
		m, err := Train(d, g.Arch, c)
		if err != nil {
			t.Fatal(err)
		}
		val, test, _ := m.Evaluate(g.Bits)
		got, _ := o.Accuracy(g)
		if got.Val != val || got.Test != test || got.FloatTest != m.Result.Test || got.Epoch != m.Result.Epoch {
			t.Errorf("%v %v: oracle %+v, direct %v %v %+v", g.Arch, g.Bits, got, val, test, m.Result)
		}
	}
	if _, err := o.Accuracy(Genome{Arch: gcn, Bits: make([]Bits, 3)}); err == nil {
		t.Error("3 bit formats for 2 layers accepted")
	}
	if _, err := o.Accuracy(Genome{Arch: Arch{}}); err == nil {
		t.Error("empty architecture accepted")
	}
	// Eviction: a cache of one network retrains, to the same answer.
	small, _ := NewOracle(d, c, 1)
	first, _ := small.Accuracy(genomes[1])
	small.Accuracy(genomes[3])
	again, _ := small.Accuracy(genomes[2]) // cached answer (same key as genomes[1])
	other, _ := small.Accuracy(Genome{Arch: gcn, Bits: []Bits{{W: Fixed{3, 5}, A: Fixed{3, 5}}}})
	if small.Trainings() != 3 || again != first || other.FloatTest != first.FloatTest {
		t.Errorf("LRU of 1: %d trainings, answers %+v %+v %+v", small.Trainings(), first, again, other)
	}
}

// TestOracleLimit checks the resource bounds: with one training at a time
// and no memory for kept networks, concurrent questions get the answers
// of an unbounded oracle, and a network asked for again with other bits
// is retrained.
func TestOracleLimit(t *testing.T) {
	d := toyData(t, 50, 10, 3, 8)
	c := GCNConfig()
	c.Epochs, c.Seed = 30, 11
	free, _ := NewOracle(d, c, 8)
	tight, _ := NewOracle(d, c, 8)
	tight.Limit(1, 1)
	var genomes []Genome
	for _, a := range []Arch{GCNArch(4), GCNArch(8), GATArch(4, 2, 1), GATArch(2, 3, 2)} {
		genomes = append(genomes, Genome{Arch: a}, Genome{Arch: a, Bits: []Bits{{W: Fixed{2, 3}, A: Fixed{1, 4}}}})
	}
	got := make([]Accuracy, len(genomes))
	var wg sync.WaitGroup
	for i, g := range genomes {
		wg.Go(func() {
			var err error
			if got[i], err = tight.Accuracy(g); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, g := range genomes {
		want, err := free.Accuracy(g)
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != want {
			t.Errorf("%v %v: bounded oracle %+v, unbounded %+v", g.Arch, g.Bits, got[i], want)
		}
	}
	if tight.bytes != 0 || len(tight.models) != 0 {
		t.Errorf("%d bytes in %d networks kept under a 1-byte bound", tight.bytes, len(tight.models))
	}
	n := tight.Trainings()
	if _, err := tight.Accuracy(Genome{Arch: GCNArch(4), Bits: []Bits{{W: Fixed{3, 3}, A: Fixed{3, 3}}}}); err != nil {
		t.Fatal(err)
	}
	if tight.Trainings() != n+1 || free.Trainings() != 4 {
		t.Errorf("trainings: bounded %d -> %d (want one more), unbounded %d (want 4)", n, tight.Trainings(), free.Trainings())
	}
}

// TestOracleParks: a network evicted by the count bound keeps its
// parameters (within the byte bound), so a later genome of its
// architecture rebuilds it, trains nothing and gets the answer of an
// oracle that never evicted it.
func TestOracleParks(t *testing.T) {
	d := toyData(t, 50, 10, 3, 8)
	c := GCNConfig()
	c.Epochs, c.Seed = 30, 11
	free, _ := NewOracle(d, c, 8)
	one, _ := NewOracle(d, c, 1)
	one.Limit(1, 1<<30)
	archs := []Arch{GCNArch(4), GATArch(4, 2, 1), GCNArch(8)}
	bits := [][]Bits{nil, {{W: Fixed{2, 3}, A: Fixed{1, 4}}}, {{W: Fixed{1, 2}, A: Fixed{2, 2}}}}
	for _, b := range bits { // every architecture evicted before its next genome
		for _, a := range archs {
			g := Genome{Arch: a, Bits: b}
			got, err := one.Accuracy(g)
			if err != nil {
				t.Fatal(err)
			}
			want, err := free.Accuracy(g)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%v %v: rebuilt %+v, kept %+v", a, b, got, want)
			}
		}
	}
	if n := one.Trainings(); n != len(archs) {
		t.Errorf("%d trainings of %d architectures", n, len(archs))
	}
	if len(one.models) != 1 || len(one.parked) != len(archs)-1 {
		t.Errorf("%d networks kept, %d parked", len(one.models), len(one.parked))
	}
}
