// Package fpgaref reads a set of reference outputs of the FGNAS authors'
// FPGA cost model (the layout of ../shared/fgnas-reference: reference.csv,
// one row per design and data set) and scores package accel/fpga's
// FGNASCode model against it.
//
// # Rows
//
// A row names the graph as their model reads it (nodes, PyG's two-way edge
// count, input features, classes), the number of layers and, per layer k,
// the genes in columns lk_attention, lk_heads, lk_aggregation,
// lk_activation, lk_hidden_features (unused for the last layer, whose
// width is the class count), the four bit genes lk_act_int_bits,
// lk_act_frac_bits, lk_weight_int_bits, lk_weight_frac_bits (all empty or
// 0: float mode) and the five raw group sizes. The expected outputs are the
// totals cycles, LUT, FF, DSP (and latency_ms = cycles / 1e5) and the same
// per layer with the layer's output format. Layer columns are found by
// their prefix, so a file may carry any number of layers. A row whose
// error column is not empty (their model failed on it) is counted and not
// scored.
//
// Reading is strict: a missing column, a non-integer, NaN or infinite
// number, an unknown gene name or a design the model cannot take is an
// error naming the file, line and column.
//
// # Scoring
//
// Every row is priced on its graph (fpga.Options{Model: fpga.FGNASCode}),
// and each metric (cycles, LUT, FF, DSP) compared: the share of rows where
// ours equals theirs exactly, and the median and 90th percentile of the
// absolute percentage error |ours - ref| / ref x 100 (0 when both are 0;
// quantiles by gonum's stat.Quantile, LinInterp). The summary line pools
// the four metrics: exact_share is the share of rows exact on all four,
// the error quantiles are over every (row, metric) pair.
package fpgaref
