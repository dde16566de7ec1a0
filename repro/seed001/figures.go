package seed001

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"gnnsim/internal/atomicfile"
)

// The figures: PNG and SVG, gonum/plot.

var palette = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
}

func save(p *plot.Plot, out, name string, w, h vg.Length) error {
	for _, ext := range []string{"png", "svg"} {
		wt, err := p.WriterTo(w, h, ext)
		if err != nil {
			return fmt.Errorf("seed001: %s: %w", name, err)
		}
		if err := atomicfile.Write(filepath.Join(out, name+"."+ext), func(f io.Writer) error {
			_, err := wt.WriteTo(f)
			return err
		}); err != nil {
			return fmt.Errorf("seed001: %s: %w", name, err)
		}
	}
	return nil
}

func scatter(xys plotter.XYs, c color.Color, shape draw.GlyphDrawer, r vg.Length) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Color = c
	s.GlyphStyle.Shape = shape
	s.GlyphStyle.Radius = r
	return s, nil
}

func writeFigures(rep *Report) error {
	if rep.Fig8Only {
		return figure8(rep)
	}
	if err := figure1(rep); err != nil {
		return err
	}
	if err := figure7(rep); err != nil {
		return err
	}
	return figure8(rep)
}

func figure1(rep *Report) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Fig. 1: %d random GNN x accelerator pairs (Cora)", len(rep.Fig1))
	p.X.Label.Text = "throughput (inferences/s, log)"
	p.Y.Label.Text = "test accuracy"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	var all, good plotter.XYs
	for _, r := range rep.Fig1 {
		if !r.Feasible {
			continue
		}
		pt := plotter.XY{X: r.Throughput, Y: r.Accuracy}
		if r.Good {
			good = append(good, pt)
		} else {
			all = append(all, pt)
		}
	}
	if len(all) > 0 {
		s, err := scatter(all, color.RGBA{150, 150, 150, 255}, draw.CircleGlyph{}, vg.Points(1.2))
		if err != nil {
			return err
		}
		p.Add(s)
		p.Legend.Add("pairs", s)
	}
	if len(good) > 0 {
		s, err := scatter(good, palette[3], draw.CircleGlyph{}, vg.Points(2.5))
		if err != nil {
			return err
		}
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("good corner (top 10 %% of both): %.2f %%", 100*rep.GoodFraction), s)
	}
	p.Legend.Top = false
	return save(p, rep.Out, "fig1_pairs", 7*vg.Inch, 5*vg.Inch)
}

func figure7(rep *Report) error {
	var sets []string
	for _, r := range rep.Fig7 {
		if len(sets) == 0 || sets[len(sets)-1] != r.Dataset {
			sets = append(sets, r.Dataset)
		}
	}
	for _, ds := range sets {
		p := plot.New()
		p.Title.Text = "Fig. 7: accuracy vs latency (" + ds + ")"
		p.X.Label.Text = "latency (us)"
		p.Y.Label.Text = "test accuracy"
		methods := []string{"G-CoS", "GCN", "GAT", "GraphSAGE"}
		for mi, m := range methods {
			var xy plotter.XYs
			for _, r := range rep.Fig7 {
				if r.Dataset == ds && r.Method == m {
					xy = append(xy, plotter.XY{X: float64(r.LatencyPS) / 1e6, Y: r.Accuracy})
				}
			}
			if len(xy) == 0 {
				continue
			}
			shape := draw.GlyphDrawer(draw.TriangleGlyph{})
			if m == "G-CoS" {
				shape = draw.CircleGlyph{}
			}
			s, err := scatter(xy, palette[mi], shape, vg.Points(4))
			if err != nil {
				return err
			}
			p.Add(s)
			p.Legend.Add(m, s)
		}
		p.Legend.Top = false
		if err := save(p, rep.Out, "fig7_"+ds, 6*vg.Inch, 4.5*vg.Inch); err != nil {
			return err
		}
	}
	return nil
}

// paperLine is a dashed horizontal line at a paper's value, in the legend.
func paperLine(p *plot.Plot, y float64, c color.Color, label string) {
	f := plotter.NewFunction(func(float64) float64 { return y })
	f.Color = c
	f.Width = vg.Points(1.2)
	f.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(f)
	p.Legend.Add(label, f)
}

// bars adds grouped bar series (one per values slice) to p.
func bars(p *plot.Plot, series []plotter.Values, names []string, w vg.Length) error {
	for i, v := range series {
		b, err := plotter.NewBarChart(v, w)
		if err != nil {
			return err
		}
		b.Color = palette[i]
		b.LineStyle.Width = 0
		b.Offset = vg.Length(2*i-len(series)+1) * w / 2
		p.Add(b)
		p.Legend.Add(names[i], b)
	}
	return nil
}

