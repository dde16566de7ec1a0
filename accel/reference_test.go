package accel_test

import (
	"testing"

	"gnnsim/accel"
	"gnnsim/accel/omegaref"
)

// TestOmegaReference is the reference-agreement test: omega mode against
// the STONNE-Omega reference set in ../shared/omega-reference (or
// $GNNSIM_SHARED/omega-reference). Issue 3 asked for a median absolute
// error <= 2 %, p90 <= 5 % over seq, sp and pp cycles, top-1 agreement >=
// 90 % and a median Spearman >= 0.95; issue 18 for exact cycle counts on >=
// 95 % of the seq, sp and pp values and never more than 1 % off. The
// output-path model (rnet.go) reproduces every value, so the test asks
// for that: every agg, comb, seq, sp and pp value exact.
func TestOmegaReference(t *testing.T) {
	dir, ok := omegaref.FindDir()
	if !ok {
		t.Skip("STONNE-Omega reference set not found: set GNNSIM_SHARED to the directory holding omega-reference/")
	}
	ref, err := omegaref.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := omegaref.Score(ref, accel.DefaultHW(), accel.Options{Mode: accel.Omega, Engine: accel.Fast})
	t.Log(rep.LastLine())
	if len(rep.Failures) > 0 {
		t.Fatalf("%d runs failed, first: %s", len(rep.Failures), rep.Failures[0])
	}
	if rep.Runs != len(ref.Runs) || rep.Graphs == 0 {
		t.Fatalf("scored %d of %d runs over %d graphs", rep.Runs, len(ref.Runs), rep.Graphs)
	}
	if rep.Overall.Median > 2 || rep.Overall.P90 > 5 {
		t.Errorf("seq/sp/pp error median %.3f%% p90 %.3f%%, want <= 2%% and <= 5%%", rep.Overall.Median, rep.Overall.P90)
	}
	for _, q := range omegaref.Quantities {
		s := rep.ByQuantity[q]
		if s.Exact != s.N || s.Max != 0 {
			t.Errorf("%s: %d of %d values exact, max error %.4f%% at %s; want all exact", q, s.Exact, s.N, s.Max, s.Worst())
		}
	}
	if rep.Top1 < 0.90 {
		t.Errorf("top-1 agreement %.3f, want >= 0.90", rep.Top1)
	}
	if rep.SpearmanMedian < 0.95 {
		t.Errorf("median Spearman %.4f, want >= 0.95", rep.SpearmanMedian)
	}
	if rep.GB.Max != 0 {
		t.Errorf("global-buffer accesses differ (max error %.3f%% at %s)", rep.GB.Max, rep.GB.Worst())
	}
	if rep.TileMismatches != 0 {
		t.Errorf("%d runs resolve to other tile sizes than the reference's", rep.TileMismatches)
	}
}

// TestOmegaReferenceEvents checks on a slice of the reference that the
// event-driven engine gives the same report as the closed form used above.
func TestOmegaReferenceEvents(t *testing.T) {
	dir, ok := omegaref.FindDir()
	if !ok {
		t.Skip("STONNE-Omega reference set not found: set GNNSIM_SHARED to the directory holding omega-reference/")
	}
	ref, err := omegaref.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		ref.Runs = ref.Runs[:min(len(ref.Runs), 200)]
	}
	a := omegaref.Score(ref, accel.DefaultHW(), accel.Options{Mode: accel.Omega, Engine: accel.Fast})
	b := omegaref.Score(ref, accel.DefaultHW(), accel.Options{Mode: accel.Omega})
	if a.LastLine() != b.LastLine() {
		t.Errorf("fast %s\nevents %s", a.LastLine(), b.LastLine())
	}
}
