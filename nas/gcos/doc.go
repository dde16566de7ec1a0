// Package gcos is G-CoS's GNN x accelerator co-search (seed 001, Sec. IV-D
// and IV-E): the joint space of Tables I and II, the mapping of a GNN onto
// workload layers, the fitness, and Algorithm 1 on search.Pool.
//
//	p, _ := gcos.NewProblem(gcos.Dataset{Name: "cora", Graph: g, Features: 1433, FeatureDensity: 0.0127, Classes: 7}, acc)
//	sp, _ := gcos.NewSpace(7)
//	res, _ := p.Search(ctx, sp, gcos.Options{PoolSize: 50, Evaluations: 2000, Seed: 1})
//	best := res.Top[0] // Design{Arch, HW}, latency, accuracy, fitness
//
// The GNN space (Table II) has two layers, each with an attention type
// (skip, GCN, GAT, GAT-sym, COS, Linear, Gene-Linear), an aggregation (sum,
// mean, max, MLP), one of nine activations, a hidden width 4-256, 1-16 heads
// (scored attention only) and a neighbour sampling rate 0.1 / 0.5 / 1; the
// last layer's width is the number of classes and its activation is fixed.
// The accelerator space (Table I) is, per sub-accelerator of accel/gcos, a
// DSP share (0 removes it), a tiling mode, a kernel mode and three tile
// sizes, plus re-purposing, weight-buffer sharing and the allocation
// scheme. NewHardwareSpace fixes the GNN (the paper's comparisons with
// handcrafted GNNs and accelerators search only the hardware).
//
// Algorithm 1: search.Pool with p_max designs, birth/dying rate s = 0.2,
// mutation of every attribute with probability 0.5, no crossover, stop at a
// target fitness or a budget, return the top N2. Fitness = 0.5 accuracy +
// 0.5 RefPS / (RefPS + latency), the latency term a normalised 1/latency
// (RefPS: the handcrafted GCN on accel.Default; Fitness can be re-weighted).
// Designs over the VCU128 budget are infeasible (a constraint). A data
// set's feature density (Dataset.FeatureDensity, measured by the caller)
// makes the first layer's product with its weights a sparse one, on every
// accelerator alike.
//
// Beyond the space, Dataset.RunModel prices any workload model (a model
// file's GNN stack of any depth: gcn, gin, sage, gat layers, built on the
// data set by Dataset.BuildModel) on a fixed design, block by block; the
// search's two-layer GNNs go the same way (Arch.Model). Datasets gives
// Cora, CiteSeer, PubMed and Reddit as seed 001 prices them (their graphs
// and measured feature densities when on disk, else published sizes;
// Reddit by a power-law degree profile), for the reproduction and the
// sweeps alike.
//
// Accuracy comes from an AccuracyFunc, cached per architecture: the
// trainer of package train on Planetoid data (the repro wires it), or any
// table. The paper's one-shot supernet (weight sharing, 1,000 epochs) is
// not reproduced: candidates are trained on their own.
package gcos
