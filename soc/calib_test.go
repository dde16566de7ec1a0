package soc

import (
	"fmt"
	"math"
	"testing"

	"gnnsim/workload"
)

// table2 holds MaGNAS Table 2's ViG-S baselines (b0-b3) on the Jetson AGX
// Xavier at MAXN: latency (ms) and energy (mJ), GPU-only and DLA-only. They
// are used here and by the fitter only, never by the model.
var table2 = []struct {
	op                         workload.LayerKind
	gpuMS, dlaMS, gpuMJ, dlaMJ float64
}{
	{workload.MRConv, 25.28, 40.11, 459.44, 224.41},
	{workload.EdgeConv, 33.74, 62.11, 770.36, 323.70},
	{workload.GIN, 22.49, 39.62, 429.07, 214.35},
	{workload.SAGE, 29.57, 57.77, 623.76, 263.48},
}

// table3A3 is MaGNAS Table 3's standalone mappings of Ours-a3 (CIFAR-100):
// GPU-only 13.42 ms / 273.22 mJ, DLA-only 25.56 ms / 121.74 mJ.
var table3A3 = struct{ gpuMS, dlaMS, gpuMJ, dlaMJ float64 }{13.42, 25.56, 273.22, 121.74}

// a3Model is Ours-a3 as repro/seed000 builds it: graph ops S-G-S-G in four
// superblocks of depth 2, fc1 in the first only, FFN hidden width 320.
// Table 3 maps a Stem, 7 Graphers, 7 FFNs and a Cls (16 segments); 8
// blocks is the fewest Table 1's depths {2, 3, 4} allow. The width is not
// published (the widest is taken).
func a3Model() (workload.Model, error) {
	sb := func(op workload.LayerKind, fc bool) workload.Superblock {
		return workload.Superblock{Depth: 2, Op: op, PreFC: fc, FFN: true, FFNHidden: 320}
	}
	return workload.MaGNASSpace().Model([]workload.Superblock{sb(workload.SAGE, true), sb(workload.GIN, false), sb(workload.SAGE, false), sb(workload.GIN, false)})
}

// calibPoint is our figures for one row of table2.
type calibPoint struct{ gpuMS, dlaMS, gpuMJ, dlaMJ float64 }

// calibrate evaluates ViG-S with each graph op of table2, then Ours-a3
// (Table 3), GPU-only and DLA-only at MAXN on s.
func calibrate(s *SoC) ([]calibPoint, error) {
	gpu, err := s.UnitIndex("gpu")
	if err != nil {
		return nil, err
	}
	dla, err := s.UnitIndex("dla")
	if err != nil {
		return nil, err
	}
	out := make([]calibPoint, len(table2)+1)
	for i := range out {
		var m workload.Model
		var err error
		if i < len(table2) {
			m, err = workload.ViG("s", table2[i].op)
		} else {
			m, err = a3Model()
		}
		if err != nil {
			return nil, err
		}
		e, err := NewEvaluator(s, m, Blocks)
		if err != nil {
			return nil, err
		}
		n := len(e.Segments())
		g, err := e.Evaluate(MapAll(Blocks, gpu, n), nil)
		if err != nil {
			return nil, err
		}
		d, err := e.Evaluate(MapAll(Blocks, dla, n), nil)
		if err != nil {
			return nil, err
		}
		out[i] = calibPoint{g.LatencyMS(), d.LatencyMS(), g.EnergyMJ(), d.EnergyMJ()}
	}
	return out, nil
}

// TestCalibrationTable2 checks the MaGNAS profile against MaGNAS Table 2:
// every figure within 15 % and the four graph ops in the published order,
// per unit and metric; and Table 3's a3 latencies within 15 %. Run with -v
// for the table.
func TestCalibrationTable2(t *testing.T) {
	ours, err := calibrate(MaGNAS())
	if err != nil {
		t.Fatal(err)
	}
	const tol = 0.15
	metrics := []struct {
		name string
		pub  func(i int) float64
		our  func(p calibPoint) float64
	}{
		{"GPU latency ms", func(i int) float64 { return table2[i].gpuMS }, func(p calibPoint) float64 { return p.gpuMS }},
		{"DLA latency ms", func(i int) float64 { return table2[i].dlaMS }, func(p calibPoint) float64 { return p.dlaMS }},
		{"GPU energy mJ", func(i int) float64 { return table2[i].gpuMJ }, func(p calibPoint) float64 { return p.gpuMJ }},
		{"DLA energy mJ", func(i int) float64 { return table2[i].dlaMJ }, func(p calibPoint) float64 { return p.dlaMJ }},
	}
	// Table 3's a3: its latencies are asserted within tol (they identify
	// the harness's per-frame cost, cpu.magnas_frame_cycles); its energies
	// are reported, not asserted: the per-frame cost draws the platform's
	// power and the waiting unit's idle power while the paper's a3 draws
	// as much as ViG-S on the GPU (GPU energy -22 %; see xavier.yaml,
	// magnas_frame_cycles).
	a3 := ours[len(table2)]
	for _, c := range []struct {
		name       string
		our, paper float64
		assert     bool
	}{{"a3 GPU ms", a3.gpuMS, table3A3.gpuMS, true}, {"a3 DLA ms", a3.dlaMS, table3A3.dlaMS, true}, {"a3 GPU mJ", a3.gpuMJ, table3A3.gpuMJ, false}, {"a3 DLA mJ", a3.dlaMJ, table3A3.dlaMJ, false}} {
		rel := c.our/c.paper - 1
		t.Logf("Table 3 %-10s %9.2f %9.2f %+6.1f%%", c.name, c.our, c.paper, 100*rel)
		if c.assert && (math.IsNaN(rel) || math.Abs(rel) > tol) {
			t.Errorf("Table 3 %s: ours %.2f, published %.2f: %+.1f %% (limit %.0f %%)", c.name, c.our, c.paper, 100*rel, 100*tol)
		}
	}
	ours = ours[:len(table2)]
	for _, m := range metrics {
		t.Logf("%-15s %-9s %9s %9s %7s", m.name, "op", "ours", "MaGNAS", "error")
		for i, row := range table2 {
			o, p := m.our(ours[i]), m.pub(i)
			rel := o/p - 1
			t.Logf("%-15s %-9s %9.2f %9.2f %+6.1f%%", "", row.op, o, p, 100*rel)
			if math.IsNaN(rel) || math.Abs(rel) > tol {
				t.Errorf("%s, %s: ours %.2f, published %.2f: %+.1f %% (limit %.0f %%)", m.name, row.op, o, p, 100*rel, 100*tol)
			}
			for j := range table2 {
				if (m.pub(i) < m.pub(j)) != (m.our(ours[i]) < m.our(ours[j])) {
					t.Errorf("%s: order of %s and %s differs from Table 2 (ours %.2f vs %.2f, published %.2f vs %.2f)",
						m.name, row.op, table2[j].op, m.our(ours[i]), m.our(ours[j]), m.pub(i), m.pub(j))
				}
			}
		}
	}
}

func fmtErr(o, p float64) string { return fmt.Sprintf("%+.1f%%", 100*(o/p-1)) }
