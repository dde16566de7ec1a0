package hw

import (
	"math"
	"strings"
	"testing"
)

// TestCheckCount (issue 28, class 4): a saturated sum is an error naming
// the quantity and the remedy, never a number to print.
func TestCheckCount(t *testing.T) {
	for _, tc := range []struct {
		v  int64
		ok bool
	}{
		{0, true}, {MaxTimePS - 1, true}, {MaxTimePS, false}, {math.MaxInt64 / 2, false},
		{SatAdd(math.MaxInt64-1, 5), false}, {-1, false},
	} {
		err := CheckCount("latency (ps)", tc.v, "fewer frames")
		if tc.ok != (err == nil) || err != nil && (!strings.Contains(err.Error(), "latency (ps)") || !strings.Contains(err.Error(), "fewer frames")) {
			t.Errorf("CheckCount(%d) = %v", tc.v, err)
		}
	}
}
