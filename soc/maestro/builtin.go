package maestro

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// The standard MAESTRO dataflows, as directive text. Their names and
// directive lists are MAESTRO's (maestro-project/maestro, MIT licence:
// tools/frontend/dataflow/*.m and data/mapping/*_<name>.m); where
// MAESTRO's own parser (HEAD 4eb08d1) rejects the shipped text, the
// constant carries the smallest fix with the same meaning, noted beside
// it. MaGNAS's three DSAs use KCPWS, YKPOS and DPT.
const (
	// KCPWS is kcp_ws, NVDLA-like weight stationary: output channels
	// across clusters of 64 PEs, input channels across the PEs of a
	// cluster, 64 input channels per step.
	KCPWS = `Dataflow {
	SpatialMap(1,1) K;
	TemporalMap(64,64) C;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
	TemporalMap(Sz(R),1) Y;
	TemporalMap(Sz(S),1) X;
	Cluster(64,P);
	SpatialMap(1,1) C;
	TemporalMap(Sz(R),1) Y;
	TemporalMap(Sz(S),1) X;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// YKPOS is ykp_os, ShiDianNao-like output stationary: output rows
	// across clusters of 16 PEs, 16 output channels per step spread over
	// a cluster's PEs. (MAESTRO ships R and S offsets of 7, which its
	// parser rejects unless R = S = 7; Sz(R), Sz(S) keep the meaning.)
	YKPOS = `Dataflow {
	TemporalMap(16,16) K;
	SpatialMap(Sz(R),1) Y;
	TemporalMap(Sz(S),1) X;
	TemporalMap(1,1) C;
	Cluster(16,P);
	SpatialMap(1,1) K;
	TemporalMap(Sz(R),1) Y;
	TemporalMap(Sz(S),1) X;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// DPT is dpt, a single-level depth-wise style dataflow: input channels
	// across all PEs; every unmapped dimension (K for a convolution) is
	// unrolled inside the PE.
	DPT = `Dataflow {
	SpatialMap(1,1) C;
	TemporalMap(Sz(R),1) Y;
	TemporalMap(Sz(S),1) X;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// XPWS is xp_ws: output columns across the PEs, weights stationary.
	XPWS = `Dataflow {
	TemporalMap(1,1) K;
	TemporalMap(1,1) C;
	TemporalMap(Sz(R),1) Y;
	SpatialMap(Sz(S),1) X;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// YXPOS is yxp_os: output rows across clusters of 8 PEs, output
	// columns across a cluster's PEs, 8 output columns per step. MAESTRO's
	// ResNet-50 mapping writes the step as TemporalMap(14,8) X, i.e. 8 + S
	// - 1 input columns for its 7x7 filter; the output-centric X' says the
	// same for any filter (with TemporalMap(8,8) X, as in the
	// maestro_reference runs, tiles do not overlap by S - 1 columns and
	// S - 1 of every 8 output columns are skipped). On strided
	// convolutions MAESTRO miscounts this dataflow whatever its text: it
	// takes a tile's output columns as input columns - S + 1, ignoring
	// the stride, so a tile spanning several outputs over-counts (the
	// reference's macs_ok = 0 rows; Result.MACs then differs from
	// Layer.MACs).
	YXPOS = `Dataflow {
	TemporalMap(1,1) K;
	TemporalMap(1,1) C;
	SpatialMap(Sz(R),1) Y;
	TemporalMap(8,8) X';
	Cluster(8,P);
	SpatialMap(Sz(S),1) X;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// RS is rs, Eyeriss-like row stationary: output rows across clusters
	// of R PEs, filter rows across a cluster's PEs.
	RS = `Dataflow {
	SpatialMap(1,1) Y';
	TemporalMap(1,1) X';
	TemporalMap(1,1) C;
	TemporalMap(16,16) K;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
	Cluster(Sz(R),P);
	SpatialMap(1,1) Y;
	SpatialMap(1,1) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// NLR is nlr, no local reuse: input channels across the PEs, innermost.
	NLR = `Dataflow {
	TemporalMap(1,1) K;
	TemporalMap(Sz(R),1) Y;
	TemporalMap(Sz(S),1) X;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
	SpatialMap(1,1) C;
}`

	// CKPWS is ckp_ws: input channels across clusters of 64 PEs, output
	// channels across a cluster's PEs. (MAESTRO's VGG-16 mapping fixes the
	// filter at 3x3; Sz(R), Sz(S) make it shape-independent.)
	CKPWS = `Dataflow {
	SpatialMap(1,1) C;
	TemporalMap(64,64) K;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
	TemporalMap(1,1) Y';
	TemporalMap(1,1) X';
	Cluster(64,P);
	SpatialMap(1,1) K;
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
}`

	// MAERI is maeri: output channels across "virtual neurons" of R x S PEs
	// that reduce one output each.
	MAERI = `Dataflow {
	TemporalMap(1,1) C;
	SpatialMap(1,1) K;
	TemporalMap(1,1) Y';
	TemporalMap(1,1) X';
	TemporalMap(Sz(R),Sz(R)) R;
	TemporalMap(Sz(S),Sz(S)) S;
	Cluster(Sz(R),P);
	SpatialMap(1,1) Y;
	SpatialMap(1,1) R;
	Cluster(Sz(S),P);
	SpatialMap(1,1) X;
	SpatialMap(1,1) S;
}`

	// GEMMNMK is MAESTRO's GEMM example "optimised for throughput" (M and
	// N tiles of 1) for GEMM layers, with a K tile of 64 rather than 100
	// so that its clusters fit 64 PEs.
	GEMMNMK = `Dataflow {
	TemporalMap(1,1) N;
	SpatialMap(1,1) M;
	TemporalMap(64,64) K;
	Cluster(64,P);
	TemporalMap(1,1) N;
	TemporalMap(1,1) M;
	SpatialMap(1,1) K;
}`
)

var builtinText = map[string]string{
	"kcp_ws":   KCPWS,
	"ykp_os":   YKPOS,
	"dpt":      DPT,
	"xp_ws":    XPWS,
	"yxp_os":   YXPOS,
	"rs":       RS,
	"nlr":      NLR,
	"ckp_ws":   CKPWS,
	"maeri":    MAERI,
	"gemm_nmk": GEMMNMK,
}

var builtins = sync.OnceValues(func() (map[string]Dataflow, error) {
	m := make(map[string]Dataflow, len(builtinText))
	for name, text := range builtinText {
		df, err := ParseString(text)
		if err != nil {
			return nil, fmt.Errorf("built-in %s: %w", name, err)
		}
		df.Name = name
		m[name] = df
	}
	return m, nil
})

// BuiltinNames lists the built-in dataflows, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtinText))
	for n := range builtinText {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Builtin returns the built-in dataflow of the given MAESTRO name
// (kcp_ws, ykp_os, dpt, ...; see BuiltinNames).
func Builtin(name string) (Dataflow, error) {
	m, err := builtins()
	if err != nil {
		return Dataflow{}, fmt.Errorf("maestro: %w", err)
	}
	df, ok := m[name]
	if !ok {
		return Dataflow{}, fmt.Errorf("maestro: no built-in dataflow %q (have %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	df.Directives = slices.Clone(df.Directives)
	return df, nil
}
