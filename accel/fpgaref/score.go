package fpgaref

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"

	"gnnsim/accel/fpga"
	"gnnsim/hw"
	"gnnsim/workload"
)

// The compared metrics, in report order.
const (
	Cycles = iota
	LUT
	FF
	DSP
	NumMetrics
)

// MetricNames are the metrics' names (the CSV's column names).
var MetricNames = [NumMetrics]string{"cycles", "LUT", "FF", "DSP"}

// Result is one row's comparison.
type Result struct {
	Row    *Row
	Ours   [NumMetrics]int64
	Theirs [NumMetrics]int64
	// PctErr is |ours - theirs| / theirs x 100 per metric.
	PctErr [NumMetrics]float64
	// LayersExact says every per-layer value the row carries (cycles,
	// resources, output format) agrees too.
	LayersExact bool
	// Err is why the row could not be priced (nil when it was).
	Err error
}

// Exact says every metric agrees.
func (r *Result) Exact() bool { return r.Err == nil && r.Ours == r.Theirs }

// MaxErr is the row's largest error (+Inf when it could not be priced).
func (r *Result) MaxErr() float64 {
	if r.Err != nil {
		return math.Inf(1)
	}
	return slices.Max(r.PctErr[:])
}

// Stats summarise one metric over the scored rows.
type Stats struct {
	Name        string
	Rows, Exact int
	Median, P90 float64
	MaxErr      float64
	ExactShare  float64
	errs        []float64
}

// Report is the score of a reference set.
type Report struct {
	// Rows is every row; RefErrors those their model failed on (not
	// scored); Failures the rows we could not price.
	Rows, RefErrors int
	Failures        []*Result
	Metrics         [NumMetrics]Stats
	// ExactAll counts the scored rows exact on every metric, LayersExact
	// those whose per-layer values agree as well.
	ExactAll, LayersExact, Scored int
	// Median and P90 pool the errors of every (row, metric).
	Median, P90 float64
	Results     []Result
}

// Score prices every row with the FGNASCode model and compares.
func Score(ref *Reference) *Report {
	rep := &Report{Rows: len(ref.Rows)}
	for i := range rep.Metrics {
		rep.Metrics[i].Name = MetricNames[i]
	}
	var pooled []float64
	for i := range ref.Rows {
		row := &ref.Rows[i]
		if row.Error != "" {
			rep.RefErrors++
			continue
		}
		res := scoreRow(row)
		rep.Results = append(rep.Results, res)
		if res.Err != nil {
			rep.Failures = append(rep.Failures, &rep.Results[len(rep.Results)-1])
			continue
		}
		rep.Scored++
		if res.Exact() {
			rep.ExactAll++
			if res.LayersExact {
				rep.LayersExact++
			}
		}
		for m := range NumMetrics {
			st := &rep.Metrics[m]
			st.Rows++
			if res.Ours[m] == res.Theirs[m] {
				st.Exact++
			}
			st.errs = append(st.errs, res.PctErr[m])
			pooled = append(pooled, res.PctErr[m])
		}
	}
	for m := range rep.Metrics {
		st := &rep.Metrics[m]
		st.Median, st.P90, st.MaxErr = quantiles(st.errs)
		if st.Rows > 0 {
			st.ExactShare = float64(st.Exact) / float64(st.Rows)
		}
	}
	rep.Median, rep.P90, _ = quantiles(pooled)
	return rep
}

// quantiles returns the median, 90th percentile and maximum of x (sorted
// in place; gonum's LinInterp).
func quantiles(x []float64) (med, p90, mx float64) {
	if len(x) == 0 {
		return 0, 0, 0
	}
	sort.Float64s(x)
	return stat.Quantile(0.5, stat.LinInterp, x, nil), stat.Quantile(0.9, stat.LinInterp, x, nil), x[len(x)-1]
}

func pctErr(ours, ref int64) float64 {
	if ours == ref {
		return 0
	}
	if ref == 0 {
		return math.Inf(1)
	}
	return math.Abs(float64(ours-ref)) / float64(ref) * 100
}

// Price returns the row's design priced by the FGNASCode model on the
// row's graph.
func Price(row *Row) (fpga.Report, error) {
	u, err := fpga.New(row.Design, fpga.Options{Model: fpga.FGNASCode})
	if err != nil {
		return fpga.Report{}, err
	}
	w := hw.BlockWork(row.Design.Block(workload.Size{Nodes: row.Nodes, NNZ: row.Edges}, row.Features))
	return u.Evaluate(w)
}

