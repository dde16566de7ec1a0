// Package train is a small, exact CPU trainer for full-batch
// semi-supervised node classification, so that hardware-aware searches can
// optimise measured accuracy (MISSION section 11). It trains the networks of
// the FGNAS and G-CoS search spaces on the Planetoid data sets of package
// graphs, quantises them post-training to the fixed-point formats of an
// FPGA design, and answers "how accurate is this genome" for searches
// through a cached, concurrency-safe Oracle.
//
// # Networks
//
// An Arch is a list of Layers; each layer chooses (FGNAS Table 1, G-CoS
// Table II) its hidden width, number of heads, attention (constant, GCN,
// GAT, SAGE), aggregation (add, mean, max) and activation (linear, relu,
// tanh, sigmoid, elu, leaky_relu, relu6, softplus): the layer vocabulary
// of package workload. A layer computes, per head h,
//
//	z = x W                                  (dropout on x in training)
//	a_ij = 1 | 1/sqrt(d_i d_j) | softmax_j LeakyReLU_0.2(a_l.z_i + a_r.z_j)
//	m_i = AGG_{j in N(i) + i} a_ij z_j       (Add: sum, Mean: sum/d_i, Max: element-wise)
//	y = f(concat_h m + b)                    (average of the heads in the last layer)
//
// over the edges of A+I (every attention type sees the self-loop; d are
// A+I degrees). GAT coefficients get their own dropout. The output layer
// has one column per class and its activation applies to the logits
// (linear in the reference models). GCNArch and GATArch are Kipf and
// Welling's and Velickovic et al.'s networks; Preset pairs them with their
// training Config.
//
// A SAGE layer (GraphSAGE, Hamilton et al. 2017, as PyG's SAGEConv with
// its root weight; one head) instead computes
//
//	z = x [W_self | W_neigh]                 (one product, 2 x out columns)
//	m_i = AGG_{j in N(i)} z_neigh_j          (Add: sum, Mean: sum/|N(i)|, Max)
//	y = f(z_self_i + m_i + b)
//
// over the edges of A, the self-loop left out (an isolated node
// aggregates 0). It aggregates the neighbours' transforms, not their
// inputs: for sum and mean this is the same function as PyG's
// (W mean(x) = mean(W x)) at a fraction of the work (64 aggregated
// features instead of Cora's 1,433, and the first layer keeps its sparse
// product); for max it is the maximum of the projected neighbours,
// max_j W_neigh x_j, where PyG's max aggregator projects the maximum of
// the raw inputs, W_neigh max_j x_j (workload.SAGEMax's order). SAGEArch
// and SAGEConfig are PyG's two-layer example setting.
//
// # Training
//
// Train minimises the mean softmax cross-entropy of the training nodes plus
// WeightDecay/2 times the squared weights (the first layer's only, as
// Kipf and Welling do, or all weights and attention vectors with DecayAll,
// as GAT does; never biases), with Adam (0.9, 0.999, 1e-8), one full-batch
// step per epoch, 200 epochs by default. After every step the validation
// nodes are evaluated without dropout and the epoch with the best
// validation accuracy (ties: lower validation loss, then earlier) is kept;
// its test accuracy is the result, as FGNAS selects. Each pass computes
// only the rows its nodes depend on (in a two-layer network on Cora the
// step reads 1,664 and 644 of the 2,708 nodes' transforms, the
// validation 2,335 and 1,484), to the same bits as passes over the whole
// graph (TestRowPlansExact). Features are row-normalised
// (each row divided by its sum) as both reference implementations do.
// Weights start Glorot-uniform, biases at zero.
//
// Gradients are written by hand and checked against central finite
// differences in float64 for every attention x aggregation pair and every
// activation, with dropout and weight decay on. The first layer multiplies
// the sparse feature matrix (98.7 % zeros on Cora) by a dense weight
// matrix; all other products are row loops that skip zero factors, since
// the matrices are skinny and three quarters of a hidden input is zeroed
// by ReLU and dropout (see kernels.go for why not gonum's Dgemm). On
// amd64 CPUs with AVX2 the products, the aggregation of GCN and constant
// layers and the Adam step run in assembly of our own (kernels_amd64.s),
// and so do exp, sigmoid, ELU and tanh where the CPU also has FMA
// (package internal/vec: math.Exp's own method on four lanes), written
// because no reachable library vectorises them beyond gonum's SSE2 and Go
// emits no vector instructions. They compute every value as the Go code
// does, every sum in the order of the Go loops, so a training gives the
// same bits with them as without (TestTrainSameBitsWithoutAVX2; the
// purego build tag switches them off). The hot loops avoid branches on
// values that dropout and ReLU make random (kernels.go). Buffers are
// allocated once per model: an epoch allocates nothing.
//
// Everything random flows from Config.Seed through two PCG streams
// (math/rand/v2), one for initialisation, one for dropout, and every
// kernel runs serially in a fixed order, so a seed fixes every bit of a
// result. Dropout decides four entries per 64-bit draw, so its probability
// is rounded to a multiple of 2^-16.
//
// # Quantisation
//
// Model.Evaluate quantises the kept parameters and the activations to
// signed fixed point, FGNAS Eq. 7-8: x_q = clip(round(x/D) D, -2^bi,
// 2^bi - D), D = 2^-bf, with per-layer Bits (weight and activation
// formats). See Evaluate for the points of the pipeline that are
// quantised.
//
// # Measured
//
// Test accuracy, mean ± sample standard deviation over seeds 1..10, public
// split (TestReferenceAccuracy): GCN-16 Cora 81.97 ± 0.64 % (published
// 81.5), CiteSeer 71.43 ± 0.85 % (70.3); GAT 8x8 heads, 1 output head,
// Cora 82.44 ± 1.08 % (83.0, which Velickovic et al. reach with early
// stopping on patience 100 rather than 200 epochs); GraphSAGE (2 layers,
// hidden 64, SAGEConfig) Cora mean 81.16 ± 0.33 %, max 80.06 ± 0.60 %,
// three layers of mean (hidden 64) 81.12 ± 0.72 %. Quantised to w=a=7.16
// the Cora GCN keeps its accuracy (83.0 % both), at w=a=1.1 it guesses one
// class (15.1 %). Speed (BenchmarkTrainGCNCora, BenchmarkTrainGATCora,
// 200 epochs on Cora, one core): see the benchmarks; about 1 and 5-6 CPU
// seconds per training on the shared, heavily loaded 2-core host they were
// written on (BenchmarkTrainSAGECora: about 1.2, against GCN's 0.34 in the
// same run).
//
// Left out: mini-batching and neighbour sampling, G-CoS's GAT-sym, COS,
// linear and gene-linear attention, MLP aggregation and node sampling,
// early stopping on patience (Velickovic et al. use patience 100; here
// every run takes its epochs and selects), learning-rate schedules,
// quantisation-aware training, and inductive tasks. PubMed cannot be
// trained on the shared data (no ind.pubmed.allx); NewData says so.
package train
