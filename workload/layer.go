package workload

import (
	"errors"
	"fmt"
	"math"
)

// Size is the graph a layer runs on, as far as cost is concerned: its nodes
// (or pixels, for convolutions) and the stored entries of its adjacency
// matrix without self-loops (2E for an undirected graph of E edges, N*k for
// a directed k-nearest-neighbour graph).
//
// H and W are the height and width of the pixel grid when the nodes are one
// (Nodes = H*W), zero when unknown: a graph, or a grid that a model counts by
// its pixels alone (the ViG family). With a grid, windowed layers (Conv,
// MaxPool, AvgPool) compute their exact output grid from window, stride and
// padding; without, a stride-s layer maps N pixels to ceil(N/s^2).
type Size struct {
	Nodes int64
	NNZ   int64
	H, W  int64
}

// Grid returns the Size of an h x w pixel grid.
func Grid(h, w int64) Size { return Size{Nodes: h * w, H: h, W: w} }

// Validate reports a size no graph can have.
func (s Size) Validate() error {
	switch {
	case s.Nodes < 0:
		return fmt.Errorf("workload: size: %d nodes, want >= 0", s.Nodes)
	case s.NNZ < 0:
		return fmt.Errorf("workload: size: %d adjacency entries, want >= 0", s.NNZ)
	case s.Nodes > MaxNodes:
		return fmt.Errorf("workload: size: %d nodes, want <= %d", s.Nodes, int64(MaxNodes))
	case s.Nodes > 0 && s.NNZ/s.Nodes > s.Nodes:
		return fmt.Errorf("workload: size: %d adjacency entries exceed the %d x %d matrix", s.NNZ, s.Nodes, s.Nodes)
	case s.Nodes == 0 && s.NNZ > 0:
		return fmt.Errorf("workload: size: %d adjacency entries on an empty graph", s.NNZ)
	case s.H < 0 || s.W < 0 || (s.H == 0) != (s.W == 0):
		return fmt.Errorf("workload: size: grid %d x %d, want both > 0 (or both 0: no grid)", s.H, s.W)
	case s.H > 0 && (s.H > MaxNodes || s.W > MaxNodes || s.H*s.W != s.Nodes):
		return fmt.Errorf("workload: size: grid %d x %d does not hold %d nodes", s.H, s.W, s.Nodes)
	}
	return nil
}

// MaxNodes bounds Size.Nodes: beyond any graph gnnsim loads (2^31 rows is
// the CSR's int32 limit), low enough that node x width products of every
// kernel stay inside int64.
const MaxNodes = 1 << 31

