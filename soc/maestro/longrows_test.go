package maestro

import "testing"

// TestLongRows: the long table of 'soc validate maestro --out' has one row
// per (analysed row, metric) and one per row MAESTRO rejected, in
// reference order, and agrees with Score: every row Score counts as exact
// on cycles has a zero cycles error, and the rows it scores number
// Report.All.Rows.
func TestLongRows(t *testing.T) {
	ref := sharedReference(t)
	rows := LongRows(ref)
	rep := Score(ref)
	want, scored, exact := 0, 0, 0
	for i := range ref.Rows {
		if ref.Rows[i].Status == "ok" {
			want += len(LongMetrics)
		} else {
			want++
		}
	}
	if len(rows) != want {
		t.Fatalf("%d long rows, want %d", len(rows), want)
	}
	last := int64(0)
	for _, r := range rows {
		if r.Line < last {
			t.Fatalf("line %d after %d: not in reference order", r.Line, last)
		}
		last = r.Line
		if r.Metric == "cycles" && r.Status == "ok" && r.MACsOK && r.Error == "" {
			scored++
			if r.AbsPctErr == 0 {
				exact++
			}
		}
	}
	if scored != rep.All.Rows || exact != rep.All.Runtime.Exact {
		t.Errorf("long rows: %d scored, %d exact; Score: %d, %d", scored, exact, rep.All.Rows, rep.All.Runtime.Exact)
	}
}
