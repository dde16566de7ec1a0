package hadas

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/search"
	"gnnsim/workload"
)

// Stage is one of the seven MBConv stages of an AttentiveNAS network:
// Depth blocks of Width output channels, depthwise kernel Kernel and
// expansion ratio Expand.
type Stage struct {
	Depth, Width, Kernel, Expand int
}

// Arch is an AttentiveNAS subnet (HADAS Table II): input resolution, the
// first convolution's width, seven stages and the last convolution's
// width.
type Arch struct {
	Res       int
	FirstConv int
	Stages    [7]Stage
	LastConv  int
}

// String renders the architecture compactly: "r224 c16 d1.w16.k3.e1|...|l1984".
func (a Arch) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "r%d c%d ", a.Res, a.FirstConv)
	for i, s := range a.Stages {
		if i > 0 {
			b.WriteByte('|')
		}
		fmt.Fprintf(&b, "d%d.w%d.k%d.e%d", s.Depth, s.Width, s.Kernel, s.Expand)
	}
	fmt.Fprintf(&b, " l%d", a.LastConv)
	return b.String()
}

// Depth is the number of MBConv blocks: the backbone's M.
func (a Arch) Depth() int {
	n := 0
	for _, s := range a.Stages {
		n += s.Depth
	}
	return n
}

// StageChoices are one stage's choices in the AttentiveNAS space.
type StageChoices struct {
	Depths, Widths, Kernels, Expands []int
	Stride                           int
	SE                               bool
}

// AttentiveSpace is the AttentiveNAS supernet (HADAS Table II; the
// choices and strides are AttentiveNAS's supernet_config,
// facebookresearch/AttentiveNAS configs/eval_attentive_nas_models.yml at
// 9b3bedd: swish activations, SE in stages 3, 5, 6, 7, the MobileNetV3
// head).
type AttentiveSpace struct {
	Resolutions []int
	FirstConv   []int
	Stages      [7]StageChoices
	LastConv    []int
}

// AttentiveNAS returns the AttentiveNAS supernet space.
func AttentiveNAS() AttentiveSpace {
	return AttentiveSpace{
		Resolutions: []int{192, 224, 256, 288},
		FirstConv:   []int{16, 24},
		Stages: [7]StageChoices{
			{Depths: []int{1, 2}, Widths: []int{16, 24}, Kernels: []int{3, 5}, Expands: []int{1}, Stride: 1},
			{Depths: []int{3, 4, 5}, Widths: []int{24, 32}, Kernels: []int{3, 5}, Expands: []int{4, 5, 6}, Stride: 2},
			{Depths: []int{3, 4, 5, 6}, Widths: []int{32, 40}, Kernels: []int{3, 5}, Expands: []int{4, 5, 6}, Stride: 2, SE: true},
			{Depths: []int{3, 4, 5, 6}, Widths: []int{64, 72}, Kernels: []int{3, 5}, Expands: []int{4, 5, 6}, Stride: 2},
			{Depths: []int{3, 4, 5, 6, 7, 8}, Widths: []int{112, 120, 128}, Kernels: []int{3, 5}, Expands: []int{4, 5, 6}, Stride: 1, SE: true},
			{Depths: []int{3, 4, 5, 6, 7, 8}, Widths: []int{192, 200, 208, 216}, Kernels: []int{3, 5}, Expands: []int{6}, Stride: 2, SE: true},
			{Depths: []int{1, 2}, Widths: []int{216, 224}, Kernels: []int{3, 5}, Expands: []int{6}, Stride: 1, SE: true},
		},
		LastConv: []int{1792, 1984},
	}
}

