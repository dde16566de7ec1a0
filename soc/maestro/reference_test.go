package maestro

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaestroReference scores Analyze against the MAESTRO runs of
// ../shared/maestro-reference (or $GNNSIM_SHARED/maestro-reference).
//
// The acceptance bars of issue 11 are, on the rows with status = ok and
// macs_ok = 1 of kcp_ws, ykp_os and dpt: median |runtime error| <= 1 %,
// p90 <= 5 %, L2 read and write counts within 5 % at p90. The level
// reached is higher and asserted as such: on every scored row of every
// dataflow, cycles, MACs and all L1 and L2 access counts equal MAESTRO's;
// energy agrees to the 6 significant digits of the CSV; every row MAESTRO
// rejected is rejected; every row where MAESTRO miscounts MACs is
// reproduced, miscount included.
func TestMaestroReference(t *testing.T) {
	ref := sharedReference(t)
	rep := Score(ref)
	t.Log(rep.LastLine())
	for _, f := range rep.Failures {
		t.Errorf("failed: %s", f)
	}
	if rep.All.Rows == 0 || len(rep.Dataflows) < 3 {
		t.Fatalf("scored %d rows over %d dataflows", rep.All.Rows, len(rep.Dataflows))
	}
	for i := range rep.Dataflows {
		d := &rep.Dataflows[i]
		switch d.Dataflow {
		case "kcp_ws", "ykp_os", "dpt":
			if d.Rows == 0 || d.Runtime.Median > 1 || d.Runtime.P90 > 5 || d.L2Reads.P90 > 5 || d.L2Writes.P90 > 5 {
				t.Errorf("%s: %d rows, runtime error median %.3f%% p90 %.3f%%, L2 reads p90 %.3f%%, writes p90 %.3f%%; want <= 1, 5, 5, 5",
					d.Dataflow, d.Rows, d.Runtime.Median, d.Runtime.P90, d.L2Reads.P90, d.L2Writes.P90)
			}
		}
		for name, s := range map[string]*Stats{"cycles": &d.Runtime, "MACs": &d.MACs, "L2 reads": &d.L2Reads,
			"L2 writes": &d.L2Writes, "L1 reads": &d.L1Reads, "L1 writes": &d.L1Writes} {
			if s.Max != 0 || s.Exact != d.Rows {
				t.Errorf("%s: %s exact on %d of %d rows, max error %.4f%% (%s)", d.Dataflow, name, s.Exact, d.Rows, s.Max, s.Worst)
			}
		}
		if d.Energy.Max > 0.001 {
			t.Errorf("%s: energy max error %.5f%% (%s)", d.Dataflow, d.Energy.Max, d.Energy.Worst)
		}
	}
	if a := &rep.All; a.ErrorsReproduced != a.MaestroErrors || a.BadMACReproduced != a.BadMACRows {
		t.Errorf("MAESTRO's failures reproduced %d of %d, MAC miscounts %d of %d",
			a.ErrorsReproduced, a.MaestroErrors, a.BadMACReproduced, a.BadMACRows)
	}
	if n := rep.All.Rows + rep.All.MaestroErrors + rep.All.BadMACRows; n != rep.RefRows {
		t.Errorf("accounted for %d of %d rows", n, rep.RefRows)
	}
	var b bytes.Buffer
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); lines[len(lines)-1] != rep.LastLine() {
		t.Errorf("Write does not end with LastLine")
	}
}

// TestReferenceDataflowsMatchBuiltins checks the built-in dataflows
// against the reference's files of the same name (all but yxp_os, whose
// built-in deliberately differs): the reference scores them too.
func TestReferenceDataflowsMatchBuiltins(t *testing.T) {
	dir, ok := FindReferenceDir()
	if !ok {
		t.Skip("MAESTRO reference set not found: set GNNSIM_SHARED to the directory holding maestro-reference/")
	}
	for _, n := range []string{"kcp_ws", "ykp_os", "dpt", "xp_ws", "rs", "nlr", "ckp_ws", "maeri", "gemm_nmk"} {
		ref, err := ParseFile(filepath.Join(dir, "dataflows", n+".m"))
		if err != nil {
			t.Fatal(err)
		}
		if b := mustBuiltin(t, n); !sameDirectives(b.Directives, ref.Directives) {
			t.Errorf("built-in %s differs from the reference's:\n%s\n%s", n, b, ref)
		}
	}
}

func TestReadReferenceRowsErrors(t *testing.T) {
	dir, ok := FindReferenceDir()
	if !ok {
		t.Skip("MAESTRO reference set not found")
	}
	data, err := os.ReadFile(filepath.Join(dir, ReferenceFile))
	if err != nil {
		t.Fatal(err)
	}
	header, first, _ := strings.Cut(string(data), "\n")
	first, _, _ = strings.Cut(first, "\n")
	tests := []struct{ csv, want string }{
		{"", "empty file"},
		{header + "\n", "no rows"},
		{"a,b\n1,2\n", "no column"},
		{header + "\n" + strings.Replace(first, "K=192", "K=x", 1) + "\n", "line 2: dims: bad field"},
		{header + "\n" + strings.Replace(first, ",kcp_ws,", ",../x,", 1) + "\n", "bad dataflow name"},
		{header + "\n" + strings.Replace(first, ",564484,", ",-3,", 1) + "\n", "runtime_cycles"},
		{header + "\n" + strings.Replace(first, ",564484,", ",NaN,", 1) + "\n", "runtime_cycles"},
		{header + "\n" + strings.Replace(first, ",564484,", ",+Inf,", 1) + "\n", "runtime_cycles"},
	}
	for _, tc := range tests {
		_, err := ReadReferenceRows(strings.NewReader(tc.csv), "t.csv")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want one containing %q", err, tc.want)
		}
	}
}

// FuzzReadReferenceRows checks the reference reader never panics.
func FuzzReadReferenceRows(f *testing.F) {
	f.Add([]byte("family,dims\nfc,K=1\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadReferenceRows(bytes.NewReader(data), "fuzz.csv")
	})
}

// sharedReference loads the MAESTRO reference set of the shared folder, or
// skips the test when there is none.
func sharedReference(tb testing.TB) *Reference {
	tb.Helper()
	dir, ok := FindReferenceDir()
	if !ok {
		tb.Skip("MAESTRO reference set not found: set GNNSIM_SHARED to the directory holding maestro-reference/")
	}
	ref, err := LoadReference(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return ref
}
