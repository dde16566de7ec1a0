// Package graphs holds the graphs gnnsim feeds through its hardware models:
// a symmetric CSR adjacency (Graph), seeded generators, loaders for the
// common on-disk formats, the structural features of seed 002's Table 1,
// and a Parquet graph-set file.
//
// A Graph is undirected and simple: edges are stored in both directions,
// rows are sorted and duplicate-free, and self-loops are either absent (A)
// or present on every node (A+I, see WithSelfLoops). Node ids are dense,
// 0-based int32 values; row order is meaningful to the accelerator models
// (consecutive rows form tiles), so nothing here reorders nodes unless a
// function says so.
//
// Left out: edge weights and edge features (the accelerator models only need
// the sparsity pattern), directed graphs, and graphs above MaxEntries stored
// entries.
package graphs