// Baselines returns AttentiveNAS's published models a0-a6 (the same
// configuration file), in order.
func Baselines() []Arch {
	mk := func(res int, w [9]int, k, e, d [7]int) Arch {
		a := Arch{Res: res, FirstConv: w[0], LastConv: w[8]}
		for i := range 7 {
			a.Stages[i] = Stage{Depth: d[i], Width: w[i+1], Kernel: k[i], Expand: e[i]}
		}
		return a
	}
	return []Arch{
		mk(192, [9]int{16, 16, 24, 32, 64, 112, 192, 216, 1792}, [7]int{3, 3, 3, 3, 3, 3, 3}, [7]int{1, 4, 4, 4, 4, 6, 6}, [7]int{1, 3, 3, 3, 3, 3, 1}),
		mk(224, [9]int{16, 16, 24, 32, 64, 112, 192, 216, 1984}, [7]int{3, 3, 3, 5, 3, 5, 3}, [7]int{1, 4, 4, 4, 4, 6, 6}, [7]int{1, 3, 3, 3, 3, 3, 1}),
		mk(224, [9]int{16, 16, 24, 32, 64, 112, 200, 224, 1984}, [7]int{3, 3, 3, 3, 3, 5, 3}, [7]int{1, 4, 5, 4, 4, 6, 6}, [7]int{1, 3, 3, 3, 3, 4, 1}),
		mk(224, [9]int{16, 16, 24, 32, 64, 112, 208, 224, 1984}, [7]int{3, 3, 3, 5, 3, 3, 3}, [7]int{1, 4, 4, 4, 4, 6, 6}, [7]int{2, 3, 3, 4, 3, 5, 1}),
		mk(256, [9]int{16, 16, 24, 32, 64, 112, 192, 216, 1984}, [7]int{3, 3, 3, 5, 3, 5, 3}, [7]int{1, 4, 4, 5, 4, 6, 6}, [7]int{1, 3, 3, 4, 3, 5, 1}),
		mk(256, [9]int{16, 16, 24, 32, 72, 112, 192, 216, 1792}, [7]int{3, 3, 3, 5, 3, 3, 3}, [7]int{1, 4, 5, 4, 4, 6, 6}, [7]int{1, 3, 3, 3, 4, 6, 1}),
		mk(288, [9]int{16, 16, 24, 32, 64, 112, 216, 224, 1984}, [7]int{3, 3, 3, 3, 3, 5, 3}, [7]int{1, 4, 6, 5, 4, 6, 6}, [7]int{1, 3, 3, 4, 4, 6, 1}),
	}
}

// PublishedMFLOPs are AttentiveNAS a0-a6's multiply-adds on ImageNet
// (1000 classes), in millions (AttentiveNAS README).
var PublishedMFLOPs = []float64{203, 279, 317, 357, 444, 491, 709}

// Size returns the number of architectures of the space.
func (s AttentiveSpace) Size() float64 {
	n := float64(len(s.Resolutions) * len(s.FirstConv) * len(s.LastConv))
	for _, st := range s.Stages {
		n *= float64(len(st.Depths) * len(st.Widths) * len(st.Kernels) * len(st.Expands))
	}
	return n
}

// Genes are: resolution, first conv, then per stage depth, width, kernel,
// expansion, then last conv.
func (s AttentiveSpace) searchSpace() (*search.Space, error) {
	vars := []search.Variable{{Name: "res", Choices: len(s.Resolutions)}, {Name: "first", Choices: len(s.FirstConv)}}
	for i, st := range s.Stages {
		vars = append(vars,
			search.Variable{Name: fmt.Sprintf("mb%d.d", i+1), Choices: len(st.Depths)},
			search.Variable{Name: fmt.Sprintf("mb%d.w", i+1), Choices: len(st.Widths)},
			search.Variable{Name: fmt.Sprintf("mb%d.k", i+1), Choices: len(st.Kernels)},
			search.Variable{Name: fmt.Sprintf("mb%d.e", i+1), Choices: len(st.Expands)})
	}
	vars = append(vars, search.Variable{Name: "last", Choices: len(s.LastConv)})
	return search.NewSpace(vars...)
}

