package bench

import (
	"fmt"
	"io"
)

// WriteText prints the row as 'gnnsim dsa eval' does: the DSA, whether the
// model fits it, and the costs when it does.
func (r *DSARow) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "model        %s\ndataflow     %s\npes          %d\nl1_bytes     %d per PE\nl2_bytes     %d\nnoc_bw       %d elements/cycle\nclock_mhz    %g\ngranularity  %s (%d segments)\n",
		r.Model, r.Dataflow, r.PEs, r.L1Bytes, r.L2Bytes, r.NoCBW, r.ClockMHz, r.Granularity, r.Segments)
	if !r.Fits {
		fmt.Fprintf(w, "fits         false: %s\n", r.Refused)
		return nil
	}
	fmt.Fprintf(w, "fits         true\ncycles       %d\nlatency_ms   %.4f\nenergy_mj    %.4f\npower_w      %.3f\ndram_bytes   %d\n",
		r.Cycles, r.LatencyMS, r.EnergyMJ, r.PowerW, r.DRAMBytes)
	return nil
}
