package workload

import (
	"fmt"
	"slices"
)

// kernelBuilder makes the kernels of one layer on one input. It binds the
// input's shape once (N nodes of F features, the channel groups, the
// non-zeros of a sparse input X) so that each kind states only what
// differs. It is a value on AppendKernels' stack: building kernels
// allocates nothing.
type kernelBuilder struct {
	N, F, groups, nnzX int64
}

// gemm is a dense m x k x n product, its weights split into b.groups.
func (b *kernelBuilder) gemm(name string, m, k, n int64) Kernel {
	return Kernel{Class: GEMM, Name: name, M: m, K: k, N: n, MACs: m * k * n / b.groups,
		InElems: m * k, WeightElems: k * n / b.groups, OutElems: m * n}
}

// spmm is an aggregation over nnz adjacency entries, width features each.
func (b *kernelBuilder) spmm(name string, nnz, width int64) Kernel {
	N := b.N
	return Kernel{Class: SpMM, Name: name, M: N, K: N, N: width, NNZ: nnz, MACs: nnz * width,
		InElems: N*width + nnz, OutElems: N * width}
}

// ew is node-wise work of the given class on the N x F input.
func (b *kernelBuilder) ew(class KernelClass, name string, ops, in, out int64) Kernel {
	return Kernel{Class: class, Name: name, M: b.N, N: b.F, Ops: ops, InElems: in, OutElems: out}
}

// xw is X x W on a sparse input: nnz(X) non-zeros, each multiplying one
// row of W (the kinds of sparseInput only).
func (b *kernelBuilder) xw(name string, width int64) Kernel {
	N, F, nnzX := b.N, b.F, b.nnzX
	return Kernel{Class: SpMM, Name: name, M: N, K: F, N: width, NNZ: nnzX, MACs: nnzX * width / b.groups,
		InElems: nnzX, WeightElems: F * width / b.groups, OutElems: N * width}
}

// appendGraphKernels appends the kernels of a message-passing layer (GCN,
// GIN, SAGE, SAGEMax, GAT, EdgeConv, MRConv) with A neighbour entries; ok
// is false for the other kinds, which appendOtherKernels handles. The
// sparse-input forms of GCN and GIN are AppendKernels' (GAT's is here, as
// it is per head). These kinds stand apart as the ones that read the
// graph (its A entries, GAT's heads) and, the layer validated, cannot fail.
func (b *kernelBuilder) appendGraphKernels(dst []Kernel, l Layer, A int64) (out []Kernel, ok bool) {
	N, F, G := b.N, b.F, int64(l.G)
	switch l.Kind {
	case GCN:
		if l.CheapOrder && G < F {
			return append(dst, b.gemm("combine", N, F, G), b.spmm("aggregate", A+N, G)), true
		}
		dst = append(dst, b.spmm("aggregate", A+N, F), b.gemm("combine", N, F, G))
	case GIN:
		if l.K > 0 {
			dst = append(dst, b.spmm("aggregate", A+N, F), b.gemm("combine", N, F, G))
		} else {
			dst = append(dst, b.spmm("aggregate", A+N, F), b.gemm("combine", N, F, G), b.gemm("combine2", N, G, G))
		}
	case SAGE:
		if l.K > 0 { // ViG's GraphSAGE: nn1 on every neighbour, max, nn2
			dst = append(dst, b.gemm("neighbour", A, F, F), b.ew(Max, "aggregate", A*F, A*F, N*F), b.gemm("combine", N, 2*F, G))
		} else {
			dst = append(dst, b.spmm("aggregate", A, F), b.gemm("combine", N, 2*F, G))
		}
	case SAGEMax:
		dst = append(dst, b.ew(Max, "aggregate", A*F, A*F+A, N*F), b.gemm("combine", N, 2*F, G))
	case GAT:
		h := or1(l.Heads)
		// Every head does the same work.
		comb := b.gemm("combine", N, F, G+2)
		if l.sparseInput() {
			comb = b.xw("combine", G+2)
		}
		attn := Kernel{Class: EdgeWise, Name: "attention", M: N, K: N, N: 1, NNZ: A + N, MACs: A + N, Ops: 3 * (A + N), InElems: 2*N + A, OutElems: A + N}
		aggr := b.spmm("aggregate", A+N, G)
		dst = slices.Grow(dst, 3*int(h)+1)
		for range h {
			dst = append(dst, comb, attn, aggr)
		}
		if l.Last && h > 1 {
			dst = append(dst, Kernel{Class: ElementWise, Name: "head-mean", M: N, N: G, Ops: h * N * G, InElems: h * N * G, OutElems: N * G})
		}
	case EdgeConv:
		dst = append(dst,
			Kernel{Class: Gather, Name: "gather", M: N, K: N, N: 2 * F, NNZ: A, Ops: A * F, InElems: N*F + A, OutElems: 2 * A * F},
			b.gemm("edge-mlp", A, 2*F, G),
			b.ew(Max, "aggregate", A*G, A*G, N*G))
	case MRConv:
		dst = append(dst,
			Kernel{Class: Gather, Name: "gather", M: N, K: N, N: F, NNZ: A, Ops: A * F, InElems: N*F + A, OutElems: A * F},
			b.ew(Max, "aggregate", A*F, A*F, N*F),
			b.gemm("combine", N, 2*F, G))
	default:
		return dst, false
	}
	return dst, true
}

