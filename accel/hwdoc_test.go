package accel

import (
	"bytes"
	"strings"
	"testing"
)

// TestWriteHWYAMLRoundTrip checks that the documented YAML of a spec parses
// back to the same spec and that every key line carries a comment.
func TestWriteHWYAMLRoundTrip(t *testing.T) {
	other := DefaultHW()
	other.PEs, other.PPAggPEs, other.ClockHz, other.Energy.DRAM = 256, 64, 1.5e9, 123.25
	for _, h := range []HW{DefaultHW(), other} {
		var buf bytes.Buffer
		if err := WriteHWYAML(&buf, h); err != nil {
			t.Fatal(err)
		}
		got, err := ParseHW(buf.Bytes())
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if got != h {
			t.Errorf("round trip gave %+v, want %+v\n%s", got, h, buf.String())
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != len(hwKeyDocs) {
			t.Errorf("%d lines, want one per documented key (%d)", len(lines), len(hwKeyDocs))
		}
		for _, l := range lines {
			if !strings.Contains(l, ": ") || !strings.Contains(l, " # ") {
				t.Errorf("line %q lacks a key or a comment", l)
			}
		}
	}
}
