package seed002

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"gnnsim/dataflow"
	gnplot "gnnsim/internal/plot"
	"gnnsim/internal/pqio"
	"gnnsim/predict"
	"gnnsim/sched"
)

// This file draws the figures of the seed 002 reproduction with
// gonum.org/v1/plot: the distribution of latency-optimal configurations
// (seed 002, Figures 1 and 5) and the per-policy scheduling metrics
// (Figures 6 and 7). Every figure is written as PNG and SVG.

// OptimalShare is how often one configuration is the fastest of the 24 for
// the cases of a data set: a row of optimal_configs.parquet.
type OptimalShare struct {
	Dataset  string  `parquet:"dataset"`
	Config   string  `parquet:"config"`
	Cases    int64   `parquet:"cases"`    // cases for which it is fastest
	Fraction float64 `parquet:"fraction"` // of the set's cases
}

// OptimalShares counts, per data set (in order of first appearance), how
// often each configuration has the smallest true latency, ties going to the
// first in predict.ConfigNames order (as BestCounts does). Every data set
// gets all 24 configurations, zeros included, in that order.
func OptimalShares(samples []predict.Sample) []OptimalShare {
	names := predict.ConfigNames()
	var out []OptimalShare
	for _, grp := range predict.GroupByDataset(len(samples), func(i int) string { return samples[i].Dataset }) {
		var c [predict.NumConfigs]int64
		for _, i := range grp.Samples {
			c[predict.ArgMin(samples[i].Latency[:])]++
		}
		total := int64(len(grp.Samples))
		for k, n := range c {
			out = append(out, OptimalShare{Dataset: grp.Name, Config: names[k], Cases: n, Fraction: float64(n) / float64(total)})
		}
	}
	return out
}

// WriteOptimalShares writes shares as a Parquet table.
func WriteOptimalShares(path string, shares []OptimalShare, meta map[string]string) error {
	if err := pqio.Write(path, shares, meta); err != nil {
		return fmt.Errorf("seed002: %w", err)
	}
	return nil
}

// shareSets returns the data sets of shares in order of first appearance.
func shareSets(shares []OptimalShare) []string {
	var sets []string
	for _, s := range shares {
		if !slices.Contains(sets, s.Dataset) {
			sets = append(sets, s.Dataset)
		}
	}
	return sets
}

// sharesOf returns the 24 shares of data set ds, in configuration order.
func sharesOf(shares []OptimalShare, ds string) []OptimalShare {
	var out []OptimalShare
	for _, s := range shares {
		if s.Dataset == ds {
			out = append(out, s)
		}
	}
	return out
}

// Colours of the inter-phase dataflows (seq, sp, pp) and of the three
// scheduling metrics.
var (
	interColours  = [3]color.Color{gnplot.Blue, gnplot.Orange, gnplot.Green}
	metricColours = [3]color.Color{gnplot.Blue, gnplot.Vermillion, gnplot.Purple}
)