// Layer is one layer of a network: its kind and widths, plus the few
// parameters a kind needs. It says what is computed; Kernels says what work
// that implies on a given Size. The zero value of an optional field means
// its documented default.
type Layer struct {
	Kind LayerKind
	F, G int // input and output width (features or channels)

	// Heads is the number of GAT attention heads (0 means 1). Each head
	// computes G outputs; heads are concatenated (H*G outputs) unless Last
	// is set, when they are averaged (G outputs).
	Heads int
	Last  bool

	// K is the number of neighbours per node of the k-nearest-neighbour
	// graph that KNN builds and EdgeConv, MRConv and the ViG variants of
	// GIN and SAGE aggregate over. Zero means the layer aggregates over the
	// Size's adjacency instead (a graph given from outside).
	K int

	// Groups splits a dense product into Groups independent blocks, as a
	// grouped convolution does (0 means 1): a quarter of the MACs for the
	// groups = 4 graph convolutions of ViG.
	Groups int

	// Window is the kernel size of a convolution or a windowed pooling (0
	// means 1: a 1x1 convolution or FC), Stride its stride (0 means 1), Pad
	// the zero padding on every side (0..Window-1). On a Size with a grid the
	// output is (H + 2 Pad - Window)/Stride + 1 rows (and as many columns
	// from W), rounded down, or up for a pooling with Ceil set (Caffe's
	// pooling; a last window that would start in the padding is dropped, as
	// Caffe and PyTorch do). Without a grid a layer maps Nodes pixels to
	// ceil(Nodes/Stride^2), whatever its padding.
	Window, Stride, Pad int
	Ceil                bool
	// WindowW, when positive, makes the window rectangular: Window rows by
	// WindowW columns, padded Pad rows above and below and PadW columns
	// left and right (an Inception 1x7 convolution: Window 1, WindowW 7,
	// Pad 0, PadW 3). Zero: square, PadW unused.
	WindowW, PadW int

	// LocalSize is the number of channels an LRN layer normalises over (0
	// means 5, Caffe's default; odd).
	LocalSize int

	// Flatten makes an FC layer read its whole input of N pixels as one
	// vector: F is then N times the producer's channels, and the output is
	// one node (Caffe's InnerProduct, torch.flatten before nn.Linear).
	Flatten bool

	// NoBias says a Conv or FC layer has no bias (torchvision's
	// convolutions before a BN). It changes Params only.
	NoBias bool

	// Reduce is the average-pooling ratio of the KNN candidates (Pyramid
	// ViG): each node is compared with Nodes/Reduce^2 candidates (0 means 1).
	Reduce int

	// InputDensity is the fraction of the layer's N x F input that is
	// non-zero, in (0, 1] (0 means 1: dense). It describes raw input
	// features (Cora's bag of words is 1.3 % non-zero); a hidden layer's
	// input is dense. GCN, GIN (K = 0), GAT and FC layers multiply a sparse
	// input by their weights as a sparse product (see Kernels); the other
	// kinds count their work as dense.
	InputDensity float64

	// CheapOrder lets a GCN layer on a dense input combine before it
	// aggregates, A(XW) instead of (AX)W, when that is fewer MACs (G < F:
	// (A+N) x G instead of (A+N) x F for the aggregation, the same N x F x G
	// for the combination). AWB-GCN computes A(XW) (Geng et al., MICRO
	// 2020), PyG's GCNConv applies its linear map before propagating, and
	// DGL's GraphConv picks the order by F > G. Off by default: the
	// reference models (STONNE-Omega's validation, the zoo) aggregate first,
	// and HyGCN's fixed aggregation-then-combination pipeline cannot reorder.
	CheapOrder bool

	// Fn is an Act layer's function ("gelu", "relu"; empty means ReLU,
	// the CNNs' default). It names the layer's kernel: accelerators run
	// some functions and not others (Xavier's DLA runs ReLU, not GELU).
	Fn string

	// Name is the layer's name in its reference definition (a Caffe layer
	// name, a torchvision module path), unique within a Model; empty for
	// the unnamed layers of the GNN and ViG builders.
	Name string

	// Inputs names the layers whose outputs this layer reads (see
	// Model.Graph): nil means the previous layer (the previous block's last
	// for a block's first layer; a nil-input Add also reads its block's
	// input, the residual). A name outside the layer's block means the
	// block's input. Concat reads two or more inputs, an Add two, every
	// other kind one.
	Inputs []string
}

// DefaultLocalSize is the channels an LRN layer normalises over when
// Layer.LocalSize is 0: Caffe's default (caffe.proto, LRNParameter
// local_size = 5), the size AlexNet and GoogleNet use.
const DefaultLocalSize = 5

// MaxFeatures bounds F and G: far above any layer in the seed papers, low
// enough that node x width products of the hardware models stay well inside
// int64.
const MaxFeatures = 1 << 20

func or1(x int) int64 {
	if x == 0 {
		return 1
	}
	return int64(x)
}

// outWidth is OutWidth in int64.
func (l Layer) outWidth() int64 {
	if l.Kind == GAT && !l.Last {
		return or1(l.Heads) * int64(l.G)
	}
	return int64(l.G)
}

// OutWidth returns the width of the layer's output: G, or Heads*G for a GAT
// layer that concatenates its heads.
func (l Layer) OutWidth() int { return int(l.outWidth()) }

// Params returns the layer's learnt parameters: a Conv's or FC's weights
// (Window^2 F G / Groups) and biases (G, unless NoBias), a BN's scale and
// shift (2F; its running statistics are buffers, not parameters), a graph
// layer's weights (its kernels' WeightElems: the combination's matrices,
// GAT's attention vectors) and biases (G per output; ViG's graph
// convolutions and the GNN layers of PyG carry them), none for the other
// kinds. It is what the published parameter counts of the CNN zoo count.
func (l Layer) Params() int64 {
	switch l.Kind {
	case Conv, FC:
		p := l.windowArea() * int64(l.F) * int64(l.G) / or1(l.Groups)
		if !l.NoBias {
			p += int64(l.G)
		}
		return p
	case BN:
		return 2 * int64(l.F)
	case GCN, GIN, SAGE, SAGEMax, GAT, EdgeConv, MRConv:
		dense := l
		dense.InputDensity = 0
		ks, err := dense.Kernels(Size{Nodes: 1})
		if err != nil {
			return 0
		}
		var p int64
		for _, k := range ks {
			p += k.WeightElems
		}
		return p + int64(l.OutWidth())
	}
	return 0
}