// Decode returns the architecture of genome g (of searchSpace).
func (s AttentiveSpace) Decode(g []int) (Arch, error) {
	if len(g) != 3+4*7 {
		return Arch{}, fmt.Errorf("hadas: attentive genome of %d genes, want %d", len(g), 3+4*7)
	}
	pick := func(xs []int, i int) (int, error) {
		if i < 0 || i >= len(xs) {
			return 0, fmt.Errorf("hadas: gene %d out of %d choices", i, len(xs))
		}
		return xs[i], nil
	}
	var a Arch
	var err error
	if a.Res, err = pick(s.Resolutions, g[0]); err != nil {
		return a, err
	}
	if a.FirstConv, err = pick(s.FirstConv, g[1]); err != nil {
		return a, err
	}
	for i, st := range s.Stages {
		o := 2 + 4*i
		d, e1 := pick(st.Depths, g[o])
		w, e2 := pick(st.Widths, g[o+1])
		k, e3 := pick(st.Kernels, g[o+2])
		e, e4 := pick(st.Expands, g[o+3])
		if err := firstErr(e1, e2, e3, e4); err != nil {
			return a, err
		}
		a.Stages[i] = Stage{Depth: d, Width: w, Kernel: k, Expand: e}
	}
	a.LastConv, err = pick(s.LastConv, g[len(g)-1])
	return a, err
}

