package omegaref

import (
	"bytes"
	"testing"
)

// FuzzParseCSR checks that any text either parses into a valid A+I graph
// or fails with an error, never a panic.
func FuzzParseCSR(f *testing.F) {
	for _, s := range []string{"0,2,4\n0,1,0,1\n", "0,1\n0\n", "0\n\n", "", "0,1,2\n1,0\n", "0,-1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseCSR(data, "fuzz.csr")
		if err != nil {
			return
		}
		if err := g.Validate(); err != nil || !g.SelfLoops {
			t.Fatalf("ParseCSR returned an invalid graph: %v", err)
		}
	})
}

// FuzzReadRuns checks the CSV reader never panics.
func FuzzReadRuns(f *testing.F) {
	f.Add([]byte(tiny))
	f.Add([]byte(header))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadRuns(bytes.NewReader(data), "fuzz.csv")
	})
}
