package seed001

import (
	"fmt"
	"io"
)

// WriteSummary prints the run's headline numbers: Figure 1's good corner
// (unless only Figure 8 ran), Figure 8's speed-ups beside the paper's,
// Cora's GCN latency and where the report went.
func (r *Report) WriteSummary(w io.Writer, fig8Only bool) {
	if !fig8Only {
		fmt.Fprintf(w, "figure 1: %d pairs, %.2f %% in the good corner\n", len(r.Fig1), 100*r.GoodFraction)
	}
	fmt.Fprintf(w, "figure 8: %.2fx over HyGCN-like (paper %.2fx), %.2fx over AWB-GCN-like (paper %.2fx)\n",
		r.SpeedupHyGCN, PaperSpeedupHyGCN, r.SpeedupAWB, PaperSpeedupAWB)
	fmt.Fprintf(w, "cora GCN on its searched accelerator: %.1f us\n", r.CoraGCNMicros)
	fmt.Fprintf(w, "report: %s\n", r.ReportPath)
}