// appendOtherKernels appends the kernels of the kinds outside message
// passing: dense and convolution layers, element-wise layers, the k-NN
// graph construction and poolings. They stand apart as the kinds that
// read no adjacency but the layer's output size (outSize: the windowed
// kinds), and the ones that can still refuse a layer (a flatten that does
// not divide, a kind without kernels).
func (b *kernelBuilder) appendOtherKernels(dst []Kernel, l Layer, outSize Size) ([]Kernel, error) {
	N, F, G := b.N, b.F, int64(l.G)
	switch l.Kind {
	case FC:
		if l.Flatten {
			if F%N != 0 {
				return dst, fmt.Errorf("workload: fc layer %q flattens %d pixels into F = %d, not a multiple", l.Name, N, F)
			}
			k := b.gemm("fc", 1, F, G)
			dst = append(dst, k)
			break
		}
		dst = append(dst, b.gemm("fc", N, F, G))
	case Conv:
		out := outSize.Nodes
		k := b.gemm("conv", out, l.windowArea()*F, G)
		k.InElems = N * F // each input pixel is read once (im2col is the unit's business)
		dst = append(dst, k)
	case BN, Act, Add:
		reads := N * F
		if l.Kind == Add { // a residual reads both operands
			reads *= 2
		}
		name := l.Kind.String()
		if l.Kind == Act && l.Fn != "" {
			name = l.Fn
		}
		dst = append(dst, b.ew(ElementWise, name, N*F, reads, N*F))
	case KNN:
		r := or1(l.Reduce)
		cand := ceilDiv(N, r*r)
		k := min(int64(l.K), max(cand-1, 0))
		if r > 1 { // the candidates are the nodes average-pooled r x r
			dst = append(dst, b.ew(ElementWise, "pool-candidates", N*F, N*F, cand*F))
		}
		dst = append(dst,
			Kernel{Class: KNNDist, Name: "distances", M: N, K: F, N: cand, MACs: N * cand * F, InElems: (N + cand) * F, OutElems: N * cand},
			Kernel{Class: TopK, Name: "top-k", M: N, K: cand, N: k, Ops: N * cand, InElems: N * cand, OutElems: N * k})
	case Pool:
		dst = append(dst, b.ew(ElementWise, "pool", N*F, N*F, F))
	case MaxPool, AvgPool:
		out, a := outSize.Nodes, l.windowArea()
		k := Kernel{Class: Max, Name: "maxpool", M: out, K: a, N: F, Ops: out * F * a, InElems: N * F, OutElems: out * F}
		if l.Kind == AvgPool {
			k.Class, k.Name = ElementWise, "avgpool"
		}
		dst = append(dst, k)
	case LRN:
		n := int64(l.LocalSize)
		if n == 0 {
			n = DefaultLocalSize
		}
		dst = append(dst, b.ew(ElementWise, "lrn", N*F*(n+3), N*F, N*F))
	case Softmax:
		dst = append(dst, b.ew(ElementWise, "softmax", 4*N*F, N*F, N*F))
	case Concat:
		dst = append(dst, b.ew(ElementWise, "concat", 0, N*G, N*G))
	default:
		return dst, fmt.Errorf("workload: layer kind %s has no kernels", l.Kind)
	}
	return dst, nil
}
