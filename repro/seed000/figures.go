package seed000

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"gnnsim/internal/atomicfile"
)

// palette is Okabe-Ito: distinguishable for colour-blind readers.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255},
}

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

// figure draws series as scatter (or lines) and writes base.png.
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
	w, h := 6*vg.Inch, 4*vg.Inch
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(120))}
	dc := draw.New(c)
	dc.SetColor(color.White)
	var r vg.Path
	r.Move(dc.Min)
	r.Line(vg.Point{X: dc.Max.X, Y: dc.Min.Y})
	r.Line(dc.Max)
	r.Line(vg.Point{X: dc.Min.X, Y: dc.Max.Y})
	r.Close()
	dc.Fill(r)
	p.Draw(dc)
	if err := atomicfile.Write(base+".png", func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	}); err != nil {
		return fmt.Errorf("seed000: figure %s: %w", base, err)
	}
	return nil
}
