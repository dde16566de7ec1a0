// Package workload describes the work gnnsim's schedulers are fed: GNN layer
// jobs (which graph, its size, the feature widths F and G, the layer kind)
// and the arrival traces that release them over time.
//
// # Jobs
//
// A Job is one GNN layer applied to one graph: Nodes and Edges (undirected,
// self-loops excluded, as graphs.Graph.NumEdges counts them), input and output
// feature widths F and G, and a LayerKind. Graph names the graph and
// GraphIndex optionally points into a graph set the caller holds; neither is
// interpreted here. What a job costs on a given accelerator is not a property
// of the job: the caller measures it (package sched takes it as a table).
//
// # Arrivals
//
// Arrival times are integer cycles from the trace origin (cycle 0). Job i of
// a generated trace arrives at round(g_0 + ... + g_i): every job, the first
// included, follows a gap, so a trace of n jobs spans n gaps. Rounding the
// running sum rather than each gap keeps the mean gap unbiased.
//
// Gaps are drawn from
//
//   - Pareto (type I): g = x_m * U^(-1/alpha), support [x_m, inf), mean
//     alpha*x_m/(alpha-1). Seed 002 draws its inter-arrival times "from a
//     Pareto distribution" without giving the shape; DefaultParetoShape is
//     1.5, a common heavy-tailed choice (finite mean, infinite variance).
//   - Lomax (Pareto type II, what numpy.random.pareto draws): g = x_m *
//     (U^(-1/alpha) - 1), support [0, inf), mean x_m/(alpha-1). Burstier than
//     type I: gaps near zero are common.
//   - Exponential, i.e. a Poisson arrival process.
//
// The scale is set by the mean gap. MeanGap turns a target utilisation into
// a mean gap, with utilisation defined as offered load:
//
//	U = sum_j S_j / (M * T)
//
// where S_j is job j's reference service time in cycles, M the number of
// machines and T the trace span (the last arrival time, n gaps). Its
// expectation is mean(S) / (M * meanGap), so meanGap = mean(S) / (M * U).
// Which service time is the reference is the caller's choice; package sched
// provides ReferenceService (each job's best-tiling latency averaged over the
// machines), the load the machine set carries when every job runs at its best
// tiling on a machine picked without regard to speed. A policy that picks
// worse tilings, as seed 002's scenario-1 baselines do, offers more load than
// the target: that is part of what the experiment measures.
//
// With heavy tails (alpha <= 2) the realised mean gap of a short trace
// strays far from its expectation; ArrivalSpec.Exact rescales the drawn gaps
// so the realised mean equals the target exactly (the gaps are then no
// longer independent, but every seed offers the same load).
//
// # Trace files
//
// ReadTrace replays a trace from CSV or Parquet; see ParseCSV for the columns.
// WriteCSV and WriteParquet write the same columns.
//
// Left out: multi-layer models and model graphs (a job is one layer), job
// priorities, deadlines and dependencies between jobs.
package workload
