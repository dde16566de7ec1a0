package fpgaref

import "gnnsim/internal/refset"

// LongRow is one metric of one reference row: a row of the long table
// 'gnnsim fpga validate fgnas --out' writes.
type LongRow struct {
	Line      int64    `parquet:"line"`
	DesignID  string   `parquet:"design_id"`
	Source    string   `parquet:"source"`
	Dataset   string   `parquet:"dataset"`
	Metric    string   `parquet:"metric"`
	Ours      int64    `parquet:"ours"`
	Theirs    int64    `parquet:"theirs"`
	AbsPctErr *float64 `parquet:"abs_pct_err,optional"` // null when theirs is 0
	Error     string   `parquet:"error"`                // why the row could not be priced
}

// LongRows flattens the results into rows, in reference order and
// metric order (cycles, LUT, FF, DSP); a failed row is one row with its
// error.
func LongRows(rs []Result) []LongRow {
	var out []LongRow
	for i := range rs {
		r := &rs[i]
		base := LongRow{Line: int64(r.Row.Line), DesignID: r.Row.DesignID, Source: r.Row.Source, Dataset: r.Row.Dataset}
		if r.Err != nil {
			base.Error = r.Err.Error()
			out = append(out, base)
			continue
		}
		for m := range NumMetrics {
			x := base
			x.Metric, x.Ours, x.Theirs, x.AbsPctErr = MetricNames[m], r.Ours[m], r.Theirs[m], refset.Finite(r.PctErr[m])
			out = append(out, x)
		}
	}
	return out
}
