package plot

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
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
