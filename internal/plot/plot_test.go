package plot

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Labelled ticks fall on round numbers (1, 2 or 5 times a power of ten),
// 3 to 6 of them, covering the range; every other tick is unlabelled.
func TestNiceTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 1}, {0, 7.3}, {0, 45}, {-3, 12}, {0, 1e6}, {0.001, 0.0042}} {
		ticks := NiceTicks{}.Ticks(r[0], r[1])
		labelled := 0
		for _, tk := range ticks {
			if tk.Value < r[0]-1e-12 || tk.Value > r[1]*(1+1e-9)+1e-12 {
				t.Errorf("%v: tick %v outside the range", r, tk.Value)
			}
			if tk.Label == "" {
				continue
			}
			labelled++
			if tk.Value != 0 {
				m := math.Abs(tk.Value) / math.Pow(10, math.Floor(math.Log10(math.Abs(tk.Value))))
				if d := math.Abs(m - math.Round(m)); d > 1e-9 {
					t.Errorf("%v: labelled tick %v is not a round number", r, tk.Value)
				}
			}
		}
		if labelled < 2 || labelled > 7 {
			t.Errorf("%v: %d labelled ticks %v", r, labelled, ticks)
		}
	}
	if ticks := (NiceTicks{}).Ticks(3, 3); len(ticks) != 1 {
		t.Errorf("empty range: %v", ticks)
	}
}

// Labels are short and distinct: no float noise ("0.6000000000000001"),
// no two alike ("2e+08" twice), and they read back as their tick's value.
func TestNiceTickLabels(t *testing.T) {
	for _, r := range [][2]float64{{0, 1}, {0.1, 0.9}, {0.55, 0.95}, {1.4e8, 2.3e8}, {1.5e8, 2.6e8}, {0, 2.5e8}, {-0.3, 0.3}, {1e-5, 4e-5}, {980, 1020}, {0, 100}} {
		seen := map[string]bool{}
		for _, tk := range (NiceTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			if seen[tk.Label] {
				t.Errorf("%v: label %q twice", r, tk.Label)
			}
			seen[tk.Label] = true
			if len(tk.Label) > 8 {
				t.Errorf("%v: label %q too long", r, tk.Label)
			}
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-9*math.Max(1, math.Abs(tk.Value)) {
				t.Errorf("%v: label %q for tick %v (%v)", r, tk.Label, tk.Value, err)
			}
		}
	}
	for _, c := range []struct {
		v, step, mag float64
		want         string
	}{{0.6000000000000001, 0.2, 1, "0.6"}, {400, 100, 500, "400"}, {2e8, 5e7, 2.5e8, "2.0e+08"}, {2.5e8, 5e7, 2.5e8, "2.5e+08"}, {0, 1, 1, "0"}} {
		if got := TickLabel(c.v, c.step, c.mag); got != c.want {
			t.Errorf("TickLabel(%v, %v, %v) = %q, want %q", c.v, c.step, c.mag, got, c.want)
		}
	}
}

// LegendHeadroom leaves the legend's share of the height free above the
// data, on linear and log axes.
func TestLegendHeadroom(t *testing.T) {
	for _, logY := range []bool{false, true} {
		p := gplot.New()
		sc, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 100}})
		if err != nil {
			t.Fatal(err)
		}
		p.Add(sc)
		for _, n := range []string{"a", "b", "c", "d"} {
			p.Legend.Add(n, sc)
		}
		if logY {
			p.Y.Scale = gplot.LogScale{}
		}
		top := p.Y.Max
		LegendHeadroom(p, 6*vg.Inch, 4*vg.Inch)
		if !(p.Y.Max > top) || !p.Legend.Top {
			t.Errorf("log %v: Y max %v -> %v, legend top %v", logY, top, p.Y.Max, p.Legend.Top)
		}
	}
}

func TestSave(t *testing.T) {
	p := gplot.New()
	bars, err := plotter.NewBarChart(plotter.Values{1, 3, 2}, vg.Points(10))
	if err != nil {
		t.Fatal(err)
	}
	bars.Color = Blue
	p.Add(bars)
	base := filepath.Join(t.TempDir(), "fig")
	if err := Save(base, 4*vg.Inch, 3*vg.Inch, [][]*gplot.Plot{{p, nil}}, "a title"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// 4 x 3 inches at 150 dpi, on white.
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() != 450 {
		t.Errorf("PNG is %v, want 600 x 450", b)
	}
	if r, g, b, a := img.At(1, 1).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff || a != 0xffff {
		t.Errorf("corner pixel %x %x %x %x, want opaque white", r, g, b, a)
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("a title")) {
		t.Errorf("SVG: %v", err)
	}
	if err := Save(filepath.Join(t.TempDir(), "no", "dir", "fig"), vg.Inch, vg.Inch, [][]*gplot.Plot{{p}}, ""); err == nil {
		t.Error("saving into a missing directory succeeded")
	}
}
