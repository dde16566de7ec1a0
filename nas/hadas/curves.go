package hadas

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/csvtab"
)

// Curve is the measured top-1 accuracy of exits along one backbone:
// Top1[i] is the fraction of the test set an exit at position FirstExit+i
// classifies correctly, for positions FirstExit..M (the last one is the
// exit after the last block, which stands in for the backbone's own
// classifier).
type Curve struct {
	Source string
	Top1   []float64
}

// At returns the accuracy of an exit at position p.
func (c *Curve) At(p int) (float64, error) {
	i := p - FirstExit
	if i < 0 || i >= len(c.Top1) {
		return 0, fmt.Errorf("hadas: curve %s has no exit at position %d (positions %d-%d)", c.Source, p, FirstExit, FirstExit+len(c.Top1)-1)
	}
	return c.Top1[i], nil
}

// Final is the accuracy of the exit after the last block: the backbone's
// static accuracy Acc_b (AttentiveNAS a0 on CIFAR-100: 86.03 % here,
// 86.33 % in HADAS Table III).
func (c *Curve) Final() float64 { return c.Top1[len(c.Top1)-1] }

// ReadCurveCSV reads a per-exit accuracy table in the format of the HADAS
// repository's exit_perf files: a header with columns Exit and TOP1_Acc
// (percent), one row per exit in order ("Exit_1" is the exit after block
// FirstExit). Other columns are ignored.
func ReadCurveCSV(r io.Reader, source string) (*Curve, error) {
	prefix := "hadas: curve " + source
	tab, err := csvtab.Open(r, csvtab.Options{Ragged: true, Name: prefix})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	col, err := tab.Need([]string{"Exit", "TOP1_Acc"}, false)
	if err != nil {
		return nil, fmt.Errorf("%s: want columns Exit and TOP1_Acc, have %q", prefix, tab.Header)
	}
	ei, ai := col["Exit"], col["TOP1_Acc"]
	c := &Curve{Source: source}
	_, err = tab.Each(func(rec []string, line int) error {
		if len(rec) <= max(ei, ai) {
			return fmt.Errorf("%s: line %d: %d fields", prefix, line, len(rec))
		}
		want := fmt.Sprintf("Exit_%d", len(c.Top1)+1)
		if strings.TrimSpace(rec[ei]) != want {
			return fmt.Errorf("%s: line %d: exit %q, want %s", prefix, line, rec[ei], want)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[ai]), 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 100 {
			return fmt.Errorf("%s: line %d: top-1 %q, want a percentage", prefix, line, rec[ai])
		}
		c.Top1 = append(c.Top1, v/100)
		if len(c.Top1) > 1<<12 {
			return fmt.Errorf("%s: more than %d exits", prefix, 1<<12)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(c.Top1) == 0 {
		return nil, fmt.Errorf("hadas: curve %s: no exits", source)
	}
	return c, nil
}

// Datasets are the data sets of the shipped curves.
var Datasets = []string{"cifar-100", "tiny-imagenet"}

// LoadCurve reads the shipped curve of AttentiveNAS model ("a0".."a5") on
// dataset from dir (the hadas folder of the shared data:
// GNNSIM_DATA/hadas).
func LoadCurve(dir, dataset, model string) (*Curve, error) {
	p := filepath.Join(dir, dataset+"-"+model+"exit_perf.csv")
	f, err := boundedio.Open(p, boundedio.CSV)
	if err != nil {
		return nil, fmt.Errorf("hadas: %w", err)
	}
	defer f.Close()
	return ReadCurveCSV(f, dataset+"/"+model)
}

// Accuracy gives a backbone's exit accuracies: a measured curve or a
// proxy.
type Accuracy interface {
	// Curve returns the exit accuracies of b at positions FirstExit..M.
	Curve(b *Backbone) (*Curve, error)
	Source() string
}

// Measured is a set of measured curves keyed by Backbone.Arch.
type Measured struct {
	Name   string
	Curves map[string]*Curve
	// Fallback, if set, answers for backbones without a curve.
	Fallback Accuracy
}

// Curve returns the measured curve of b, checking that it has one exit per
// position, or the fallback's.
func (m *Measured) Curve(b *Backbone) (*Curve, error) {
	c, ok := m.Curves[b.Arch]
	if !ok {
		if m.Fallback != nil {
			return m.Fallback.Curve(b)
		}
		return nil, fmt.Errorf("hadas: no measured curve for %s", b.Arch)
	}
	if want := b.Blocks() - FirstExit + 1; len(c.Top1) != want {
		return nil, fmt.Errorf("hadas: curve %s has %d exits, backbone %s has %d positions (%d-%d)", c.Source, len(c.Top1), b.Arch, want, FirstExit, b.Blocks())
	}
	return c, nil
}

// Source names the table (and its fallback).
func (m *Measured) Source() string {
	if m.Fallback != nil {
		return "measured:" + m.Name + "+" + m.Fallback.Source()
	}
	return "measured:" + m.Name
}

// Proxy is the documented accuracy proxy of backbones without a measured
// curve, fitted on measured ones:
//
//   - the final accuracy is a least-squares line in log(MACs) through the
//     measured backbones' final accuracies, clamped to their range widened
//     by 2 points;
//   - an exit's accuracy is the final accuracy times the mean, over the
//     measured curves, of their accuracy relative to their final one at
//     the same fraction of the backbone's MACs done (linear interpolation;
//     0 at no work), made non-decreasing along the backbone.
//
// It says nothing about how well an untrained exit would do; it spreads
// the measured behaviour over the space so the search has a signal.
type Proxy struct {
	Name         string
	slope, icept float64
	lo, hi       float64
	shapes       [][2][]float64 // per curve: MAC fractions, relative accuracies
}

// NewProxy fits the proxy on backbones and their measured curves.
func NewProxy(name string, bs []*Backbone, cs []*Curve) (*Proxy, error) {
	if len(bs) != len(cs) || len(bs) < 2 {
		return nil, fmt.Errorf("hadas: proxy %s: want >= 2 backbones with curves, have %d and %d", name, len(bs), len(cs))
	}
	p := &Proxy{Name: name, lo: math.Inf(1), hi: math.Inf(-1)}
	var sx, sy, sxx, sxy float64
	for i, b := range bs {
		c := cs[i]
		if want := b.Blocks() - FirstExit + 1; len(c.Top1) != want {
			return nil, fmt.Errorf("hadas: proxy %s: curve %s has %d exits for %d positions", name, c.Source, len(c.Top1), want)
		}
		fr, total, err := macFractions(b)
		if err != nil {
			return nil, err
		}
		x, y := math.Log(total), c.Final()
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		p.lo, p.hi = min(p.lo, y), max(p.hi, y)
		var xs, ys []float64
		for j, a := range c.Top1 {
			xs = append(xs, fr[FirstExit-1+j])
			r := 1.0 // a final top-1 of 0 gives no shape: flat, so scaled curves stay finite
			if y > 0 {
				r = a / y
			}
			ys = append(ys, r)
		}
		p.shapes = append(p.shapes, [2][]float64{xs, ys})
	}
	n := float64(len(bs))
	if d := n*sxx - sx*sx; d > 0 {
		p.slope = (n*sxy - sx*sy) / d
	}
	p.icept = (sy - p.slope*sx) / n
	p.lo, p.hi = max(p.lo-0.02, 0), min(p.hi+0.02, 1)
	return p, nil
}

// macFractions returns the fraction of b's MACs done after each computing
// block, and the total.
func macFractions(b *Backbone) ([]float64, float64, error) {
	var cum []float64
	var done float64
	k := 0
	for i, blk := range b.Model.Blocks {
		ks, err := blk.Kernels()
		if err != nil {
			return nil, 0, err
		}
		for _, kk := range ks {
			done += float64(kk.MACs)
		}
		if k < len(b.End) && b.End[k] == i {
			cum = append(cum, done)
			k++
		}
	}
	if done <= 0 {
		return nil, 0, fmt.Errorf("hadas: backbone %s does no work", b.Name)
	}
	for i := range cum {
		cum[i] /= done
	}
	return cum, done, nil
}

// Curve returns the proxy curve of b.
func (p *Proxy) Curve(b *Backbone) (*Curve, error) {
	fr, total, err := macFractions(b)
	if err != nil {
		return nil, err
	}
	final := min(max(p.icept+p.slope*math.Log(total), p.lo), p.hi)
	c := &Curve{Source: "proxy:" + p.Name}
	prev := 0.0
	for pos := FirstExit; pos <= b.Blocks(); pos++ {
		x := fr[pos-1]
		r := 0.0
		for _, s := range p.shapes {
			r += interp(s[0], s[1], x)
		}
		a := max(min(final*r/float64(len(p.shapes)), 1), prev)
		if pos == b.Blocks() {
			a = max(final, prev)
		}
		c.Top1 = append(c.Top1, a)
		prev = a
	}
	return c, nil
}

// Source names the proxy.
func (p *Proxy) Source() string { return "proxy:" + p.Name }

// interp is piecewise-linear interpolation through (0,0) and (xs, ys)
// (xs ascending), flat beyond the last point.
func interp(xs, ys []float64, x float64) float64 {
	i, _ := slices.BinarySearch(xs, x)
	switch {
	case i >= len(xs):
		return ys[len(ys)-1]
	case i == 0:
		if xs[0] <= 0 {
			return ys[0]
		}
		return ys[0] * max(x, 0) / xs[0]
	}
	x0, x1 := xs[i-1], xs[i]
	if x1 <= x0 {
		return ys[i]
	}
	return ys[i-1] + (ys[i]-ys[i-1])*(x-x0)/(x1-x0)
}