func scoreRow(row *Row) Result {
	res := Result{Row: row, Theirs: [NumMetrics]int64{row.Cycles, row.LUT, row.FF, row.DSP}}
	rep, err := Price(row)
	if err != nil {
		res.Err = fmt.Errorf("fpgaref: line %d (design %s, %s): %w", row.Line, row.DesignID, row.Dataset, err)
		return res
	}
	res.Ours = [NumMetrics]int64{rep.SummedCycles, rep.Resources.LUT, rep.Resources.FF, rep.Resources.DSP}
	for m := range NumMetrics {
		res.PctErr[m] = pctErr(res.Ours[m], res.Theirs[m])
	}
	res.LayersExact = true
	for i, lo := range row.Layers {
		if !lo.Known {
			continue
		}
		l := rep.Layers[i]
		if l.Cycles != lo.Cycles || l.Use.LUT != lo.LUT || l.Use.FF != lo.FF || l.Use.DSP != lo.DSP || l.OutBits != lo.OutBits {
			res.LayersExact = false
		}
	}
	return res
}

// Worst returns the n results with the largest error (failures first),
// ties in file order.
func (r *Report) Worst(n int) []*Result {
	idx := make([]*Result, len(r.Results))
	for i := range r.Results {
		idx[i] = &r.Results[i]
	}
	slices.SortStableFunc(idx, func(a, b *Result) int {
		ea, eb := a.MaxErr(), b.MaxErr()
		switch {
		case ea > eb:
			return -1
		case ea < eb:
			return 1
		}
		return 0
	})
	return idx[:min(n, len(idx))]
}

// LastLine is the summary line in validate omega's style.
func (r *Report) LastLine() string {
	share := 0.0
	if r.Scored > 0 {
		share = float64(r.ExactAll) / float64(r.Scored)
	}
	return fmt.Sprintf("exact_share=%.4f median_abs_pct_err=%.4f p90_abs_pct_err=%.4f rows=%d", share, r.Median, r.P90, r.Rows)
}

// Write prints the per-metric table, the per-layer agreement and the
// summary line.
func (r *Report) Write(w io.Writer) error {
	fmt.Fprintf(w, "%-7s %6s %8s %12s %12s %12s\n", "metric", "rows", "exact", "median_%err", "p90_%err", "max_%err")
	for _, st := range r.Metrics {
		fmt.Fprintf(w, "%-7s %6d %7.2f%% %12.4f %12.4f %12.4f\n", st.Name, st.Rows, 100*st.ExactShare, st.Median, st.P90, st.MaxErr)
	}
	fmt.Fprintf(w, "rows exact on every metric: %d of %d; with every per-layer value and output format too: %d\n", r.ExactAll, r.Scored, r.LayersExact)
	if r.RefErrors > 0 {
		fmt.Fprintf(w, "%d rows left out: the reference model failed on them (error column)\n", r.RefErrors)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "not priced: %v\n", f.Err)
	}
	_, err := fmt.Fprintln(w, r.LastLine())
	return err
}

// WriteWorst prints one line per result: the row, and ours/theirs per
// metric.
func WriteWorst(w io.Writer, rs []*Result) error {
	for _, r := range rs {
		if r.Err != nil {
			if _, err := fmt.Fprintf(w, "line %d: %v\n", r.Row.Line, r.Err); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(w, "line %d design %s %s: max %.4f%%", r.Row.Line, r.Row.DesignID, r.Row.Dataset, r.MaxErr())
		for m := range NumMetrics {
			fmt.Fprintf(w, "  %s %d/%d", MetricNames[m], r.Ours[m], r.Theirs[m])
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON prints a JSON array: per result the row's identity, ours,
// theirs and the error of every metric.
func WriteJSON(w io.Writer, rs []*Result) error {
	type metric struct {
		Ours   int64    `json:"ours"`
		Theirs int64    `json:"theirs"`
		PctErr *float64 `json:"abs_pct_err"`
	}
	type row struct {
		Line        int               `json:"line"`
		DesignID    string            `json:"design_id"`
		Source      string            `json:"source"`
		Dataset     string            `json:"dataset"`
		Exact       bool              `json:"exact"`
		LayersExact bool              `json:"layers_exact"`
		Metrics     map[string]metric `json:"metrics,omitempty"`
		Error       string            `json:"error,omitempty"`
	}
	out := make([]row, 0, len(rs))
	for _, r := range rs {
		o := row{Line: r.Row.Line, DesignID: r.Row.DesignID, Source: r.Row.Source, Dataset: r.Row.Dataset}
		if r.Err != nil {
			o.Error = r.Err.Error()
		} else {
			o.Exact, o.LayersExact = r.Exact(), r.LayersExact
			o.Metrics = map[string]metric{}
			for m := range NumMetrics {
				var e *float64
				if v := r.PctErr[m]; !math.IsInf(v, 0) {
					e = &v
				}
				o.Metrics[MetricNames[m]] = metric{Ours: r.Ours[m], Theirs: r.Theirs[m], PctErr: e}
			}
		}
		out = append(out, o)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