// optimalPlot draws the optimal-configuration distribution of one data set:
// 24 bars in percent, coloured by inter-phase dataflow.
func optimalPlot(title string, shares []OptimalShare, small bool) (*plot.Plot, error) {
	if len(shares) != predict.NumConfigs {
		return nil, fmt.Errorf("seed002: %d configuration shares, want %d", len(shares), predict.NumConfigs)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "configuration (inter-phase dataflow - tiling)"
	p.Y.Label.Text = "cases where it is fastest (%)"
	width := vg.Points(11)
	if small {
		width = vg.Points(5)
		p.Title.TextStyle.Font.Size = vg.Points(10)
		p.X.Label.TextStyle.Font.Size = vg.Points(8)
		p.Y.Label.TextStyle.Font.Size = vg.Points(8)
		p.Y.Tick.Label.Font.Size = vg.Points(7)
		p.X.Tick.Label.Font.Size = vg.Points(6)
	}
	ymax := 0.0
	for k, inter := range dataflow.Inters {
		vals := make(plotter.Values, len(dataflow.TilingNames))
		for t := range vals {
			vals[t] = 100 * shares[k*len(dataflow.TilingNames)+t].Fraction
			ymax = max(ymax, vals[t])
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bc.XMin = float64(k * len(dataflow.TilingNames))
		bc.Color = interColours[k]
		bc.LineStyle.Width = 0
		p.Add(bc)
		p.Legend.Add(inter.String(), bc)
	}
	names := make([]string, len(shares))
	for i, s := range shares {
		names[i] = s.Config
	}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Y.Min = 0
	p.Y.Max = max(10, ymax*1.12)
	p.Y.Tick.Marker = gnplot.NiceTicks{}
	p.Legend.Top = true
	p.Legend.Left = false
	if small {
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		p.Legend.ThumbnailWidth = vg.Points(8)
	} else {
		// Print the share above every non-empty bar.
		var labels plotter.XYLabels
		for i, s := range shares {
			if s.Cases > 0 {
				labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: 100 * s.Fraction})
				labels.Labels = append(labels.Labels, fmt.Sprintf("%.1f", 100*s.Fraction))
			}
		}
		if len(labels.XYs) > 0 {
			lp, err := plotter.NewLabels(labels)
			if err != nil {
				return nil, err
			}
			for i := range lp.TextStyle {
				lp.TextStyle[i].Font.Size = vg.Points(8)
				lp.TextStyle[i].XAlign = draw.XCenter
			}
			lp.Offset = vg.Point{Y: vg.Points(2)}
			p.Add(lp)
		}
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// PlotOptimal writes the optimal-configuration distribution of data set ds
// (seed 002, Figure 1) to base.png and base.svg.
func PlotOptimal(base, ds string, shares []OptimalShare) error {
	sel := sharesOf(shares, ds)
	p, err := optimalPlot(fmt.Sprintf("Latency-optimal configuration distribution: %s (%d cases)", ds, totalCases(sel)), sel, false)
	if err != nil {
		return err
	}
	return gnplot.Save(base, 9*vg.Inch, 4.5*vg.Inch, [][]*plot.Plot{{p}}, "")
}

// PlotOptimalGrid writes one panel per data set of shares (seed 002,
// Figure 5) to base.png and base.svg.
func PlotOptimalGrid(base string, shares []OptimalShare) error {
	sets := shareSets(shares)
	if len(sets) == 0 {
		return fmt.Errorf("seed002: no data sets to plot")
	}
	cols := min(3, len(sets))
	rows := (len(sets) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, ds := range sets {
		sel := sharesOf(shares, ds)
		p, err := optimalPlot(fmt.Sprintf("%s (%d cases)", ds, totalCases(sel)), sel, true)
		if err != nil {
			return err
		}
		grid[i/cols][i%cols] = p
	}
	return gnplot.Save(base, vg.Length(cols)*4*vg.Inch, vg.Length(rows)*3*vg.Inch+0.4*vg.Inch, grid,
		"Frequency of latency-optimal configurations per data set (share of each set's cases)")
}

func totalCases(shares []OptimalShare) int64 {
	var n int64
	for _, s := range shares {
		n += s.Cases
	}
	return n
}

// policyMetrics are the metrics of Figures 6 and 7, in bar order.
var policyMetrics = []struct {
	name, label string
}{{"completion", "mean completion time"}, {"turnaround", "mean turnaround time"}, {"execution", "mean execution time"}}

// PlotPolicies writes the per-policy bars of one scenario (seed 002,
// Figures 6 and 7) to base.png and base.svg: mean completion, turnaround
// and execution time of each policy, each metric divided by its largest
// value over the policies (sched.NormaliseByMax), with the ratio printed
// above each bar. mean holds averaged metrics of one scenario.
// The times are normalised by the largest over the policies, so the y
// axis is a ratio of times in unit ("cycles", "ps"); the x axis explains
// the "*" of infeasible policies only when a bar carries one.
func PlotPolicies(base, title, unit string, mean []sched.Metrics) error {
	if len(mean) == 0 {
		return fmt.Errorf("seed002: no policies to plot")
	}
	norm := sched.NormaliseByMax(mean)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = policyAxes(unit, norm)
	w := vg.Points(16)
	names := make([]string, len(norm))
	for i, m := range norm {
		names[i] = m.Policy
		if !m.Feasible {
			names[i] += " *"
		}
	}
	var labels plotter.XYLabels
	for k, pm := range policyMetrics {
		vals := make(plotter.Values, len(norm))
		for i := range norm {
			vals[i] = metricValue(&norm[i], pm.name)
		}
		bc, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bc.Color = metricColours[k]
		bc.LineStyle.Width = 0
		bc.Offset = vg.Length(k-1) * w
		p.Add(bc)
		p.Legend.Add(pm.label, bc)
		for i, v := range vals {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(i) + float64(k-1)*0.22, Y: v})
			labels.Labels = append(labels.Labels, ratioLabel(v))
		}
	}
	lp, err := plotter.NewLabels(labels)
	if err != nil {
		return err
	}
	for i := range lp.TextStyle {
		lp.TextStyle[i].Font.Size = vg.Points(7)
		lp.TextStyle[i].Rotation = math.Pi / 2
		lp.TextStyle[i].XAlign = draw.XLeft
		lp.TextStyle[i].YAlign = draw.YCenter
	}
	lp.Offset = vg.Point{Y: vg.Points(2)}
	p.Add(lp)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min, p.Y.Max = 0, 1.3
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.2, Label: "0.2"}, {Value: 0.4, Label: "0.4"},
		{Value: 0.6, Label: "0.6"}, {Value: 0.8, Label: "0.8"}, {Value: 1, Label: "1"}})
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return gnplot.Save(base, 9*vg.Inch, 5*vg.Inch, [][]*plot.Plot{{p}}, "")
}

