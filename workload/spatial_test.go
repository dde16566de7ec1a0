package workload

import (
	"strings"
	"testing"
)

// TestWindowOut checks output grids against the reference frameworks'
// formulas: floor((H + 2p - k)/s) + 1 for convolutions, Caffe's and
// PyTorch's ceil mode for pooling (a last window starting in the padding
// dropped).
func TestWindowOut(t *testing.T) {
	tests := []struct {
		name    string
		l       Layer
		in, out int64
	}{
		{"alexnet conv1 on 227", Layer{Kind: Conv, F: 3, G: 96, Window: 11, Stride: 4}, 227, 55},
		{"alexnet conv1 on 224", Layer{Kind: Conv, F: 3, G: 96, Window: 11, Stride: 4}, 224, 54},
		{"googlenet conv1", Layer{Kind: Conv, F: 3, G: 64, Window: 7, Stride: 2, Pad: 3}, 224, 112},
		{"caffe pool 3/2 ceil", Layer{Kind: MaxPool, F: 64, G: 64, Window: 3, Stride: 2, Ceil: true}, 112, 56},
		{"same pool 3/2 floor", Layer{Kind: MaxPool, F: 64, G: 64, Window: 3, Stride: 2}, 112, 55},
		{"resnet maxpool 3/2 pad 1", Layer{Kind: MaxPool, F: 64, G: 64, Window: 3, Stride: 2, Pad: 1}, 112, 56},
		{"inception pool 3/1 pad 1 ceil", Layer{Kind: MaxPool, F: 64, G: 64, Window: 3, Stride: 1, Pad: 1, Ceil: true}, 28, 28},
		{"ceil drops window in padding", Layer{Kind: MaxPool, F: 1, G: 1, Window: 2, Stride: 2, Pad: 1, Ceil: true}, 4, 3},
		{"googlenet pool5", Layer{Kind: AvgPool, F: 1024, G: 1024, Window: 7, Stride: 1, Ceil: true}, 7, 1},
		{"1x1 conv", Layer{Kind: Conv, F: 8, G: 8}, 13, 13},
		{"inception-v4 1x7 padded (0, 3)", Layer{Kind: Conv, F: 8, G: 8, Window: 1, WindowW: 7, PadW: 3}, 17, 17},
		{"inception-v4 7x1 padded (3, 0)", Layer{Kind: Conv, F: 8, G: 8, Window: 7, Pad: 3, WindowW: 1}, 17, 17},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.l.OutSize(Grid(tc.in, tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got != Grid(tc.out, tc.out) {
				t.Errorf("%+v on %d x %d = %+v, want %d x %d", tc.l, tc.in, tc.in, got, tc.out, tc.out)
			}
			ks, err := tc.l.Kernels(Grid(tc.in, tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if ks[0].OutElems != tc.out*tc.out*int64(tc.l.G) {
				t.Errorf("kernel writes %d elements, want %d", ks[0].OutElems, tc.out*tc.out*int64(tc.l.G))
			}
		})
	}
}

// TestSpatialLegacy checks that a grid-less Size keeps the node-count
// arithmetic every ViG model was built on.
func TestSpatialLegacy(t *testing.T) {
	l := Layer{Kind: Conv, F: 3, G: 8, Window: 3, Stride: 2}
	if got := l.Out(Size{Nodes: 224 * 224}); got != (Size{Nodes: 112 * 112}) {
		t.Errorf("legacy conv out = %+v, want 12544 nodes", got)
	}
	if got := (Layer{Kind: Pool, F: 8, G: 8}).Out(Grid(7, 7)); got != Grid(1, 1) {
		t.Errorf("global pool on a grid = %+v", got)
	}
}

// TestNewKindKernels checks the work of the kinds the CNN zoo added.
func TestNewKindKernels(t *testing.T) {
	in := Grid(4, 4)
	tests := []struct {
		l              Layer
		class          KernelClass
		ops, inE, outE int64
	}{
		{Layer{Kind: MaxPool, F: 2, G: 2, Window: 2, Stride: 2}, Max, 2 * 2 * 2 * 4, 32, 8},
		{Layer{Kind: AvgPool, F: 2, G: 2, Window: 3, Stride: 1, Pad: 1}, ElementWise, 16 * 2 * 9, 32, 32},
		{Layer{Kind: LRN, F: 2, G: 2}, ElementWise, 16 * 2 * (5 + 3), 32, 32},
		{Layer{Kind: LRN, F: 2, G: 2, LocalSize: 3}, ElementWise, 16 * 2 * (3 + 3), 32, 32},
		{Layer{Kind: Softmax, F: 2, G: 2}, ElementWise, 4 * 32, 32, 32},
		{Layer{Kind: Concat, F: 6, G: 6, Inputs: []string{"a", "b"}}, ElementWise, 0, 96, 96},
	}
	for _, tc := range tests {
		ks, err := tc.l.Kernels(in)
		if err != nil {
			t.Fatalf("%s: %v", tc.l.Kind, err)
		}
		k := ks[0]
		if len(ks) != 1 || k.Class != tc.class || k.Ops != tc.ops || k.InElems != tc.inE || k.OutElems != tc.outE || k.MACs != 0 {
			t.Errorf("%s: %+v, want class %s, %d ops, %d in, %d out, no MACs", tc.l.Kind, ks, tc.class, tc.ops, tc.inE, tc.outE)
		}
	}
	fc := Layer{Kind: FC, F: 256 * 36, G: 4096, Flatten: true}
	ks, err := fc.Kernels(Grid(6, 6))
	if err != nil {
		t.Fatal(err)
	}
	if ks[0].MACs != 9216*4096 || fc.Out(Grid(6, 6)) != Grid(1, 1) {
		t.Errorf("flattening fc6: %+v", ks)
	}
	if _, err := (Layer{Kind: FC, F: 100, G: 10, Flatten: true}).Kernels(Grid(6, 6)); err == nil {
		t.Error("flatten of 36 pixels into F = 100 accepted")
	}
}

// TestSpatialInvalid checks that bad windows, strides, padding, grids and
// inputs are refused with an error naming the problem, never a panic.
func TestSpatialInvalid(t *testing.T) {
	tests := []struct {
		name string
		l    Layer
		in   Size
		want string
	}{
		{"window beyond padded input", Layer{Kind: Conv, F: 3, G: 8, Window: 11, Stride: 4}, Grid(8, 8), "exceeds"},
		{"pool window beyond input", Layer{Kind: MaxPool, F: 3, G: 3, Window: 7}, Grid(3, 20), "height"},
		{"pad not below window", Layer{Kind: MaxPool, F: 3, G: 3, Window: 3, Pad: 3}, Grid(8, 8), "pad"},
		{"negative pad", Layer{Kind: Conv, F: 3, G: 3, Window: 3, Pad: -1}, Grid(8, 8), "pad"},
		{"window too large", Layer{Kind: MaxPool, F: 3, G: 3, Window: 16}, Grid(32, 32), "window"},
		{"negative stride", Layer{Kind: AvgPool, F: 3, G: 3, Window: 3, Stride: -2}, Grid(8, 8), "stride"},
		{"pad on bn", Layer{Kind: BN, F: 3, G: 3, Pad: 1}, Grid(8, 8), "no window"},
		{"ceil on conv", Layer{Kind: Conv, F: 3, G: 3, Ceil: true}, Grid(8, 8), "ceil"},
		{"pool changes width", Layer{Kind: MaxPool, F: 3, G: 4, Window: 2}, Grid(8, 8), "keeps its width"},
		{"even lrn", Layer{Kind: LRN, F: 3, G: 3, LocalSize: 4}, Grid(8, 8), "local size"},
		{"local size on conv", Layer{Kind: Conv, F: 3, G: 3, LocalSize: 3}, Grid(8, 8), "local size"},
		{"flatten on conv", Layer{Kind: Conv, F: 3, G: 3, Flatten: true}, Grid(8, 8), "flatten"},
		{"concat of one", Layer{Kind: Concat, F: 3, G: 3, Inputs: []string{"a"}}, Grid(8, 8), "inputs"},
		{"conv of two", Layer{Kind: Conv, F: 3, G: 3, Inputs: []string{"a", "b"}}, Grid(8, 8), "inputs"},
		{"empty input name", Layer{Kind: Act, F: 3, G: 3, Inputs: []string{""}}, Grid(8, 8), "empty input"},
		{"grid mismatch", Layer{Kind: Act, F: 3, G: 3}, Size{Nodes: 10, H: 3, W: 3}, "grid"},
		{"half grid", Layer{Kind: Act, F: 3, G: 3}, Size{Nodes: 9, H: 3}, "grid"},
		{"huge grid", Layer{Kind: Act, F: 3, G: 3}, Size{Nodes: 4, H: 1 << 40, W: 1 << 40}, "grid"},
		{"pad width not below window width", Layer{Kind: Conv, F: 3, G: 3, Window: 1, WindowW: 3, PadW: 3}, Grid(8, 8), "pad width"},
		{"pad width of a square window", Layer{Kind: Conv, F: 3, G: 3, Window: 3, PadW: 1}, Grid(8, 8), "pad width"},
		{"negative window width", Layer{Kind: Conv, F: 3, G: 3, WindowW: -1}, Grid(8, 8), "window width"},
		{"window width too large", Layer{Kind: Conv, F: 3, G: 3, WindowW: 16}, Grid(32, 32), "window width"},
		{"rectangular window beyond input", Layer{Kind: Conv, F: 3, G: 3, Window: 1, WindowW: 7}, Grid(8, 5), "width"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.l.Kernels(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Kernels = %v, want an error containing %q", err, tc.want)
			}
			_ = tc.l.Out(tc.in) // never panics
		})
	}
}

// TestGraphInvalid checks Model.Graph's refusals.
func TestGraphInvalid(t *testing.T) {
	conv := func(name string, g int, inputs ...string) Layer {
		return Layer{Name: name, Kind: Conv, F: 8, G: g, Inputs: inputs}
	}
	blk := func(ls ...Layer) Model {
		return Model{Name: "t", Blocks: []Block{{Name: "b", In: Grid(4, 4), Layers: ls}}}
	}
	tests := []struct {
		name string
		m    Model
		want string
	}{
		{"duplicate name", blk(conv("a", 8), conv("a", 8)), "twice"},
		{"unknown input", blk(conv("a", 8), conv("b", 8, "x")), "no earlier"},
		{"later input", blk(conv("a", 8, "b"), conv("b", 8)), "no earlier"},
		{"width mismatch", blk(conv("a", 4), conv("b", 8)), "F = 8"},
		{"concat width", blk(conv("a", 8), conv("b", 8, "a"), Layer{Name: "c", Kind: Concat, F: 12, G: 12, Inputs: []string{"a", "b"}}), "F = 12"},
		{"concat sizes", blk(conv("a", 8), Layer{Name: "p", Kind: MaxPool, F: 8, G: 8, Window: 2, Stride: 2}, Layer{Name: "c", Kind: Concat, F: 16, G: 16, Inputs: []string{"a", "p"}}), "differ in size"},
		{"add widths", blk(conv("a", 8), conv("b", 4, "a"), Layer{Name: "s", Kind: Add, F: 8, G: 8, Inputs: []string{"a", "b"}}), "channels"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.m.Graph()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Graph = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestGraphLegacyZoo checks that every model built before names existed is
// a valid graph: a chain whose nil-input Adds read their block's input.
func TestGraphLegacyZoo(t *testing.T) {
	for _, name := range []string{"vig-s", "pvig-ti"} {
		m, err := LookupModel(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := m.Graph()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, n := range nodes {
			want := 1
			if n.Layer.Kind == Add && n.Block > 0 {
				want = 2
			}
			if n.Block == 0 && n.Index == 0 {
				want = 0
			}
			if len(n.Inputs) != want {
				t.Errorf("%s: %s reads %d layers, want %d", name, n.Name, len(n.Inputs), want)
			}
		}
	}
}

// FuzzSpatialLayer checks that no window, stride, padding or grid makes a
// windowed layer panic, and that what it accepts has a non-empty output
// grid no larger than the padded input, whose kernels write exactly it.
func FuzzSpatialLayer(f *testing.F) {
	f.Add(uint8(MaxPool), 3, 2, 0, true, int64(112), int64(112), 64)
	f.Add(uint8(Conv), 11, 4, 0, false, int64(227), int64(227), 3)
	f.Add(uint8(AvgPool), 7, 1, 0, true, int64(7), int64(7), 1024)
	f.Fuzz(func(t *testing.T, kind uint8, window, stride, pad int, ceil bool, h, w int64, c int) {
		l := Layer{Kind: LayerKind(kind), F: c, G: c, Window: window, Stride: stride, Pad: pad, Ceil: ceil}
		in := Size{Nodes: h * w, H: h, W: w}
		out, err := l.OutSize(in)
		ks, kerr := l.Kernels(in)
		if err != nil || kerr != nil || !l.Kind.windowed() || in.Nodes == 0 {
			return
		}
		p, k := int64(pad), or1(window)
		if out.H < 1 || out.W < 1 || out.H > h+2*p-k+1 || out.W > w+2*p-k+1 || out.Nodes != out.H*out.W {
			t.Errorf("%+v on %dx%d: out %+v", l, h, w, out)
		}
		if len(ks) != 1 || ks[0].OutElems != out.Nodes*int64(c) {
			t.Errorf("%+v on %dx%d: kernels %+v, out %+v", l, h, w, ks, out)
		}
	})
}
