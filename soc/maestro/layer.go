package maestro

import (
	"fmt"
	"math"
)

// LayerType selects MAESTRO's layer semantics: which dimensions index
// which tensor.
type LayerType uint8

const (
	// Conv is MAESTRO's CONV: input[N][C][Y][X], weight[K][C][R][S],
	// output[N][K][Y'][X'].
	Conv LayerType = iota
	// DepthwiseConv is MAESTRO's DSCONV: input[C][Y][X], weight[C][R][S],
	// output[C][Y'][X']; K plays no part (MAESTRO keeps it as a dimension,
	// of size 1 here).
	DepthwiseConv
	// GEMM is MAESTRO's GEMM: input[M][K] x weight[K][N] = output[M][N].
	GEMM
)

func (t LayerType) String() string {
	switch t {
	case Conv:
		return "CONV"
	case DepthwiseConv:
		return "DSCONV"
	case GEMM:
		return "GEMM"
	}
	return fmt.Sprintf("LayerType(%d)", uint8(t))
}

// ParseLayerType reads MAESTRO's layer type names CONV, DSCONV and GEMM.
func ParseLayerType(s string) (LayerType, error) {
	switch s {
	case "CONV":
		return Conv, nil
	case "DSCONV":
		return DepthwiseConv, nil
	case "GEMM":
		return GEMM, nil
	}
	return 0, fmt.Errorf("maestro: unknown layer type %q (want CONV, DSCONV or GEMM)", s)
}

// Layer holds the loop bounds of a layer in MAESTRO's terms.
//
// For Conv and DepthwiseConv: K output channels, C input channels, an R x S
// filter over a Y x X input (Y and X are input rows and columns, as in
// MAESTRO; the output is Y' x X' with Y' = (Y-R)/Stride + 1), N the batch
// (0 or 1: no batch dimension, as in the reference runs) and Stride the
// stride on Y and X (0 or 1: unit stride).
//
// For GEMM: an M x K input times a K x N weight; N is then the number of
// output columns, not a batch.
type Layer struct {
	Type                LayerType
	K, C, R, S, Y, X, N int
	M                   int // GEMM only
	Stride              int // Conv and DepthwiseConv only
}

// MatMul returns the M x K times K x N product as MAESTRO's "flat" 1x1
// convolution (K' = n output channels, C = k input channels, Y = m rows,
// X = 1), the encoding the convolution dataflows (kcp_ws, ykp_os, dpt, ...)
// accept. It is how a MaGNAS DSA runs an FC layer over m nodes and the
// dense aggregation A(n x n) * X(n x c) = MatMul(n, n, c).
func MatMul(m, k, n int) Layer {
	return Layer{Type: Conv, K: n, C: k, R: 1, S: 1, Y: m, X: 1}
}

// GEMMLayer returns the M x K times K x N product as MAESTRO's GEMM layer
// type, for the GEMM dataflows (gemm_nmk, gemm_kcp_ws).
func GEMMLayer(m, k, n int) Layer {
	return Layer{Type: GEMM, M: m, K: k, N: n}
}

func (l Layer) stride() int {
	if l.Stride <= 1 {
		return 1
	}
	return l.Stride
}

// Validate reports dimensions that are not positive, filters larger than
// their input and other shapes MAESTRO cannot analyse.
func (l Layer) Validate() error {
	const max = 1 << 24
	check := func(name string, v int, zeroOK bool) error {
		if v < 0 || v > max || (v == 0 && !zeroOK) {
			return fmt.Errorf("maestro: %s layer: %s = %d, want 1..%d", l.Type, name, v, max)
		}
		return nil
	}
	switch l.Type {
	case Conv, DepthwiseConv:
		for _, f := range []struct {
			name   string
			v      int
			zeroOK bool
		}{{"K", l.K, l.Type == DepthwiseConv}, {"C", l.C, false}, {"R", l.R, false}, {"S", l.S, false},
			{"Y", l.Y, false}, {"X", l.X, false}, {"N", l.N, true}, {"Stride", l.Stride, true}} {
			if err := check(f.name, f.v, f.zeroOK); err != nil {
				return err
			}
		}
		if l.R > l.Y || l.S > l.X {
			return fmt.Errorf("maestro: %s layer: %dx%d filter larger than the %dx%d input", l.Type, l.R, l.S, l.Y, l.X)
		}
		if l.M != 0 {
			return fmt.Errorf("maestro: %s layer: M = %d is a GEMM dimension", l.Type, l.M)
		}
	case GEMM:
		for _, f := range []struct {
			name string
			v    int
		}{{"M", l.M}, {"K", l.K}, {"N", l.N}} {
			if err := check(f.name, f.v, false); err != nil {
				return err
			}
		}
		if l.C != 0 || l.R != 0 || l.S != 0 || l.Y != 0 || l.X != 0 || l.Stride > 1 {
			return fmt.Errorf("maestro: GEMM layer: only M, K and N may be set")
		}
	default:
		return fmt.Errorf("maestro: unknown layer type %d", l.Type)
	}
	if m := l.MACs(); m <= 0 || m > math.MaxInt64/4 {
		return fmt.Errorf("maestro: %s layer: %d MACs out of range", l.Type, m)
	}
	return nil
}