// Encode returns the genome of a, or an error if a is outside the space.
func (s AttentiveSpace) Encode(a Arch) ([]int, error) {
	idx := func(xs []int, v int, what string) (int, error) {
		i := slices.Index(xs, v)
		if i < 0 {
			return 0, fmt.Errorf("hadas: %s %d not in the AttentiveNAS space", what, v)
		}
		return i, nil
	}
	g := make([]int, 0, 31)
	for _, x := range []struct {
		xs   []int
		v    int
		what string
	}{{s.Resolutions, a.Res, "resolution"}, {s.FirstConv, a.FirstConv, "first conv width"}} {
		i, err := idx(x.xs, x.v, x.what)
		if err != nil {
			return nil, err
		}
		g = append(g, i)
	}
	for si, st := range s.Stages {
		sa := a.Stages[si]
		for _, x := range []struct {
			xs   []int
			v    int
			what string
		}{{st.Depths, sa.Depth, "depth"}, {st.Widths, sa.Width, "width"}, {st.Kernels, sa.Kernel, "kernel"}, {st.Expands, sa.Expand, "expansion"}} {
			i, err := idx(x.xs, x.v, fmt.Sprintf("stage %d %s", si+1, x.what))
			if err != nil {
				return nil, err
			}
			g = append(g, i)
		}
	}
	i, err := idx(s.LastConv, a.LastConv, "last conv width")
	if err != nil {
		return nil, err
	}
	return append(g, i), nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// makeDivisible rounds v to a multiple of 8 as OFA's make_divisible does
// (never below 8, never more than 10 % down).
func makeDivisible(v float64) int {
	n := max(8, int(v+4)/8*8)
	if float64(n) < 0.9*v {
		n += 8
	}
	return n
}

// Backbone returns the work of a on a classes-way classifier: the stem (3x3
// conv, stride 2), the MBConv blocks (1x1 expansion unless the ratio is 1,
// k x k depthwise conv as a grouped conv with Groups = channels, SE where the
// stage has it, 1x1 projection, residual when shape allows), and the
// MobileNetV3 head (1x1 conv to 6x the last width, pooling, 1x1 conv to
// LastConv, classifier). Each MBConv is one computing block: an exit
// position.
func (s AttentiveSpace) Backbone(a Arch, classes int) (*Backbone, error) {
	if a.Res <= 0 || a.FirstConv <= 0 || a.LastConv <= 0 || classes <= 0 {
		return nil, fmt.Errorf("hadas: architecture %v: non-positive size", a)
	}
	var blocks []workload.Block
	var end []int
	px := int64(a.Res) * int64(a.Res)
	stem := workload.Block{Name: "stem", Kind: workload.Stem, In: workload.Size{Nodes: px}, Layers: []workload.Layer{
		{Kind: workload.Conv, F: 3, G: a.FirstConv, Window: 3, Stride: 2},
		{Kind: workload.BN, F: a.FirstConv, G: a.FirstConv},
		{Kind: workload.Act, F: a.FirstConv, G: a.FirstConv},
	}}
	blocks = append(blocks, stem)
	px = stem.Out().Nodes
	in := a.FirstConv
	for si, st := range a.Stages {
		if st.Depth <= 0 || st.Width <= 0 || st.Kernel <= 0 || st.Expand <= 0 {
			return nil, fmt.Errorf("hadas: architecture %v: stage %d has a non-positive size", a, si+1)
		}
		for j := range st.Depth {
			stride := 1
			if j == 0 {
				stride = s.Stages[si].Stride
			}
			name := fmt.Sprintf("mb%d.%d", si+1, j)
			mid := in * st.Expand
			var ls []workload.Layer
			if st.Expand != 1 {
				ls = append(ls, workload.Layer{Kind: workload.Conv, F: in, G: mid},
					workload.Layer{Kind: workload.BN, F: mid, G: mid}, workload.Layer{Kind: workload.Act, F: mid, G: mid})
			}
			ls = append(ls, workload.Layer{Kind: workload.Conv, F: mid, G: mid, Window: st.Kernel, Stride: stride, Groups: mid},
				workload.Layer{Kind: workload.BN, F: mid, G: mid}, workload.Layer{Kind: workload.Act, F: mid, G: mid})
			kind := workload.FFN
			if stride > 1 {
				kind = workload.Downsample
			}
			dw := workload.Block{Name: name, Kind: kind, In: workload.Size{Nodes: px}, Layers: ls}
			out := dw.Out().Nodes
			var proj []workload.Layer
			if s.Stages[si].SE {
				se := makeDivisible(float64(mid) / 4)
				blocks = append(blocks, dw, workload.Block{Name: name + ".se", Kind: kind, In: workload.Size{Nodes: out}, Layers: []workload.Layer{
					{Kind: workload.Pool, F: mid, G: mid},
					{Kind: workload.FC, F: mid, G: se}, {Kind: workload.Act, F: se, G: se},
					{Kind: workload.FC, F: se, G: mid}, {Kind: workload.Act, F: mid, G: mid},
				}})
				// The channel re-weighting costs what a BN's scale does.
				proj = append(proj, workload.Layer{Kind: workload.BN, F: mid, G: mid})
			} else {
				proj = ls
				blocks = append(blocks, workload.Block{}) // replaced below
			}
			proj = append(proj, workload.Layer{Kind: workload.Conv, F: mid, G: st.Width}, workload.Layer{Kind: workload.BN, F: st.Width, G: st.Width})
			if stride == 1 && in == st.Width {
				proj = append(proj, workload.Layer{Kind: workload.Add, F: st.Width, G: st.Width})
			}
			if s.Stages[si].SE {
				blocks = append(blocks, workload.Block{Name: name + ".proj", Kind: kind, In: workload.Size{Nodes: out}, Layers: proj})
			} else {
				blocks[len(blocks)-1] = workload.Block{Name: name, Kind: kind, In: workload.Size{Nodes: px}, Layers: proj}
			}
			end = append(end, len(blocks)-1)
			px, in = out, st.Width
		}
	}
	last := a.Stages[6].Width * 6
	blocks = append(blocks, workload.Block{Name: "head", Kind: workload.Head, In: workload.Size{Nodes: px}, Layers: []workload.Layer{
		{Kind: workload.Conv, F: in, G: last}, {Kind: workload.BN, F: last, G: last}, {Kind: workload.Act, F: last, G: last},
		{Kind: workload.Pool, F: last, G: last},
		{Kind: workload.FC, F: last, G: a.LastConv}, {Kind: workload.Act, F: a.LastConv, G: a.LastConv},
		{Kind: workload.FC, F: a.LastConv, G: classes},
	}})
	b := &Backbone{Name: "attentivenas", Model: workload.Model{Name: "attentivenas " + a.String(), Blocks: blocks}, End: end, Classes: classes, Arch: a.String()}
	return b, b.Validate()
}
