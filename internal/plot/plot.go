package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"gnnsim/internal/atomicfile"
)

// The Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2008),
// readable with every common form of colour-blindness.
var (
	Orange     color.Color = color.RGBA{0xE6, 0x9F, 0x00, 0xFF}
	SkyBlue    color.Color = color.RGBA{0x56, 0xB4, 0xE9, 0xFF}
	Green      color.Color = color.RGBA{0x00, 0x9E, 0x73, 0xFF}
	Yellow     color.Color = color.RGBA{0xF0, 0xE4, 0x42, 0xFF}
	Blue       color.Color = color.RGBA{0x00, 0x72, 0xB2, 0xFF}
	Vermillion color.Color = color.RGBA{0xD5, 0x5E, 0x00, 0xFF}
	Purple     color.Color = color.RGBA{0xCC, 0x79, 0xA7, 0xFF}
)

// NiceTicks puts 3 to 6 labelled ticks at multiples of 1, 2 or 5 times a
// power of ten, with an unlabelled tick halfway between. Labels carry as
// many digits as the step needs and no more (no "0.6000000000000001"),
// so two labels of one axis never read alike.
type NiceTicks struct{}

// Ticks implements gplot.Ticker.
func (NiceTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(hi > lo) {
		return []gplot.Tick{{Value: lo, Label: TickLabel(lo, math.Abs(lo), math.Abs(lo))}}
	}
	span := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= 6 {
			step *= m
			break
		}
	}
	mag := max(math.Abs(lo), math.Abs(hi))
	var ticks []gplot.Tick
	for k := math.Ceil(lo / step * 2); k*step/2 <= hi*(1+1e-9); k++ {
		v := k * step / 2
		if int64(k)%2 == 0 {
			ticks = append(ticks, gplot.Tick{Value: v, Label: TickLabel(math.Round(v/step)*step, step, mag)})
		} else {
			ticks = append(ticks, gplot.Tick{Value: v})
		}
	}
	return ticks
}

// TickLabel writes v, a multiple of step on an axis whose largest
// magnitude is mag, with the digits the step needs: fixed-point between
// 1e-3 and 1e6, else an exponent with one digit per decade between mag
// and step ("2.5e+08").
func TickLabel(v, step, mag float64) string {
	if v == 0 {
		return "0"
	}
	if !(step > 0) || math.IsInf(step, 0) || math.IsNaN(step) {
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	dStep := math.Floor(math.Log10(step) + 1e-9)
	if mag < 1e6 && mag >= 1e-3 {
		return strconv.FormatFloat(v, 'f', int(max(0, -dStep)), 64)
	}
	digits := int(math.Floor(math.Log10(mag)+1e-9) - dStep)
	return strconv.FormatFloat(v, 'e', max(0, min(digits, 15)), 64)
}

// LegendHeadroom raises p's Y range so the legend (at the top, where it
// must be: Legend.Top) sits above every data point of a w x h plot rather
// than over them: the data keep the bottom share of the height the legend
// leaves. Call it after adding the data and the legend entries. A log
// scale (gplot.LogScale) keeps the same share in decades.
func LegendHeadroom(p *gplot.Plot, w, h vg.Length) {
	p.Legend.Top = true
	c := draw.New(vgimg.New(w, h))
	lh := p.Legend.Rectangle(c).Size().Y
	// The data area: the plot less its title, the X axis and the padding
	// (about 70 points at gonum's default sizes).
	area := h - 70
	if p.Title.Text != "" {
		area -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	}
	if lh <= 0 || area <= lh {
		return
	}
	frac := float64(lh+vg.Points(8)) / float64(area)
	if frac >= 0.8 {
		frac = 0.8
	}
	lo, hi := p.Y.Min, p.Y.Max
	if _, log := p.Y.Scale.(gplot.LogScale); log && lo > 0 && hi > lo {
		p.Y.Max = math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))/(1-frac))
		return
	}
	if hi > lo {
		p.Y.Max = lo + (hi-lo)/(1-frac)
	}
}

// Save draws a grid of plots (nil cells stay empty) under an overall
// title (none if empty) and writes it to base.png (150 dpi) and base.svg.
func Save(base string, w, h vg.Length, grid [][]*gplot.Plot, title string) error {
	for _, format := range []string{"png", "svg"} {
		var c vg.CanvasWriterTo
		switch format {
		case "png":
			c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150))}
		case "svg":
			c = vgsvg.New(w, h)
		}
		dc := draw.New(c)
		FillWhite(dc)
		if title != "" {
			sty := gplot.New().Title.TextStyle
			sty.Font.Size = vg.Points(13)
			sty.XAlign = draw.XCenter
			sty.YAlign = draw.YTop
			dc.FillText(sty, vg.Point{X: w / 2, Y: h - vg.Points(6)}, title)
			dc = draw.Crop(dc, 0, 0, 0, -vg.Points(26))
		}
		rows, cols := len(grid), len(grid[0])
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(14),
			PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(10)}
		canvases := gplot.Align(grid, tiles, dc)
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
			return fmt.Errorf("plot: figure %s.%s: %w", base, format, err)
		}
	}
	return nil
}

// FillWhite paints the canvas background, so PNGs are not transparent.
func FillWhite(c draw.Canvas) {
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
