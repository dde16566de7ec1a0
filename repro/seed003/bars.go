package seed003

import (
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"gnnsim/internal/plot"
)

// barSet is one series of a grouped bar chart.
type barSet struct {
	name string
	vals []float64
	c    color.Color
}

// paperMark is a published value drawn as a dashed horizontal line.
type paperMark struct {
	label string
	y     float64
}

// bars draws grouped bars over labels, with the paper's values as dashed
// lines.
func bars(title, yl string, labels []string, sets []barSet, marks []paperMark) (*gplot.Plot, error) {
	p := gplot.New()
	p.Title.Text, p.Y.Label.Text = title, yl
	p.Y.Tick.Marker = plot.NiceTicks{}
	p.Legend.Top = true
	w := vg.Points(18)
	lo, hi := 0.0, 0.0
	for i, s := range sets {
		b, err := plotter.NewBarChart(plotter.Values(s.vals), w)
		if err != nil {
			return nil, err
		}
		b.Color, b.LineStyle.Width = s.c, 0
		b.Offset = vg.Length(2*i-len(sets)+1) * w / 2
		p.Add(b)
		p.Legend.Add(s.name, b)
		for _, v := range s.vals {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	mlo, mhi := addMarks(p, marks)
	lo, hi = min(lo, mlo), max(hi, mhi)
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.7, float64(len(labels))-0.3
	p.Y.Min, p.Y.Max = lo-0.05*(hi-lo), hi+0.45*(hi-lo) // room for the legend
	return p, nil
}

// lines draws y against x per series, points joined, with the paper's
// values as dashed lines.
func lines(title, xl, yl string, sets []ser, marks []paperMark) (*gplot.Plot, error) {
	p := gplot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xl, yl
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.NiceTicks{}, plot.NiceTicks{}
	p.Legend.Top = true
	for _, s := range sets {
		pts := make(plotter.XYs, len(s.xs))
		for i := range s.xs {
			pts[i].X, pts[i].Y = s.xs[i], s.ys[i]
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		l.Color, sc.Color = s.c, s.c
		sc.Shape = draw.CircleGlyph{}
		p.Add(l, sc)
		p.Legend.Add(s.name, l, sc)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range sets {
		for _, y := range s.ys {
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	mlo, mhi := addMarks(p, marks)
	lo, hi = min(lo, mlo), max(hi, mhi)
	if hi > lo { // every series and mark in view, room for the legend
		p.Y.Min, p.Y.Max = lo-0.05*(hi-lo), hi+0.3*(hi-lo)
	}
	return p, nil
}

// addMarks draws the paper's values as dashed horizontal lines with their
// legend entries and returns their range (+Inf, -Inf for none).
func addMarks(p *gplot.Plot, marks []paperMark) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, m := range marks {
		y := m.y
		f := plotter.NewFunction(func(float64) float64 { return y })
		f.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		f.Width = vg.Points(1.2)
		f.Color = []color.Color{color.Black, plot.Vermillion, plot.Blue}[i%3]
		p.Add(f)
		p.Legend.Add(m.label, f)
		lo, hi = min(lo, y), max(hi, y)
	}
	return lo, hi
}
