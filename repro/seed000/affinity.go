package seed000

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/nas/magnas"
	"gnnsim/workload"
)

// affinity is what moving one block kind from the GPU to the DLA does to
// a GPU-only mapping, hand-offs and fusion included (Table.Eval): every
// block of the kind at once, and its first block alone.
type affinity struct {
	kind           workload.BlockKind
	n              int
	allDT, allDE   float64 // ps, pJ: all blocks of the kind on the DLA
	oneDT, oneDE   float64 // its first block alone
	ownGPU, ownDLA float64 // ps: the kind's own segment time on each unit (no hand-offs)
}

// blockAffinity measures the mechanism MaGNAS names for its mappings
// (Section 5.4, Table 3: Grapher blocks prefer the GPU, FFN blocks the
// DLA) on a block-wise engine of units 0 (GPU) and 1 (DLA), at its
// reference setting.
func blockAffinity(e *magnas.Engine) []affinity {
	t := e.T
	gpu := make([]int, t.Blocks())
	t0, e0, _ := t.Eval(gpu, e.Ref)
	var out []affinity
	for i, sg := range t.Segments {
		if !slices.Contains(t.Allowed[i], 1) || slices.ContainsFunc(out, func(a affinity) bool { return a.kind == sg.Kind }) {
			continue
		}
		a := affinity{kind: sg.Kind}
		all, one := slices.Clone(gpu), slices.Clone(gpu)
		one[i] = 1
		for j, sj := range t.Segments {
			if sj.Kind == sg.Kind && slices.Contains(t.Allowed[j], 1) {
				all[j] = 1
				a.n++
				tg, _ := t.SegmentCost(j, e.Ref, 0)
				td, _ := t.SegmentCost(j, e.Ref, 1)
				a.ownGPU, a.ownDLA = a.ownGPU+tg, a.ownDLA+td
			}
		}
		ta, ea, _ := t.Eval(all, e.Ref)
		to, eo, _ := t.Eval(one, e.Ref)
		a.allDT, a.allDE, a.oneDT, a.oneDE = ta-t0, ea-e0, to-t0, eo-e0
		out = append(out, a)
	}
	return out
}

// writeAffinity renders the affinity table and returns a one-line summary
// for the ledger's notes.
func writeAffinity(w *strings.Builder, aff []affinity) string {
	w.WriteString("Block affinity: what moving a block kind from GPU-only to the DLA does (block-wise cost table at MaxN, hand-offs and fusion included), for every block of the kind and for its first block alone. Paper (Section 5.4, Table 3): Grapher blocks prefer the GPU and FFN blocks the DLA, so its m* puts most FFNs on the DLA with 12 transitions. What the DLA runs is TensorRT's (8.4, MaGNAS's JetPack; soc/xavier.yaml units.dla.refuse and its source): convolutions, fully connected layers, batch norm, ReLU-family activations and element-wise sums run on the Xavier's DLA; GELU (ONNX Erf, Mul, Add), softmax, top-k, gather and matrix products do not and fall back to the GPU. So an FFN (fc1, BN, GELU, fc2, BN) on the DLA hands its GELU to the GPU and back (two hand-offs), and a Grapher's k-NN, top-k and gather stay on the GPU; a block kind's saving on the DLA is what is left after those hand-offs.\n\n| block kind | blocks | own time DLA/GPU | all on DLA: ms | all: mJ | all: mJ saved per ms | one on DLA: ms | one: mJ |\n|---|---|---|---|---|---|---|---|\n")
	var parts []string
	for _, a := range aff {
		per := "-"
		if a.allDT > 0 {
			per = fmt.Sprintf("%.2f", -mj(a.allDE)/ms(a.allDT))
		}
		fmt.Fprintf(w, "| %s | %d | %.2f | %+.2f | %+.2f | %s | %+.2f | %+.2f |\n", a.kind, a.n, a.ownDLA/a.ownGPU, ms(a.allDT), mj(a.allDE), per, ms(a.oneDT), mj(a.oneDE))
		parts = append(parts, fmt.Sprintf("%s x%d on the DLA %+.2f ms %+.2f mJ (one: %+.2f ms %+.2f mJ)", a.kind, a.n, ms(a.allDT), mj(a.allDE), ms(a.oneDT), mj(a.oneDE)))
	}
	w.WriteString("\n")
	return strings.Join(parts, "; ")
}
