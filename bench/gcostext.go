package bench

import (
	"fmt"
	"io"

	accel "gnnsim/accel/gcos"
	"gnnsim/workload"
)

// WriteText prints the row of model m on design (its name and where it
// came from) as 'gnnsim gcos eval' does.
func (r *GCoSRow) WriteText(w io.Writer, design string, m workload.Model) error {
	dens := "dense features"
	if r.FeatureDensity > 0 {
		dens = fmt.Sprintf("features %.2f %% non-zero", 100*r.FeatureDensity)
	}
	fmt.Fprintf(w, "model %s (%d layers) on %s: %d nodes, %d input features, %s\n", r.ModelName, r.Layers, r.DataName, r.Nodes, r.Features, dens)
	fmt.Fprintf(w, "design %s: %d sub-accelerators, %d PEs, %s allocation, %s scheme, %g MHz, %g GB/s HBM\n",
		design, r.Subs, r.PEs, r.Alloc, r.Scheme, r.ClockMHz, r.HBMGBps)
	fmt.Fprintf(w, "latency %.2f us (%d cycles), %.3f MB off chip, %d MACs\n", r.LatencyUS, r.Cycles, float64(r.DRAMBytes)/1e6, r.MACs)
	for i, ps := range r.BlockLatencyPS {
		fmt.Fprintf(w, "  %-10s %10.2f us\n", m.Blocks[i].Name, float64(ps)/1e6)
	}
	fit := "fits"
	if !r.Feasible {
		fit = "does not fit: " + r.Over
	}
	fmt.Fprintf(w, "resources: %d of %d DSPs, %.2f of %d MB on chip: %s\n", r.DSP, accel.DSPLimit, float64(r.OnChipBytes)/(1<<20), accel.OnChipBytes>>20, fit)
	fmt.Fprintln(w, "accuracy: not measured (latency only; gnnsim train measures accuracy)")
	return nil
}