// Validate reports the first problem with l: an unknown kind, widths out of
// range, or a parameter the kind cannot take.
func (l Layer) Validate() error {
	if !l.Kind.Valid() {
		return fmt.Errorf("workload: layer: invalid kind %d", uint8(l.Kind))
	}
	bad := func(what string, v, lo, hi int) error {
		return fmt.Errorf("workload: %s layer: %s = %d, want %d..%d", l.Kind, what, v, lo, hi)
	}
	if l.F <= 0 || l.F > MaxFeatures {
		return bad("F", l.F, 1, MaxFeatures)
	}
	if l.G <= 0 || l.G > MaxFeatures {
		return bad("G", l.G, 1, MaxFeatures)
	}
	for _, p := range []struct {
		name   string
		v, max int
	}{{"heads", l.Heads, 64}, {"k", l.K, 1 << 16}, {"groups", l.Groups, 1 << 16}, {"window", l.Window, 15}, {"stride", l.Stride, 16},
		{"pad", l.Pad, 14}, {"reduce", l.Reduce, 64}, {"local size", l.LocalSize, 15}} {
		if p.v < 0 || p.v > p.max {
			return bad(p.name, p.v, 0, p.max)
		}
	}
	if g := or1(l.Groups); int64(l.F)%g != 0 || int64(l.G)%g != 0 {
		return fmt.Errorf("workload: %s layer: %d groups do not divide F = %d and G = %d", l.Kind, g, l.F, l.G)
	}
	if l.Kind.keepsWidth() && l.F != l.G {
		return fmt.Errorf("workload: %s layer keeps its width: F = %d, G = %d", l.Kind, l.F, l.G)
	}
	if l.Heads > 1 && l.Kind != GAT {
		return fmt.Errorf("workload: %s layer has no heads (heads = %d)", l.Kind, l.Heads)
	}
	if (l.Window > 1 || l.Stride > 1 || l.Pad > 0) && !l.Kind.windowed() {
		return fmt.Errorf("workload: %s layer has no window, stride or padding", l.Kind)
	}
	if l.Pad >= int(or1(l.Window)) {
		return fmt.Errorf("workload: %s layer: pad = %d, want 0..%d (below the window %d)", l.Kind, l.Pad, or1(l.Window)-1, or1(l.Window))
	}
	if l.WindowW < 0 || l.WindowW > 15 || l.PadW < 0 || (l.WindowW == 0 && l.PadW != 0) || (l.WindowW > 0 && l.PadW >= l.WindowW) {
		return fmt.Errorf("workload: %s layer: window width %d, pad width %d: want a width 1..15 and a pad below it (or neither)", l.Kind, l.WindowW, l.PadW)
	}
	if l.WindowW > 0 && !l.Kind.windowed() {
		return fmt.Errorf("workload: %s layer has no window", l.Kind)
	}
	if l.Ceil && l.Kind != MaxPool && l.Kind != AvgPool {
		return fmt.Errorf("workload: %s layer does not round its output up (ceil is for pooling)", l.Kind)
	}
	if l.LocalSize != 0 && (l.Kind != LRN || l.LocalSize%2 == 0) {
		return fmt.Errorf("workload: %s layer: local size %d, want an odd size on an lrn layer", l.Kind, l.LocalSize)
	}
	if l.NoBias && l.Kind != FC && l.Kind != Conv {
		return fmt.Errorf("workload: %s layer has no bias to leave out", l.Kind)
	}
	if l.Flatten && l.Kind != FC {
		return fmt.Errorf("workload: %s layer cannot flatten its input (only fc)", l.Kind)
	}
	if err := l.checkInputs(); err != nil {
		return err
	}
	if l.K > 0 && !l.Kind.NeighbourOp() {
		return fmt.Errorf("workload: %s layer has no neighbours (k = %d)", l.Kind, l.K)
	}
	if l.Kind == KNN && l.K == 0 {
		return errors.New("workload: knn layer needs k > 0")
	}
	if d := l.InputDensity; !(d >= 0 && d <= 1) {
		return fmt.Errorf("workload: %s layer: input density %v, want (0, 1] (0 for dense)", l.Kind, d)
	}
	return nil
}

