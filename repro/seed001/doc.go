// Package seed001 reproduces G-CoS (seed 001) end to end in one results
// directory: Figure 1 (accuracy x throughput of random GNN / accelerator
// pairs), Figure 7 (accuracy vs latency of the co-search against handcrafted
// GNNs whose accelerators the same search tunes) and Figure 8 (speed-up of
// searched accelerators over the HyGCN-like and AWB-GCN-like designs on
// the same engine, each sized as its own paper: PE split, clock, memory,
// AWB-GCN's reported balance; per case and per data set, with two variants
// that show what moves the comparison), as Parquet tables, PNG/SVG figures
// and a report.md that sets the paper's numbers beside ours. Reddit's rows
// are a power-law degree profile with its published size and mean degree
// (RedditRows; the exponent is swept in the report).
//
//	rep, err := seed001.Run(ctx, seed001.Options{Out: "results/seed001", Quick: true})
//
// Accuracy is measured: every GNN is trained on the CPU (package train) on
// Planetoid Cora / CiteSeer; the report says which trainer settings and how
// G-CoS attention types map onto the trainer's. Latency comes from
// accel/gcos.
//
// Figure 8 runs, by default, the paper's comparison (Sec. V-B: "we fix the
// GNN structures and datasets in G-CoS to be the same as the baselines and
// only search for the accelerator parameters"): G-CoS against HyGCN-like
// on HyGCN's GCN, GraphSAGE and GIN (HyGCNModels: its Table 5, every layer
// combining to 128 wide, GraphSAGE sampling 25 neighbours), G-CoS against
// AWB-GCN-like on AWB-GCN's two-layer GCN (AWBGCNModels: hidden 16 on
// the citation graphs, 64 on Reddit), on
// Cora, CiteSeer, PubMed and Reddit, G-CoS's accelerator searched for each
// GNN alone. Options.Fig8OwnModels (--fig8-own-models) runs instead our
// GCN, GIN and GraphSAGE (hidden 16) against both baselines. The report
// gives every case's compute and memory bounds, so the term that dominates
// each design's time is on the page. Each design runs the GNN as it would: G-CoS's
// designs (PyG's layers) and AWB-GCN-like skip the zeros of the input
// features (densities measured from the Planetoid files, published counts
// when they are absent, Reddit dense) and run a narrowing GCN layer as
// A(XW) (workload.Layer.CheapOrder); HyGCN-like aggregates the dense
// features first, its pipeline's order. Options.Fig8DenseX prices G-CoS's
// designs on dense features.
// Figures 1, 7 and 8 run side by side (Options.Workers); Options.Fig8Only
// (--fig8-only) runs Figure 8 alone, its full budget in seconds. What the paper
// has and we do not: the one-shot supernet, the
// GNAS baselines of Figure 7, Deepburning-GL, PyG-CPU timings, FPGA
// implementation.
package seed001
