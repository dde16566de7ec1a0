package omegaref

import (
	"testing"

	"gnnsim/accel"
)

// BenchmarkScoreReference simulates the whole reference set (every run's
// seq and sp, or pp, configurations) in omega mode; compare the time per
// op with the reference's total wall time (Reference.WallSeconds, 522 s for
// the 1,888 runs of ../shared/omega-reference).
func BenchmarkScoreReference(b *testing.B) {
	dir, ok := FindDir()
	if !ok {
		b.Skip("STONNE-Omega reference set not found: set GNNSIM_SHARED to the directory holding omega-reference/")
	}
	ref, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range []struct {
		name string
		e    accel.Engine
	}{{"events", accel.Events}, {"fast", accel.Fast}} {
		b.Run(e.name, func(b *testing.B) {
			for b.Loop() {
				Score(ref, accel.DefaultHW(), accel.Options{Mode: accel.Omega, Engine: e.e})
			}
			b.ReportMetric(ref.WallSeconds()/(b.Elapsed().Seconds()/float64(b.N)), "speedup")
		})
	}
}
