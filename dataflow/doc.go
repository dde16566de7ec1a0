// Package dataflow describes how one GNN layer is mapped onto a spatial
// accelerator: the intra-phase dataflow of each phase (loop order and
// spatial tile sizes), the inter-phase dataflow that links the two phases
// (seq, sp or pp) and, for pp, how the processing elements are split between
// the phases. It knows nothing about timing; package accel costs a mapping.
//
// # The layer
//
// A GCN layer is aggregation, the SpMM A (V x V, sparse) times H (V x F),
// followed by combination, the GEMM of the V x F intermediate with
// W (F x G). Dims holds V, F and G.
//
// # Intra-phase dataflow
//
// Tiles holds the six spatial tile sizes of seed 002 (Section 2.2):
// T_Va, T_Fa and T_N for aggregation (rows, feature columns and neighbours
// processed in parallel; T_Va*T_Fa*T_N PEs at most) and T_Vc, T_Gc and T_Fc
// for combination (T_Vc*T_Gc*T_Fc PEs). Order is a loop order, outermost
// loop first: a permutation of "VFN" for aggregation and of "VGF" for
// combination. STONNE-Omega, and so package accel, costs only the default
// orders VFN and VGF (its "row granularity"); other orders are valid
// mappings that accel rejects with an error.
//
// # The eight tilings
//
// Tiling names a recipe that resolves to Tiles for a given layer and PE
// budget P: the eight named tilings a..h of seed 002's Table 2, or a custom
// recipe parsed from "T_Va=4,T_N=2,T_Fa=8,T_Vc=*,T_Gc=1,T_Fc=16". In Table 2
// a "*" (T_Va, T_Vc) means as large as the PEs allow:
//
//	T_Va = max(1, min(V, floor(P/(T_Fa*T_N))))
//	T_Vc = max(1, min(V, floor(P/(T_Gc*T_Fc))))
//
// and when T_Fa*T_N exceeds P, T_N is first reduced to floor(P/T_Fa), as the
// STONNE-Omega reference set does (only tiling e, at F = 32 and 64, hits
// this; Tiles.NReducedFrom records it). Two corner cases the table leaves
// open are settled here: floor(F/2) is raised to 1 when F = 1, and a custom
// recipe's sizes are clipped to the layer (T_Va, T_Vc <= V; T_Fa, T_Fc <= F;
// T_Gc <= G) so one recipe can be applied to a whole sweep of graphs.
//
// # Inter-phase dataflow and configurations
//
// Inter is seq (phases run one after the other through the global buffer),
// sp (sequential pipeline: fused loops, small intermediate tiles stay on
// chip) or pp (parallel pipeline: PEs split between the phases, ping-pong
// buffer). A Config is one inter-phase dataflow plus resolved tiles, loop
// orders and the PEs each phase may use: every PE for seq and sp, a split
// for pp (half each by default) with the tiles resolved per phase from that
// phase's share, as in the reference runs of seed 002. All returns the 24
// configurations of the seed (3 inter-phase dataflows x 8 tilings).
//
// # Composite features
//
// Composite computes the tiling-dependent predictor features S1..S6 of
// seed 002's Table 1. Degrees are A+I row lengths, whether or not the graph
// stores its self-loops, as in package graphs' features.
//
// Left out: loop orders other than the default in the cost model (see
// above), temporal (non-spatial) tiling, and mappings that split a phase
// over non-contiguous PEs.
package dataflow