// OutY and OutX are the output rows and columns of a convolution.
func (l Layer) OutY() int { return (l.Y-l.R)/l.stride() + 1 }

// OutX is the number of output columns of a convolution.
func (l Layer) OutX() int { return (l.X-l.S)/l.stride() + 1 }

// MACs is the layer's true multiply-accumulate count. MAESTRO's own count
// (Result.MACs) agrees except for dataflows it mis-tiles (yxp_os on strided
// convolutions).
func (l Layer) MACs() int64 {
	n := int64(max(l.N, 1))
	switch l.Type {
	case Conv:
		return n * int64(l.K) * int64(l.C) * int64(l.R) * int64(l.S) * int64(l.OutY()) * int64(l.OutX())
	case DepthwiseConv:
		return n * int64(l.C) * int64(l.R) * int64(l.S) * int64(l.OutY()) * int64(l.OutX())
	case GEMM:
		return int64(l.M) * int64(l.K) * int64(l.N)
	}
	return 0
}

func (l Layer) String() string {
	switch l.Type {
	case GEMM:
		return fmt.Sprintf("GEMM M=%d K=%d N=%d", l.M, l.K, l.N)
	default:
		s := fmt.Sprintf("%s K=%d C=%d R=%d S=%d Y=%d X=%d", l.Type, l.K, l.C, l.R, l.S, l.Y, l.X)
		if l.N > 1 {
			s += fmt.Sprintf(" N=%d", l.N)
		}
		if l.stride() > 1 {
			s += fmt.Sprintf(" stride=%d", l.stride())
		}
		return s
	}
}

// tensor is one operand of a layer: the dimensions indexing it, in
// MAESTRO's order, and as a bit set.
type tensor struct {
	vars [5]Dim
	n    int
	mask uint16
}

func newTensor(ds ...Dim) tensor {
	var t tensor
	for _, d := range ds {
		t.vars[t.n] = d
		t.n++
		t.mask |= 1 << d
	}
	return t
}

func (t *tensor) has(d Dim) bool { return t.mask&(1<<d) != 0 }

// Tensor indices.
const (
	tIn = iota
	tW
	tOut
	numTensors
)

// problem is a layer in MAESTRO's internal form: dimension sizes, strides,
// the sliding-window pairs and the tensors.
type problem struct {
	dims    [numDims]int // 0: absent
	stride  [numDims]int
	overlap bool // conv: (Y, R) and (X, S) overlap
	tensors [numTensors]tensor
	inVars  uint16 // dimensions of the input tensors (input and weight)
}

func (l Layer) problem() problem {
	var p problem
	for i := range p.stride {
		p.stride[i] = 1
	}
	switch l.Type {
	case Conv, DepthwiseConv:
		p.overlap = true
		k := l.K
		if l.Type == DepthwiseConv && k == 0 {
			k = 1
		}
		p.dims[DimK], p.dims[DimC], p.dims[DimR], p.dims[DimS] = k, l.C, l.R, l.S
		p.dims[DimY], p.dims[DimX] = l.Y, l.X
		// MAESTRO derives Y' and X' without the stride; the stride enters
		// through the offsets of the Y and X directives.
		p.dims[DimYo], p.dims[DimXo] = l.Y-l.R+1, l.X-l.S+1
		s := l.stride()
		p.stride[DimY], p.stride[DimX], p.stride[DimYo], p.stride[DimXo] = s, s, s, s
		batch := l.N > 1
		if batch {
			p.dims[DimN] = l.N
		}
		switch {
		case l.Type == DepthwiseConv && batch:
			p.tensors = [numTensors]tensor{newTensor(DimN, DimC, DimY, DimX), newTensor(DimC, DimR, DimS), newTensor(DimN, DimC, DimY, DimX)}
		case l.Type == DepthwiseConv:
			p.tensors = [numTensors]tensor{newTensor(DimC, DimY, DimX), newTensor(DimC, DimR, DimS), newTensor(DimC, DimY, DimX)}
		case batch:
			p.tensors = [numTensors]tensor{newTensor(DimN, DimC, DimY, DimX), newTensor(DimK, DimC, DimR, DimS), newTensor(DimN, DimK, DimY, DimX)}
		default:
			p.tensors = [numTensors]tensor{newTensor(DimC, DimY, DimX), newTensor(DimK, DimC, DimR, DimS), newTensor(DimK, DimY, DimX)}
		}
	case GEMM:
		p.dims[DimM], p.dims[DimN], p.dims[DimK] = l.M, l.N, l.K
		p.tensors = [numTensors]tensor{newTensor(DimM, DimK), newTensor(DimK, DimN), newTensor(DimM, DimN)}
	}
	p.inVars = p.tensors[tIn].mask | p.tensors[tW].mask
	return p
}

// slidingOf returns the filter dimension sliding over reference dimension
// d (R over Y, S over X) for convolutions.
func (p *problem) slidingOf(d Dim) (Dim, bool) {
	if !p.overlap {
		return 0, false
	}
	switch d {
	case DimY:
		return DimR, true
	case DimX:
		return DimS, true
	}
	return 0, false
}

// isReference reports a dimension a filter slides over (Y, X).
func (p *problem) isReference(d Dim) bool {
	_, ok := p.slidingOf(d)
	return ok
}
