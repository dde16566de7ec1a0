package accel

import "testing"

// FuzzParseHW checks that any YAML either parses into a valid spec or
// fails with an error, never a panic.
func FuzzParseHW(f *testing.F) {
	for _, s := range []string{"pes: 1024\n", "energy_pj:\n  mac: 2\n", "dram_bytes_per_cycle: .nan\n", "pes: [", "{}", "word_bytes: 99999999999999999999\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHW(data)
		if err != nil {
			return
		}
		if err := h.Validate(); err != nil {
			t.Fatalf("ParseHW returned an invalid spec: %v", err)
		}
	})
}
