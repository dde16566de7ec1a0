package seed000

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	gnplot "gnnsim/internal/plot"
)

// palette is internal/plot's Okabe-Ito colours, readable with every
// common form of colour-blindness.
var palette = []color.Color{gnplot.Blue, gnplot.Vermillion, gnplot.Green, gnplot.Purple, gnplot.Orange, gnplot.SkyBlue, color.Black}

// series is one named set of points of a figure.
type series struct {
	name  string
	xs    []float64
	ys    []float64
	lines bool // connect the points (sorted by the caller)
	// paper marks the paper's published values: black crosses, drawn
	// over the rest.
	paper bool
}

// figure draws series as scatter (or lines) and writes base.png and
// base.svg.
func figure(base, title, xlabel, ylabel string, ss []series) error {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, ylabel
	p.Legend.Top = true
	ci := 0
	for _, s := range ss {
		if len(s.xs) == 0 {
			continue
		}
		pts := make(plotter.XYs, len(s.xs))
		for j := range s.xs {
			pts[j].X, pts[j].Y = s.xs[j], s.ys[j]
		}
		if s.paper {
			continue
		}
		c := palette[ci%len(palette)]
		ci++
		if s.lines {
			l, sc, err := plotter.NewLinePoints(pts)
			if err != nil {
				return fmt.Errorf("seed000: figure %s: %w", base, err)
			}
			l.Color, sc.Color = c, c
			sc.Radius = vg.Points(2)
			p.Add(l, sc)
			p.Legend.Add(s.name, l, sc)
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("seed000: figure %s: %w", base, err)
		}
		sc.Color = c
		sc.Radius = vg.Points(1.6)
		sc.Shape = draw.CircleGlyph{}
		p.Add(sc)
		p.Legend.Add(s.name, sc)
	}
	for i, s := range ss { // the paper's values on top
		if !s.paper || len(s.xs) == 0 {
			continue
		}
		pts := make(plotter.XYs, len(s.xs))
		for j := range s.xs {
			pts[j].X, pts[j].Y = s.xs[j], s.ys[j]
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("seed000: figure %s: %w", base, err)
		}
		sc.Color = color.Black
		sc.Radius = vg.Points(4)
		sc.Shape = []draw.GlyphDrawer{draw.CrossGlyph{}, draw.PlusGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}[i%4]
		p.Add(sc)
		p.Legend.Add(s.name, sc)
	}
	// The legend above the data, round ticks with no float noise, PNG and
	// SVG: the shared helpers of internal/plot.
	p.X.Tick.Marker, p.Y.Tick.Marker = gnplot.NiceTicks{}, gnplot.NiceTicks{}
	w, h := 6*vg.Inch, 4*vg.Inch
	gnplot.LegendHeadroom(p, w, h)
	if err := gnplot.Save(base, w, h, [][]*plot.Plot{{p}}, ""); err != nil {
		return fmt.Errorf("seed000: %w", err)
	}
	return nil
}
