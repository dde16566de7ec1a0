package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"gnnsim/dataflow"
	"gnnsim/internal/atomicfile"
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
	var order []string
	counts := map[string]*[predict.NumConfigs]int64{}
	for i := range samples {
		s := &samples[i]
		c, ok := counts[s.Dataset]
		if !ok {
			c = new([predict.NumConfigs]int64)
			counts[s.Dataset] = c
			order = append(order, s.Dataset)
		}
		c[predict.ArgMin(s.Latency[:])]++
	}
	var out []OptimalShare
	for _, ds := range order {
		c := counts[ds]
		var total int64
		for _, n := range c {
			total += n
		}
		for k, n := range c {
			out = append(out, OptimalShare{Dataset: ds, Config: names[k], Cases: n, Fraction: float64(n) / float64(total)})
		}
	}
	return out
}

// WriteOptimalShares writes shares as a Parquet table.
func WriteOptimalShares(path string, shares []OptimalShare, meta map[string]string) error {
	if err := pqio.Write(path, shares, meta); err != nil {
		return fmt.Errorf("bench: %w", err)
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

// Colours of the inter-phase dataflows and of the three scheduling metrics
// (Okabe-Ito palette, readable with colour-blindness).
var (
	interColours = [3]color.Color{
		color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // seq: blue
		color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // sp: orange
		color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // pp: green
	}
	metricColours = [3]color.Color{
		color.RGBA{0x00, 0x72, 0xB2, 0xFF},
		color.RGBA{0xD5, 0x5E, 0x00, 0xFF},
		color.RGBA{0xCC, 0x79, 0xA7, 0xFF},
	}
)

// optimalPlot draws the optimal-configuration distribution of one data set:
// 24 bars in percent, coloured by inter-phase dataflow.
func optimalPlot(title string, shares []OptimalShare, small bool) (*plot.Plot, error) {
	if len(shares) != predict.NumConfigs {
		return nil, fmt.Errorf("bench: %d configuration shares, want %d", len(shares), predict.NumConfigs)
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
	p.Y.Tick.Marker = niceTicks{}
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

// niceTicks puts 3 to 6 labelled ticks at multiples of 1, 2 or 5 times a
// power of ten, with an unlabelled tick halfway between.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: fmt.Sprintf("%g", lo)}}
	}
	span := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo / step * 2); k*step/2 <= hi*(1+1e-9); k++ {
		v := k * step / 2
		if int64(k)%2 == 0 {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%g", math.Round(v/step)*step)})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// PlotOptimal writes the optimal-configuration distribution of data set ds
// (seed 002, Figure 1) to base.png and base.svg.
func PlotOptimal(base, ds string, shares []OptimalShare) error {
	sel := sharesOf(shares, ds)
	p, err := optimalPlot(fmt.Sprintf("Latency-optimal configuration distribution: %s (%d cases)", ds, totalCases(sel)), sel, false)
	if err != nil {
		return err
	}
	return savePlots(base, 9*vg.Inch, 4.5*vg.Inch, [][]*plot.Plot{{p}}, "")
}

// PlotOptimalGrid writes one panel per data set of shares (seed 002,
// Figure 5) to base.png and base.svg.
func PlotOptimalGrid(base string, shares []OptimalShare) error {
	sets := shareSets(shares)
	if len(sets) == 0 {
		return fmt.Errorf("bench: no data sets to plot")
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
	return savePlots(base, vg.Length(cols)*4*vg.Inch, vg.Length(rows)*3*vg.Inch+0.4*vg.Inch, grid,
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
func PlotPolicies(base, title string, mean []sched.Metrics) error {
	if len(mean) == 0 {
		return fmt.Errorf("bench: no policies to plot")
	}
	norm := sched.NormaliseByMax(mean)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "policy (* = not feasible in practice: uses true latencies or optimal tilings)"
	p.Y.Label.Text = "time ÷ largest time over the policies (cycles / cycles)"
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
	return savePlots(base, 9*vg.Inch, 5*vg.Inch, [][]*plot.Plot{{p}}, "")
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

// savePlots draws a grid of plots (nil cells stay empty) under an overall
// title (none if empty) and writes it to base.png (150 dpi) and base.svg.
func savePlots(base string, w, h vg.Length, grid [][]*plot.Plot, title string) error {
	for _, format := range []string{"png", "svg"} {
		var c vg.CanvasWriterTo
		switch format {
		case "png":
			c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150))}
		case "svg":
			c = vgsvg.New(w, h)
		}
		dc := draw.New(c)
		fillWhite(dc)
		if title != "" {
			sty := plot.New().Title.TextStyle
			sty.Font.Size = vg.Points(13)
			sty.XAlign = draw.XCenter
			sty.YAlign = draw.YTop
			dc.FillText(sty, vg.Point{X: w / 2, Y: h - vg.Points(6)}, title)
			dc = draw.Crop(dc, 0, 0, 0, -vg.Points(26))
		}
		rows, cols := len(grid), len(grid[0])
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(14),
			PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(10)}
		canvases := plot.Align(grid, tiles, dc)
		for j := range grid {
			for i, p := range grid[j] {
				if p != nil {
					p.Draw(canvases[j][i])
				}
			}
		}
		if err := atomicfile.Write(base+"."+format, func(wr io.Writer) error {
			_, err := c.WriteTo(wr)
			return err
		}); err != nil {
			return fmt.Errorf("bench: figure %s.%s: %w", base, format, err)
		}
	}
	return nil
}

// fillWhite paints the canvas background, so PNGs are not transparent.
func fillWhite(c draw.Canvas) {
	r := c.Rectangle
	var path vg.Path
	path.Move(r.Min)
	path.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
	path.Line(r.Max)
	path.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
	path.Close()
	c.SetColor(color.White)
	c.Fill(path)
}
