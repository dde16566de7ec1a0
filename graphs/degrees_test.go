package graphs

import (
	"slices"
	"testing"
)

func TestPowerLawRows(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		total int64
		gamma float64
		dmax  int
	}{
		{"small", 1000, 20000, 2.5, 999},
		{"steep", 5000, 12000, 3.5, 4999},
		{"capped", 2000, 1_000_000, 2.1, 600},
		{"all-ones", 10, 10, 2, 1},
		{"full", 10, 100, 2, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			ptr, err := PowerLawRows(c.n, c.total, c.gamma, c.dmax, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(ptr) != c.n+1 || ptr[0] != 0 || int64(ptr[c.n]) != c.total {
				t.Fatalf("%d pointers ending at %d, want %d ending at %d", len(ptr), ptr[len(ptr)-1], c.n+1, c.total)
			}
			for i := range c.n {
				if d := ptr[i+1] - ptr[i]; d < 1 || int(d) > c.dmax {
					t.Fatalf("row %d has length %d, want 1..%d", i, d, c.dmax)
				}
			}
			// Same seed, same profile; another seed, the same lengths in another order.
			again, _ := PowerLawRows(c.n, c.total, c.gamma, c.dmax, 1)
			other, _ := PowerLawRows(c.n, c.total, c.gamma, c.dmax, 2)
			if !slices.Equal(ptr, again) {
				t.Error("not deterministic")
			}
			a, b := lengths(ptr), lengths(other)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Error("another seed changed the lengths, not only their order")
			}
		})
	}
}

// TestPowerLawRowsSkew: a smaller exponent puts more of the entries in the
// longest rows (heavier tail) at the same mean.
func TestPowerLawRowsSkew(t *testing.T) {
	prev := 2.0
	for _, g := range []float64{2.1, 2.5, 3.0, 4.0} {
		ptr, err := PowerLawRows(20000, 20000*50, g, 19999, 3)
		if err != nil {
			t.Fatal(err)
		}
		st, err := RowPtrStats(ptr)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mean != 50 || !(st.Top1PctShare < prev) || !(st.Median < 50) {
			t.Errorf("gamma %v: %+v (previous top-1%% share %v)", g, st, prev)
		}
		prev = st.Top1PctShare
	}
}

func TestPowerLawRowsErrors(t *testing.T) {
	for _, c := range []struct {
		n     int
		total int64
		gamma float64
		dmax  int
	}{
		{0, 10, 2, 5}, {10, 9, 2, 5}, {10, 51, 2, 5}, {10, 20, 1, 5}, {10, 20, 2, 0}, {3, 1 << 32, 2, 1 << 31},
	} {
		if _, err := PowerLawRows(c.n, c.total, c.gamma, c.dmax, 1); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := RowPtrStats([]int32{0}); err == nil {
		t.Error("empty row pointers accepted")
	}
	if _, err := RowPtrStats([]int32{0, 3, 2}); err == nil {
		t.Error("decreasing row pointers accepted")
	}
}

func lengths(ptr []int32) []int32 {
	out := make([]int32, len(ptr)-1)
	for i := range out {
		out[i] = ptr[i+1] - ptr[i]
	}
	return out
}
