package maestro

// LongRow is one (reference row, metric) of 'gnnsim soc validate maestro
// --out': ours against MAESTRO's, as Score compares them.
type LongRow struct {
	Line     int64  `parquet:"line"`
	Family   string `parquet:"family"`
	Model    string `parquet:"model"`
	LayerID  string `parquet:"layer_id"`
	Dataflow string `parquet:"dataflow"`
	PEs      int64  `parquet:"pes"`
	NoCBW    int64  `parquet:"noc_bw"`
	// Status is MAESTRO's: "ok" or its error; MACsOK whether its MAC
	// count is the layer's (Score leaves the other rows out).
	Status    string  `parquet:"status"`
	MACsOK    bool    `parquet:"macs_ok"`
	Metric    string  `parquet:"metric"`
	Ours      float64 `parquet:"ours"`
	Theirs    float64 `parquet:"theirs"`
	AbsPctErr float64 `parquet:"abs_pct_err"`
	// Error is why gnnsim could not analyse the row (then one row,
	// metric empty).
	Error string `parquet:"error"`
}

// LongMetrics are the metrics of LongRows, in their order: the ones Score
// compares.
var LongMetrics = []string{"cycles", "macs", "l2_reads", "l2_writes", "l1_reads", "l1_writes", "energy_macs"}

// LongRows analyses every reference row and flattens the comparison into
// rows in reference order and LongMetrics order. A row MAESTRO rejected
// (Status not "ok") has nothing to compare: one row, metric empty, with
// gnnsim's error if it rejects the row too.
func LongRows(ref *Reference) []LongRow {
	out := make([]LongRow, 0, len(ref.Rows)*len(LongMetrics))
	for i := range ref.Rows {
		row := &ref.Rows[i]
		base := LongRow{Line: int64(row.Line), Family: row.Family, Model: row.Model, LayerID: row.LayerID,
			Dataflow: row.Dataflow, PEs: int64(row.PEs), NoCBW: int64(row.NoCBW), Status: row.Status, MACsOK: row.MACsOK}
		res, err := Analyze(row.Layer, ref.Dataflows[row.Dataflow], row.Hardware())
		if err != nil {
			base.Error = err.Error()
		}
		if err != nil || row.Status != "ok" {
			out = append(out, base)
			continue
		}
		ours, theirs := compared(&res, row)
		for m, name := range LongMetrics {
			x := base
			x.Metric, x.Ours, x.Theirs, x.AbsPctErr = name, ours[m], theirs[m], absPctErr(ours[m], theirs[m])
			out = append(out, x)
		}
	}
	return out
}
