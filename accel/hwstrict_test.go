package accel

import (
	"strings"
	"testing"
)

// TestParseHWRefusesCoercions: a fractional or overflowing value in a
// hardware spec is an error naming the key, not a truncated number (issue
// 17, class 7: pes: 256.7 read as 256).
func TestParseHWRefusesCoercions(t *testing.T) {
	for _, in := range []string{"pes: 256.7", "global_buffer_bytes: 1e30", "pes: 9223372036854775808"} {
		key, _, _ := strings.Cut(in, ":")
		if _, err := ParseHW([]byte(in)); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: error %v, want one naming %s", in, err, key)
		}
	}
	if h, err := ParseHW([]byte("pes: 256\n")); err != nil || h.PEs != 256 {
		t.Errorf("pes: 256: %+v, %v", h.PEs, err)
	}
	if _, err := ParseHW(nil); err != nil {
		t.Errorf("empty spec (all defaults): %v", err)
	}
}