// sparseInput reports whether the layer's first product is X x W on its
// raw input X, so that a sparse X makes it a sparse product: GCN, GIN and
// GAT (the combination can run first: A(XW) = (AX)W) and FC. SAGE
// concatenates X with an aggregation, SAGEMax and the ViG forms aggregate
// non-linearly first, convolutions gather windows, and the rest multiply
// nothing by weights: they count dense work.
func (l Layer) sparseInput() bool {
	if !(l.InputDensity > 0 && l.InputDensity < 1) {
		return false
	}
	switch l.Kind {
	case GCN, GIN:
		return l.K == 0
	case GAT, FC:
		return true
	}
	return false
}

// checkInputs reports an Inputs list the kind cannot take.
func (l Layer) checkInputs() error {
	for _, in := range l.Inputs {
		if in == "" {
			return fmt.Errorf("workload: %s layer %q: empty input name", l.Kind, l.Name)
		}
	}
	n := len(l.Inputs)
	switch {
	case l.Kind == Concat && n < 2:
		return fmt.Errorf("workload: concat layer %q: %d inputs, want 2 or more", l.Name, n)
	case l.Kind == Add && n != 0 && n != 2:
		return fmt.Errorf("workload: add layer %q: %d inputs, want 2 (or none: the previous layer and the block's input)", l.Name, n)
	case l.Kind != Concat && l.Kind != Add && n > 1:
		return fmt.Errorf("workload: %s layer %q: %d inputs, want at most 1", l.Kind, l.Name, n)
	}
	return nil
}

// Out returns the Size the layer's output lives on: a strided convolution
// or a windowed pooling shrinks the pixel grid, Pool and a flattening FC
// reduce it to one node, KNN builds the k-NN adjacency; everything else
// keeps its input's. A window larger than its padded input gives the empty
// Size (OutSize says why).
func (l Layer) Out(in Size) Size {
	out, _ := l.OutSize(in)
	return out
}

// windowW returns the window's width and the padding left and right.
func (l Layer) windowW() (w, pad int64) {
	if l.WindowW > 0 {
		return int64(l.WindowW), int64(l.PadW)
	}
	return or1(l.Window), int64(l.Pad)
}

// windowArea returns the window's rows times its columns.
func (l Layer) windowArea() int64 {
	w, _ := l.windowW()
	return or1(l.Window) * w
}

// OutSize is Out with the reason a windowed layer cannot run on in: its
// window exceeds the padded grid.
func (l Layer) OutSize(in Size) (Size, error) {
	switch l.Kind {
	case Conv, MaxPool, AvgPool:
		s := or1(l.Stride)
		if in.H == 0 {
			return Size{Nodes: ceilDiv(in.Nodes, s*s)}, nil
		}
		ceil := l.Ceil && l.Kind != Conv
		h, err := windowOut(in.H, or1(l.Window), s, int64(l.Pad), ceil)
		if err != nil {
			return Size{}, fmt.Errorf("workload: %s layer %q: height: %w", l.Kind, l.Name, err)
		}
		kw, pw := l.windowW()
		w, err := windowOut(in.W, kw, s, pw, ceil)
		if err != nil {
			return Size{}, fmt.Errorf("workload: %s layer %q: width: %w", l.Kind, l.Name, err)
		}
		return Grid(h, w), nil
	case Pool:
		return point(in), nil
	case FC:
		if l.Flatten {
			return point(in), nil
		}
	case KNN:
		return Size{Nodes: in.Nodes, NNZ: in.Nodes * min(int64(l.K), max(in.Nodes-1, 0)), H: in.H, W: in.W}, nil
	}
	return in, nil
}

// point is the one-node Size a global pooling or a flattening FC leaves:
// a 1 x 1 grid when in has a grid.
func point(in Size) Size {
	if in.H > 0 && in.Nodes > 0 {
		return Grid(1, 1)
	}
	return Size{Nodes: min(in.Nodes, 1)}
}