func figure8(rep *Report) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Fig. 8: G-CoS speed-up over HyGCN-like (geo-mean %.2fx, paper %.2fx) and AWB-GCN-like (%.2fx, paper %.2fx)",
		rep.SpeedupHyGCN, PaperSpeedupHyGCN, rep.SpeedupAWB, PaperSpeedupAWB)
	p.Title.TextStyle.Font.Size = vg.Points(9)
	p.X.Label.Text = "data set / GNN (HyGCN's GNNs, 2 layers 128 wide, vs HyGCN-like; AWB-GCN's GCN, hidden 16, vs AWB-GCN-like)"
	if rep.Fig8OwnModels {
		p.X.Label.Text = "data set / GNN (ours: 2 layers, hidden 16, vs both baselines)"
	}
	p.Y.Label.Text = "speed-up of G-CoS (x, baseline latency / G-CoS latency)"
	var labels []string
	var hy, awb plotter.Values
	for _, r := range rep.Fig8 {
		if r.Design != "G-CoS" {
			continue
		}
		l := r.Dataset + "\n" + r.Model
		if r.Comparison != CompareBoth {
			l += "\n(" + r.Comparison + "'s)"
		}
		labels = append(labels, l)
		hy = append(hy, r.SpeedupHyGCN)
		awb = append(awb, r.SpeedupAWB)
	}
	if len(labels) == 0 {
		return nil
	}
	if err := bars(p, []plotter.Values{hy, awb}, []string{"over HyGCN-like", "over AWB-GCN-like"}, vg.Points(7)); err != nil {
		return err
	}
	paperLine(p, PaperSpeedupHyGCN, palette[0], fmt.Sprintf("paper: %.2fx over HyGCN (average)", PaperSpeedupHyGCN))
	paperLine(p, PaperSpeedupAWB, palette[1], fmt.Sprintf("paper: %.2fx over AWB-GCN (average)", PaperSpeedupAWB))
	p.NominalX(labels...)
	p.X.Tick.Label.Font.Size = vg.Points(6)
	top := PaperSpeedupHyGCN
	for i := range hy {
		top = max(top, hy[i], awb[i])
	}
	p.Y.Max = 1.3 * top // room for the legend
	p.Legend.Top, p.Legend.Left = true, true
	if err := save(p, rep.Out, "fig8_speedup", 9*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	return figure8PerDataset(rep)
}

// figure8PerDataset draws Figure 8 per data set (geometric means over the
// three GNNs) with the paper's averages marked: the paper's text gives no
// per-data-set figure.
func figure8PerDataset(rep *Report) error {
	if len(rep.Fig8Sets) == 0 {
		return nil
	}
	p := plot.New()
	p.Title.Text = "Fig. 8 per data set: G-CoS speed-up on each baseline's own GNNs, geo-mean (dashed: paper's averages)"
	if rep.Fig8OwnModels {
		p.Title.Text = "Fig. 8 per data set: G-CoS speed-up, geo-mean over our GCN, GIN, GraphSAGE (dashed: paper's averages)"
	}
	p.Title.TextStyle.Font.Size = vg.Points(9)
	p.X.Label.Text = "data set"
	p.Y.Label.Text = "speed-up of G-CoS (x, baseline latency / G-CoS latency)"
	var labels []string
	var hy, awb, hyS, awbH plotter.Values
	top := PaperSpeedupHyGCN
	for _, st := range rep.Fig8Sets {
		labels = append(labels, st.Dataset)
		hy = append(hy, st.SpeedupHyGCN)
		awb = append(awb, st.SpeedupAWB)
		hyS = append(hyS, st.SpeedupHyGCNSparseX)
		awbH = append(awbH, st.SpeedupAWBHBM)
		top = max(top, st.SpeedupHyGCN, st.SpeedupAWB, st.SpeedupHyGCNSparseX, st.SpeedupAWBHBM)
	}
	if err := bars(p, []plotter.Values{hy, awb, hyS, awbH}, []string{"over HyGCN-like (as its paper)", "over AWB-GCN-like (as its paper)",
		"over HyGCN-like given sparse X", "over AWB-GCN-like given 460 GB/s"}, vg.Points(12)); err != nil {
		return err
	}
	paperLine(p, PaperSpeedupHyGCN, palette[0], fmt.Sprintf("paper: %.2fx over HyGCN (average of Fig. 8)", PaperSpeedupHyGCN))
	paperLine(p, PaperSpeedupAWB, palette[1], fmt.Sprintf("paper: %.2fx over AWB-GCN (average of Fig. 8)", PaperSpeedupAWB))
	p.NominalX(labels...)
	p.Y.Max = 1.35 * top
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	return save(p, rep.Out, "fig8_per_dataset", 8*vg.Inch, 5*vg.Inch)
}
