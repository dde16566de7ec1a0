package splitmix

import "testing"

// TestMix64Pinned pins Mix64's outputs: every graph set and search result
// gnnsim has written depends on them. The first three rows are the first
// outputs of the reference SplitMix64 generator (Vigna's splitmix64.c)
// started at 0; the rest were recorded from gnnsim's earlier copies of the
// mixer (graphs.splitmix64, search.mix64), including the constants they are
// called with.
func TestMix64Pinned(t *testing.T) {
	for _, c := range []struct{ in, want uint64 }{
		{0x0, 0xe220a8397b1dcdaf},
		{0x9e3779b97f4a7c15, 0x6e789e6aa1b965f4},
		{0x3c6ef372fe94f82a, 0x06c45d188009454f},
		{0x1, 0x910a2dec89025cc1},
		{0x2, 0x975835de1c9756ce},
		{0x2a, 0xbdd732262feb6e95},
		{0x6a09e667f3bcc909, 0x63cfc62a2b097592}, // graphs: graph-stream key
		{0x6e65737465640000, 0x53e33371160ce7b3}, // search: "nested" key
		{0x8000000000000000, 0x481ec0a212a9f3db},
		{0xffffffffffffffff, 0xe4d971771b652c20},
	} {
		if got := Mix64(c.in); got != c.want {
			t.Errorf("Mix64(%#x) = %#x, want %#x", c.in, got, c.want)
		}
	}
}

// TestMix64Avalanche checks the property callers rely on: flipping one
// input bit flips about half of the output bits.
func TestMix64Avalanche(t *testing.T) {
	const inputs = 256
	total := 0
	x := uint64(0x0123456789abcdef)
	for range inputs {
		x = Mix64(x)
		for b := range 64 {
			d := Mix64(x) ^ Mix64(x^1<<b)
			for ; d != 0; d &= d - 1 {
				total++
			}
		}
	}
	mean := float64(total) / (inputs * 64)
	if mean < 31 || mean > 33 {
		t.Fatalf("a one-bit change flips %.2f output bits on average, want about 32", mean)
	}
}

var sink uint64

func BenchmarkMix64(b *testing.B) {
	x := uint64(1)
	for b.Loop() {
		x = Mix64(x)
	}
	sink = x
}
