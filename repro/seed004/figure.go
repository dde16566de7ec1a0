package seed004

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	gplot "gnnsim/internal/plot"
	"gnnsim/nas/fgnas"
)

var methodColors = map[string]color.RGBA{
	"joint":    {R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	"random":   {R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	"separate": {R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
}

// plotFigure3 draws FGNAS Figure 3: every sample of each method on the
// LUT-, FF- and DSP-latency planes (log scales), with the feasible region.
func plotFigure3(path string, cells []Cell) error {
	if len(cells) == 0 {
		return nil
	}
	lim := cells[0].Limits
	planes := []struct {
		name  string
		use   func(s fgnas.Sample) float64
		bound float64
	}{
		{"LUT", func(s fgnas.Sample) float64 { return float64(s.Use.LUT) }, float64(lim.LUT)},
		{"FF", func(s fgnas.Sample) float64 { return float64(s.Use.FF) }, float64(lim.LUT)},
		{"DSP", func(s fgnas.Sample) float64 { return float64(s.Use.DSP) }, float64(lim.DSP)},
	}
	var row []*plot.Plot
	for _, pl := range planes {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s vs latency (%s)", pl.name, lim)
		p.X.Label.Text = pl.name + " (log)"
		p.Y.Label.Text = "latency ms (log)"
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		lo := 0.5
		region, err := plotter.NewPolygon(plotter.XYs{{X: lo, Y: 0.1}, {X: pl.bound, Y: 0.1}, {X: pl.bound, Y: lim.LatencyMS}, {X: lo, Y: lim.LatencyMS}})
		if err != nil {
			return fmt.Errorf("seed004: figure 3: %w", err)
		}
		region.Color = color.RGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff}
		region.LineStyle.Width = vg.Points(0.5)
		p.Add(region)
		for _, c := range cells {
			var pts plotter.XYs
			for _, r := range c.Runs {
				for _, s := range r.Samples {
					if s.LatencyMS <= 0 {
						continue
					}
					// Log axes: a unit without DSPs sits at 0.5.
					pts = append(pts, plotter.XY{X: math.Max(pl.use(s), lo), Y: s.LatencyMS})
				}
			}
			if len(pts) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return fmt.Errorf("seed004: figure 3: %w", err)
			}
			sc.GlyphStyle.Color = methodColors[c.Method]
			sc.GlyphStyle.Radius = vg.Points(1.2)
			p.Add(sc)
			p.Legend.Add(c.Method, sc)
		}
		// The legend above the samples (one of three panels wide).
		gplot.LegendHeadroom(p, 5*vg.Inch, 4.5*vg.Inch)
		row = append(row, p)
	}
	if err := gplot.Save(strings.TrimSuffix(path, ".png"), 15*vg.Inch, 4.5*vg.Inch, [][]*plot.Plot{row}, ""); err != nil {
		return fmt.Errorf("seed004: figure 3: %w", err)
	}
	return nil
}