// windowOut is the number of windows of size k, stride s along an axis of n
// pixels padded by p on both sides, rounded down (up when ceil, dropping a
// last window that would start inside the trailing padding, as Caffe's
// and PyTorch's ceil-mode pooling do).
func windowOut(n, k, s, p int64, ceil bool) (int64, error) {
	span := n + 2*p - k
	if span < 0 {
		return 0, fmt.Errorf("window %d exceeds the %d pixels padded by %d", k, n, p)
	}
	if !ceil {
		return span/s + 1, nil
	}
	out := ceilDiv(span, s) + 1
	if p > 0 && (out-1)*s >= n+p {
		out--
	}
	return out, nil
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// neighbours returns the adjacency entries a neighbour layer aggregates
// over on in: N*k for a k-NN op, the given graph's otherwise.
func (l Layer) neighbours(in Size) int64 {
	if l.K > 0 {
		return in.Nodes * min(int64(l.K), max(in.Nodes-1, 0))
	}
	return in.NNZ
}

// Kernels returns the work the layer implies on a graph of Size in, in the
// order it runs. Every hardware model reads these kernels, so they are the
// one definition of what a layer costs in MACs, element-wise operations and
// elements moved.
//
// Per kind (N nodes, A the adjacency's entries, k-NN layers A = N*k):
//
//	GCN      SpMM over A+I (F wide), then GEMM N x F x G
//	GIN      SpMM over A+I, then the MLP: GEMM N x F x G, G x G
//	SAGE     mean over A (SpMM), then GEMM N x 2F x G on [x || mean]
//	SAGEMax  max over A (F wide), then GEMM N x 2F x G
//	GAT      per head: GEMM N x F x (G+2) (W and the two attention
//	         projections folded into it), one MAC and one softmax step per
//	         entry of A+I, SpMM over A+I (G wide)
//	EdgeConv gather [x_i, x_j - x_i] per edge, GEMM A x 2F x G, max over k
//	MRConv   gather x_j - x_i per edge, max over k, GEMM N x 2F x G
//	FC/Conv  GEMM N_out x (Window^2 F) x G (Groups divide the MACs)
//	BN, Act, Add   F element-wise operations per node
//	KNN      average pooling of the candidates (Reduce > 1: N x F
//	         additions), N x N_r x F distance MACs (N_r = N/Reduce^2),
//	         top-k per node
//	Pool     N x F additions into one node
//	MaxPool  one comparison per window element: N_out x F x Window^2
//	         (class Max, M = N_out, K = Window^2, N = F)
//	AvgPool  one addition per window element: N_out x F x Window^2
//	         (class ElementWise)
//	LRN      per element, LocalSize multiply-adds over the squares of the
//	         neighbouring channels, then scale, power and divide:
//	         N x F x (LocalSize + 3) operations (counted as operations, not
//	         MACs: the published MAC counts of the zoo count convolutions
//	         and FC layers only)
//	Softmax  per element max, exp, sum and divide: 4 N x F operations
//	Concat   a copy of its N x G output (no operations): what it costs
//	         when its producers cannot write into the output in place
//	FC with Flatten   GEMM 1 x F x G on the flattened input
//
// The ViG forms of GIN and SAGE (K > 0) follow the reference code: GIN adds
// the neighbour sum to (1+eps)x and applies a grouped 1x1 conv F -> G; SAGE
// applies a grouped 1x1 conv F -> F to every neighbour before the max, then
// a grouped 1x1 conv 2F -> G on [x || max].
//
// A sparse input (InputDensity d < 1, X of nnz(X) = round(d N F)
// non-zeros) turns the product X x W of GCN, GIN (K = 0), GAT and FC into
// an SpMM kernel (M = N, K = F, NNZ = nnz(X)) of nnz(X) x G / Groups MACs:
// every non-zero multiplies one row of W, zeros are skipped, as sparse-dense
// GNN engines do (AWB-GCN, G-CoS's sparse/dense hybrid engine). It reads
// the nnz(X) values (InElems; a unit adds its index format) and W
// (WeightElems). GCN and GIN then combine first, A(XW) instead of (AX)W
// (the same result, by associativity): zeros are skipped where X meets W,
// and aggregating first would give the combination a denser AX:
//
//	GCN      SpMM X x W (nnz(X) x G), then SpMM over A+I (G wide)
//	GIN      SpMM X x W, SpMM over A+I (G wide), GEMM N x G x G
//	GAT      per head SpMM X x W (nnz(X) x (G+2)), then as above
//	FC       SpMM X x W
//
// With InputDensity unset (or 1) every kind counts as in the table above,
// except a GCN layer with CheapOrder and G < F: GEMM N x F x G, then SpMM
// over A+I (G wide).
func (l Layer) Kernels(in Size) ([]Kernel, error) {
	return l.AppendKernels(nil, in)
}

// AppendKernels appends the layer's kernels on in to dst: the allocation-free
// form of Kernels for hot loops.
func (l Layer) AppendKernels(dst []Kernel, in Size) ([]Kernel, error) {
	if err := l.Validate(); err != nil {
		return dst, err
	}
	if err := in.Validate(); err != nil {
		return dst, err
	}
	outSize, err := l.OutSize(in)
	if err != nil {
		return dst, err
	}
	N, F, G := in.Nodes, int64(l.F), int64(l.G)
	if in.Nodes == 0 {
		return dst, nil
	}
	// Every count below is at most (entries + nodes) x width x window^2 x
	// heads, or N x N x F for KNN: refuse what int64 cannot hold.
	if big := (float64(l.neighbours(in)) + float64(N)) * float64(max(F, G)+2) * float64(l.windowArea()) * float64(or1(l.Heads)) * 2; !checkCount(big) || !checkCount(float64(N)*float64(N)*float64(F)) {
		return dst, fmt.Errorf("workload: %s layer on %d nodes, %d entries: counts overflow int64", l.Kind, N, in.NNZ)
	}
	b := kernelBuilder{N: N, F: F, groups: or1(l.Groups),
		nnzX: int64(math.Round(l.InputDensity * float64(N) * float64(F)))}
	A := l.neighbours(in)
	if l.sparseInput() {
		switch l.Kind {
		case GCN:
			return append(dst, b.xw("combine", G), b.spmm("aggregate", A+N, G)), nil
		case GIN:
			return append(dst, b.xw("combine", G), b.spmm("aggregate", A+N, G), b.gemm("combine2", N, G, G)), nil
		case FC:
			return append(dst, b.xw("fc", G)), nil
		}
	}
	if out, ok := b.appendGraphKernels(dst, l, A); ok {
		return out, nil
	}
	return b.appendOtherKernels(dst, l, outSize)
}

// KernelClass is the kind of work a kernel is, the granularity at which
// hardware models price work (a GPU's efficiency per class, what a DLA can
// run).
type KernelClass uint8

// The kernel classes.
const (
	GEMM        KernelClass = iota + 1 // dense M x K times K x N
	SpMM                               // sparse M x K (NNZ entries) times dense K x N
	EdgeWise                           // per-entry work on the adjacency (attention scores, softmax)
	Gather                             // per-edge gather of neighbour features
	Max                                // max-reduction over neighbours
	ElementWise                        // per-element work (BN, activation, residual, pooling)
	KNNDist                            // pairwise distances M x N over K dimensions
	TopK                               // top-k selection of N among K per row
)

var classNames = [...]string{GEMM: "gemm", SpMM: "spmm", EdgeWise: "edgewise", Gather: "gather", Max: "max",
	ElementWise: "elementwise", KNNDist: "knn", TopK: "topk"}

func (c KernelClass) String() string {
	if c >= GEMM && c <= TopK {
		return classNames[c]
	}
	return fmt.Sprintf("KernelClass(%d)", uint8(c))
}

// Kernel is one piece of a layer's work. Dimensions follow the class: a GEMM
// multiplies M x K by K x N (MACs = M*K*N / groups); an SpMM multiplies an
// M x K sparse matrix of NNZ entries by a dense K x N one; element-wise
// classes do Ops operations over M rows of N. Elements moved are counted in
// words (InElems read, WeightElems of parameters, OutElems written); a unit
// turns them into bytes at its own word size.
type Kernel struct {
	Class   KernelClass
	Name    string
	M, K, N int64
	NNZ     int64
	MACs    int64
	Ops     int64 // non-MAC operations (comparisons, additions, activations)

	InElems, WeightElems, OutElems int64
}

// Elems returns every element the kernel moves.
func (k Kernel) Elems() int64 { return k.InElems + k.WeightElems + k.OutElems }

// Totals sums the MACs, operations and elements moved of ks.
func Totals(ks []Kernel) (macs, ops, elems int64) {
	for _, k := range ks {
		macs += k.MACs
		ops += k.Ops
		elems += k.Elems()
	}
	return
}

// checkCount is true when x is a count a kernel can hold.
func checkCount(x float64) bool { return x >= 0 && x < math.MaxInt64/4 }