// policyAxes returns the axis labels of PlotPolicies.
func policyAxes(unit string, mean []sched.Metrics) (x, y string) {
	x = "policy"
	for _, m := range mean {
		if !m.Feasible {
			x = "policy (* = not feasible in practice: uses true latencies or optimal tilings)"
			break
		}
	}
	return x, fmt.Sprintf("time ÷ largest time over the policies (%s / %s)", unit, unit)
}

// ratioLabel prints a normalised value with enough digits to tell tiny
// bars apart.
func ratioLabel(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 0.1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.1e", v)
	}
}

// sizeColours are the line colours of the six G values of the spread study.
var sizeColours = []color.Color{gnplot.Blue, gnplot.Orange, gnplot.Green, gnplot.Vermillion, gnplot.Purple, gnplot.SkyBlue}

// seedLine is a dashed black horizontal line at y across [x0, x1], labelled
// in the legend: how a figure marks the seed's published value.
func seedLine(p *plot.Plot, x0, x1, y float64, label string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return err
	}
	l.Color = color.Black
	l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// PlotSpread writes the (F, G) spread study of data set ds (the single
// settings of rows) to base.png and base.svg: the optimal configuration's
// improvement over a random one and over the best fixed one against F, one
// line per G, with seed 002's Table 3 figures for the set marked.
func PlotSpread(base, ds string, rows []SpreadRow, seedRandom, seedBest float64) error {
	var sel []SpreadRow
	for _, r := range rows {
		if r.Dataset == ds && !r.Range {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		return fmt.Errorf("seed002: no spread rows of %s", ds)
	}
	ticks := make([]plot.Tick, len(SpreadSizes))
	for i, f := range SpreadSizes {
		ticks[i] = plot.Tick{Value: float64(f), Label: fmt.Sprint(f)}
	}
	x0, x1 := float64(SpreadSizes[0]), float64(SpreadSizes[len(SpreadSizes)-1])
	var yticks []plot.Tick
	for v := 0; v <= 100; v += 20 {
		yticks = append(yticks, plot.Tick{Value: float64(v), Label: fmt.Sprint(v)})
	}
	// legendTop: where the legend clears the lines (the data sit low over
	// best fixed, in the middle over random).
	panel := func(title, ylabel string, value func(*SpreadRow) float64, seedV float64, legendTop bool) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "input features F (per node; log scale)"
		p.Y.Label.Text = ylabel
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = x0/1.1, x1*1.1
		p.Y.Min, p.Y.Max = 0, 100
		p.Y.Tick.Marker = plot.ConstantTicks(yticks)
		for gi, g := range SpreadSizes {
			var xys plotter.XYs
			for i := range sel {
				if int(sel[i].G) == g {
					xys = append(xys, plotter.XY{X: float64(sel[i].F), Y: value(&sel[i])})
				}
			}
			if len(xys) == 0 {
				continue
			}
			l, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			l.Color, pts.Color = sizeColours[gi%len(sizeColours)], sizeColours[gi%len(sizeColours)]
			p.Add(l, pts)
			p.Legend.Add(fmt.Sprintf("G = %d", g), l, pts)
		}
		if err := seedLine(p, x0, x1, seedV, fmt.Sprintf("seed 002, Table 3: %.2f %%", seedV)); err != nil {
			return nil, err
		}
		p.Legend.Top = legendTop
		p.Legend.Left = !legendTop
		p.Legend.TextStyle.Font.Size = vg.Points(8)
		p.Add(plotter.NewGrid())
		return p, nil
	}
	a, err := panel("over a random configuration", "improvement, % of total latency",
		func(r *SpreadRow) float64 { return r.ImprovementVsRandom }, seedRandom, false)
	if err != nil {
		return err
	}
	b, err := panel("over the best fixed configuration", "improvement, % of total latency",
		func(r *SpreadRow) float64 { return r.ImprovementVsBestFixed }, seedBest, true)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s, %d graphs: improvement of the optimal configuration per graph (simulated cycles) by feature sizes F x G", ds, sel[0].Graphs)
	return gnplot.Save(base, 12*vg.Inch, 5*vg.Inch, [][]*plot.Plot{{a, b}}, title)
}

