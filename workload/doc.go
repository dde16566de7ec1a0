// Package workload describes what gnnsim's hardware models run and its
// schedulers are fed: layers and the kernels they imply, blocks and models
// (the model zoo), GNN layer jobs, and the arrival traces that release
// jobs over time. It knows no hardware: every hardware model reads the same
// kernels (package hw carries them to the units).
//
// # Layers and kernels
//
// A Layer is one layer of a network: its kind (GCN, GIN, SAGE, GAT,
// EdgeConv, MRConv, FC, Conv, BN, activation, residual add, k-NN graph
// construction, global pooling, windowed max and average pooling, LRN,
// softmax, concat), input and output widths F and G, and the few
// parameters a kind takes (GAT heads, k-NN neighbours k and candidate
// pooling, groups of a grouped conv, a window's size, stride and padding,
// Caffe's ceil-mode pooling, LRN's local size, a flattening FC). On a Size
// (nodes or pixels, adjacency entries, and optionally the H x W pixel grid
// that makes windowed layers exact) Layer.Kernels states the work it
// implies as Kernels: GEMM, SpMM, edge-wise, gather, max, element-wise,
// k-NN distance and top-k pieces, each with its MACs, other operations and
// elements moved. That is the one definition of what a layer costs; a
// hardware model prices kernels, it never re-derives them.
//
// A layer may say how dense its input is (Layer.InputDensity, 0 meaning
// dense): the raw features of a citation graph are bag-of-words vectors,
// 1.3 % non-zero on Cora, and GNN accelerators skip their zeros. A sparse
// input turns the first product X x W of GCN, GIN, GAT and FC layers into a
// sparse-dense SpMM kernel of nnz(X) x G MACs, and GCN and GIN layers then
// combine before they aggregate (A(XW), AWB-GCN's order: aggregating first
// would give the combination a denser AX). Only a first layer's input is
// sparse (hidden features are dense); the caller measures the density
// (graphs.Planetoid.FeatureDensity) and sets it. Unset, every kernel is as
// before: the dense count.
//
// A GCN layer on a dense input aggregates first ((AX)W) unless it asks for
// the cheaper order (Layer.CheapOrder): then it combines first when it
// narrows (G < F), as AWB-GCN, PyG's GCNConv and DGL's GraphConv do. The
// option is the caller's (seed 001's Figure 8 sets it per design); the
// reference validations (STONNE-Omega, MAESTRO, FGNAS) leave it off.
//
// # The layer vocabulary
//
// Attention, Aggregation and Activation name how a message-passing layer
// weights, combines and transforms its messages (FGNAS Table 1, G-CoS
// Table II, GraphSAGE), with their names and parsers: the one vocabulary
// of the FPGA model, the NAS spaces and the trainer. Each of those lists
// the part it runs and parses with ParseIn.
//
// # Blocks and models
//
// A Block is a named sequence of layers on an input Size (each layer runs
// on the Size its predecessor produced), with a role (BlockKind: Stem,
// Grapher, FFN, Downsample, Head, GNNLayer, Module): the unit a block-wise
// mapping assigns to hardware. A Model is a sequence of blocks.
//
// # Layers as a graph
//
// A model is a DAG of layers, not only a chain. A layer may carry a Name
// (its name in the reference definition, unique in the model) and Inputs,
// the names of the layers it reads:
//
//   - Inputs nil: the layer reads its predecessor (the previous block's
//     last layer for a block's first), and a nil-input Add also reads its
//     block's input (the residual of the ViG blocks): every builder before
//     the CNN zoo works unchanged;
//   - one name: a branch, e.g. the four branches of an Inception module all
//     name the layer before the module, and a ResNet downsample names the
//     block's input; a name outside the layer's block stands for the
//     block's input (Block.In), so a Block stays self-contained;
//   - several: a Concat (two or more, widths summed) or an Add (two).
//
// In-place layers (Caffe's ReLUs) are their own producers: a Concat names
// the ReLUs that last wrote its bottoms. Model.Graph resolves the names
// into Nodes (indices of Inputs and Readers, the Sizes each layer runs on
// and produces, its input width) and checks the whole: unique names,
// inputs that exist and come first, widths and sizes that agree. A
// consumer reads fusion off it: layers sharing an input are the Readers of
// one node (TensorRT fuses parallel 1x1 convolutions of one input), a BN
// or activation whose input is a convolution read by it alone can fuse
// into that kernel, a Concat's Inputs are the producers that can write its
// output in place. Block methods (Sizes, Kernels, Out) follow the same
// Inputs within the block.
//
// The model zoo builds the models of the seed papers:
//
//   - ViG and PyramidViG: the isotropic ViG-Ti/S/B and Pyramid
//     ViG-Ti/S/M/B of Han et al. (NeurIPS 2022) as their reference code
//     builds them, with any of the graph ops MRConv (default), EdgeConv,
//     GIN and SAGE; LookupModel finds them by name ("vig-s", "pvig-m",
//     ...; ModelNames lists them). Their MACs are within 1.2 % of the
//     published figures. GrapherBlock, FFNBlock, DownsampleBlock,
//     HeadBlock and the stems are exported for searches that build their
//     own networks.
//   - SupernetViG and MaGNASSpace: subnets of MaGNAS's ViG-S supernet
//     (4 superblocks of depth, graph op, fc1 and FFN switches and FFN
//     width; 144^4 architectures).
//   - GNN: multi-layer node-classification GNNs (one block per layer, GAT
//     heads per layer), as FGNAS and G-CoS search them.
//   - The CNN zoo (cnn.go, cnn2.go): GoogleNet (Inception v1) and AlexNet
//     as BVLC Caffe's deploy.prototxt defines them, VGG-16, VGG-19,
//     ResNet-18, -50, -101, -152 (v1.5), DenseNet-121 and MobileNetV2 as
//     torchvision builds them, MobileNet v1 as Keras Applications names
//     it, Inception-v4 and Inception-ResNet-v2 as timm builds them at
//     299 x 299 (cnn3.go; their 1x7, 7x1, 1x3 and 3x1 convolutions are
//     rectangular windows, Layer.WindowW) ("resnet18", "resnet152",
//     "vgg19", "densenet121", "mobilenet-v1", "inception-v4",
//     "inception-resnet-v2": their MACs and parameters within 1 % of
//     torchvision's weights metadata, MobileNet's paper and timm's model
//     cards), every layer named
//     as there ("inception_3a/3x3_reduce", "norm1",
//     "layer1.0.downsample.0", "features.2.conv.1.0"), on a 224 x 224
//     grid (AlexNet: 227, its reference input). LookupModel finds them as
//     "googlenet", "alexnet", "vgg16", "resnet50", "resnet101",
//     "mobilenetv2". Their MACs and parameters (Model.Params) are checked
//     against published figures (cnn_test.go cites each): all within
//     0.3 %, but GoogleNet's MACs, 1.583 G against the paper's round
//     "budget of 1.5 billion multiply-adds" (+5.5 %; its parameters match
//     the BVLC model's 6.999 M).
//
// Model.Params counts learnt parameters (conv, FC and graph-layer weights
// and biases, BN scale and shift), the figure model zoos publish beside
// MACs.
//
// # Model files
//
// ModelSpec is the YAML form of a model every command can take instead of
// a zoo name (ResolveModelSpec: a zoo name, else a file path): a GNN stack
// layer by layer (kind gcn / gin / sage / gat / edgeconv / mrconv / fc,
// width, heads, aggregation, activation, k), built on the graph the
// command supplies, or a zoo model with overrides (its name, a ViG's
// graph op). Files are decoded strictly (internal/strictyaml: unknown keys
// and non-integer widths are errors naming the key) and capped at
// MaxModelFileBytes.
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
// Left out: the sparsity of inputs other than a layer's own (density set
// per layer, not propagated), the row-length profile of a sparse input
// (only its non-zeros are counted), sparse inputs of SAGE, SAGEMax, the ViG
// layers and convolutions (counted dense: their first step on X is not a
// product with weights), dropout (an identity at inference), dilated and
// asymmetric convolution windows, training work (the kernels are inference's), dilation of
// the k-NN graph (it changes which neighbours, not how many), jobs of more
// than one layer, job priorities, deadlines and dependencies between jobs.
package workload