// ticks125 are labelled ticks at 1, 2, 5 x 10^k within [lo, hi], for log
// axes that span less than a decade or two.
func ticks125(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for d := math.Pow(10, math.Floor(math.Log10(lo))); d <= hi; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if v := m * d; v >= lo && v <= hi {
				out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return out
}

// PlotStudy writes the scheduling study's load x job mix grid to base.png
// and base.svg: SJF-Predicted's scenario-1 speed-ups over the best feasible
// baseline against the load, one line per job mix, one panel per metric
// (log scale), with seed 002's speed-ups marked.
func PlotStudy(base string, rows []StudyRow) error {
	var mixes []string
	for _, r := range rows {
		if r.Factor == "load x mix" && !slices.Contains(mixes, r.Mix) {
			mixes = append(mixes, r.Mix)
		}
	}
	if len(mixes) == 0 {
		return fmt.Errorf("seed002: no load x mix rows to plot")
	}
	metrics := []struct {
		name  string
		value func(*StudyRow) float64
		seed  float64
		label string
	}{
		{"mean completion time", func(r *StudyRow) float64 { return r.Completion }, SeedCompletionSpeedup, "seed 002: 3.17x"},
		{"mean execution time", func(r *StudyRow) float64 { return r.Execution }, SeedExecutionSpeedup, "seed 002: 6.26x"},
		{"mean turnaround time", func(r *StudyRow) float64 { return r.Turnaround }, SeedTurnaroundSpeedup, "seed 002: > 1000x"},
	}
	var panels []*plot.Plot
	for _, m := range metrics {
		p := plot.New()
		p.Title.Text = m.name
		p.X.Label.Text = "offered load at the best tilings (fraction of 3 machines' capacity)"
		p.Y.Label.Text = "speed-up of SJF-Predicted (x, log scale)"
		p.Y.Scale = plot.LogScale{}
		lo, hi := m.seed, m.seed
		for mi, mix := range mixes {
			var xys plotter.XYs
			for i := range rows {
				if r := &rows[i]; r.Factor == "load x mix" && r.Mix == mix {
					v := m.value(r)
					xys = append(xys, plotter.XY{X: r.Utilisation, Y: v})
					lo, hi = min(lo, v), max(hi, v)
				}
			}
			l, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return err
			}
			l.Color, pts.Color = sizeColours[mi%len(sizeColours)], sizeColours[mi%len(sizeColours)]
			p.Add(l, pts)
			p.Legend.Add(mix, l, pts)
		}
		x0, x1 := StudyLoads[0], StudyLoads[len(StudyLoads)-1]
		if err := seedLine(p, x0, x1, m.seed, m.label); err != nil {
			return err
		}
		p.X.Min, p.X.Max = x0-0.03, x1+0.03
		p.Y.Min, p.Y.Max = max(0.5, lo/1.5), hi*3
		p.Y.Tick.Marker = plot.ConstantTicks(ticks125(p.Y.Min, p.Y.Max))
		p.Legend.Top = true
		p.Legend.Left = true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		p.Add(plotter.NewGrid())
		panels = append(panels, p)
	}
	return gnplot.Save(base, 15*vg.Inch, 5*vg.Inch, [][]*plot.Plot{panels},
		"Scheduling study, scenario 1: SJF-Predicted over the best feasible baseline by load and job mix (each job once, 2,312-cycle charge)")
}
