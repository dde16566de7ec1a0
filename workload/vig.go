package workload

import (
	"fmt"
	"strings"
)

// The ViG family (Han et al., "Vision GNN: An Image is Worth Graph of
// Nodes", NeurIPS 2022), as its reference code builds it
// (huawei-noah/Efficient-AI-Backbones, vig_pytorch: vig.py, pyramid_vig.py,
// gcn_lib/torch_vertex.py). Layer by layer:
//
//	Stem (isotropic)  3x3 convs 3 -> C/8 -> C/4 -> C/2 -> C, stride 2 each,
//	                  then C -> C, stride 1; BN after each, act after all
//	                  but the last; 224 px -> 14 x 14 = 196 nodes
//	Stem (pyramid)    3x3 convs 3 -> C/2 -> C, stride 2, then C -> C,
//	                  stride 1; 224 px -> 56 x 56 = 3136 nodes
//	                  (both add a learnt positional embedding: no MACs)
//	Grapher           fc1 (1x1 conv C -> C, BN), k-NN graph over the nodes
//	                  (pyramid: over candidates average-pooled by the
//	                  stage's reduce ratio), graph conv C -> 2C (a grouped
//	                  1x1 conv, groups = 4, with BN and act), fc2 (1x1 conv
//	                  2C -> C, BN), residual
//	FFN               1x1 conv C -> 4C, BN, act, 1x1 conv 4C -> C, BN,
//	                  residual
//	Downsample        3x3 conv C_i -> C_i+1, stride 2, BN (pyramid only)
//	Head ("Cls")      global average pooling, 1x1 conv C -> 1024, BN, act,
//	                  1x1 conv 1024 -> 1000
//
// k grows linearly from 9 to 18 over the isotropic blocks (int of
// torch.linspace(9, 18, n)); the pyramid keeps k = 9. Dilated k-NN picks
// every d-th of the k*d nearest candidates: the same distances and the same
// k neighbours per node, so the work is that of an undilated k-NN (the
// top-k selection, priced by its comparisons over all candidates, is the
// same too). Left out as no MACs: the positional embedding, the pyramid's
// relative-position bias on the distances, dropout and drop-path.

// ViGImage is the input resolution of every zoo model: 224 x 224 pixels.
const ViGImage = 224

// Classes is the head's output width: ImageNet-1k's 1000 classes.
const Classes = 1000

// vigHeadHidden is the width of the head's hidden 1x1 conv (vig.py,
// "prediction": Conv2d(channels, 1024, 1)).
const vigHeadHidden = 1024

// vigGroups is the group count of the graph convolutions' 1x1 convs
// (gcn_lib/torch_nn.py, BasicConv: Conv2d(..., groups=4)).
const vigGroups = 4

// vigSizes are the isotropic ViG variants (vig.py: vig_ti/s/b_224_gelu).
var vigSizes = map[string]struct{ channels, blocks int }{
	"ti": {192, 12},
	"s":  {320, 16},
	"b":  {640, 16},
}

// pvigSizes are the Pyramid ViG variants (pyramid_vig.py:
// pvig_ti/s/m/b_224_gelu).
var pvigSizes = map[string]struct{ channels, blocks [4]int }{
	"ti": {[4]int{48, 96, 240, 384}, [4]int{2, 2, 6, 2}},
	"s":  {[4]int{80, 160, 400, 640}, [4]int{2, 2, 6, 2}},
	"m":  {[4]int{96, 192, 384, 768}, [4]int{2, 2, 16, 2}},
	"b":  {[4]int{128, 256, 512, 1024}, [4]int{2, 2, 18, 2}},
}

// pvigReduce are the pyramid stages' k-NN candidate pooling ratios
// (pyramid_vig.py: reduce_ratios = [4, 2, 1, 1]).
var pvigReduce = [4]int{4, 2, 1, 1}

// ViGOps are the graph convolutions a Grapher can use (gcn_lib's
// GraphConv2d: "mr", "edge", "gin", "sage"); MRConv is the reference
// models' choice.
func ViGOps() []LayerKind { return []LayerKind{MRConv, EdgeConv, GIN, SAGE} }

func checkViGOp(op LayerKind) (LayerKind, error) {
	if op == 0 {
		return MRConv, nil
	}
	for _, o := range ViGOps() {
		if op == o {
			return op, nil
		}
	}
	return 0, fmt.Errorf("workload: %s is not a ViG graph op (want mrconv, edgeconv, gin or sage)", op)
}

// ViG returns the isotropic ViG of the given size ("ti", "s" or "b") with
// graph op op in every Grapher (0 means MRConv): a stem, n Grapher + FFN
// pairs on the 196 patches, and the head.
func ViG(size string, op LayerKind) (Model, error) {
	sz, ok := vigSizes[strings.ToLower(size)]
	if !ok {
		return Model{}, fmt.Errorf("workload: unknown ViG size %q (want ti, s or b)", size)
	}
	op, err := checkViGOp(op)
	if err != nil {
		return Model{}, err
	}
	c := sz.channels
	stem := ViGStemBlock(ViGImage, c)
	n := stem.Out().Nodes
	blocks := []Block{stem}
	for i := range sz.blocks {
		g := GrapherBlock(n, c, linspaceInt(9, 18, sz.blocks, i), op, 1, true)
		f := FFNBlock(n, c, 4*c)
		g.Name, f.Name = fmt.Sprintf("grapher%d", i), fmt.Sprintf("ffn%d", i)
		blocks = append(blocks, g, f)
	}
	blocks = append(blocks, HeadBlock(n, c, Classes))
	return Model{Name: modelName("vig-"+strings.ToLower(size), op), Blocks: blocks}, nil
}

// PyramidViG returns the Pyramid ViG of the given size ("ti", "s", "m" or
// "b") with graph op op in every Grapher (0 means MRConv): a stem to 56 x 56
// nodes, four stages of Grapher + FFN pairs with a strided downsampling
// convolution between them (3136, 784, 196, 49 nodes; k-NN candidates
// pooled by 4, 2, 1, 1), and the head.
func PyramidViG(size string, op LayerKind) (Model, error) {
	sz, ok := pvigSizes[strings.ToLower(size)]
	if !ok {
		return Model{}, fmt.Errorf("workload: unknown Pyramid ViG size %q (want ti, s, m or b)", size)
	}
	op, err := checkViGOp(op)
	if err != nil {
		return Model{}, err
	}
	stem := PyramidStemBlock(ViGImage, sz.channels[0])
	n := stem.Out().Nodes
	blocks := []Block{stem}
	idx := 0
	for s := range 4 {
		c := sz.channels[s]
		if s > 0 {
			d := DownsampleBlock(n, sz.channels[s-1], c)
			d.Name = fmt.Sprintf("down%d", s)
			blocks = append(blocks, d)
			n = d.Out().Nodes
		}
		for range sz.blocks[s] {
			g := GrapherBlock(n, c, 9, op, pvigReduce[s], true)
			f := FFNBlock(n, c, 4*c)
			g.Name, f.Name = fmt.Sprintf("grapher%d", idx), fmt.Sprintf("ffn%d", idx)
			blocks = append(blocks, g, f)
			idx++
		}
	}
	blocks = append(blocks, HeadBlock(n, sz.channels[3], Classes))
	return Model{Name: modelName("pvig-"+strings.ToLower(size), op), Blocks: blocks}, nil
}

func modelName(base string, op LayerKind) string {
	if op == MRConv {
		return base
	}
	return base + "-" + op.String()
}

// ModelNames lists the names LookupModel knows, in a fixed order.
func ModelNames() []string {
	names := []string{"vig-ti", "vig-s", "vig-b", "pvig-ti", "pvig-s", "pvig-m", "pvig-b"}
	for _, c := range cnnZoo {
		names = append(names, c.name)
	}
	return names
}

// cnnZoo lists the CNN zoo's builders by name (ModelNames' order).
var cnnZoo = []struct {
	name  string
	build func() (Model, error)
}{
	{"googlenet", GoogleNet},
	{"alexnet", AlexNet},
	{"vgg16", VGG16},
	{"resnet50", func() (Model, error) { return ResNet(50) }},
	{"resnet101", func() (Model, error) { return ResNet(101) }},
	{"mobilenetv2", MobileNetV2},
	{"resnet18", func() (Model, error) { return ResNet(18) }},
	{"resnet152", func() (Model, error) { return ResNet(152) }},
	{"vgg19", VGG19},
	{"densenet121", DenseNet121},
	{"mobilenet-v1", MobileNetV1},
	{"inception-v4", InceptionV4},
	{"inception-resnet-v2", InceptionResNetV2},
}

// LookupModel returns the zoo model called name (one of ModelNames, case
// ignored) with graph op op in its Graphers (0 means MRConv): the form
// CLIs and sweep specs name models in. The CNNs have no Graphers: op must
// be 0 or MRConv (the CLIs' default) for them.
func LookupModel(name string, op LayerKind) (Model, error) {
	lower := strings.ToLower(name)
	for _, c := range cnnZoo {
		if lower == c.name {
			if op != 0 && op != MRConv {
				return Model{}, fmt.Errorf("workload: model %s has no graph op (got %s)", c.name, op)
			}
			return c.build()
		}
	}
	switch {
	case strings.HasPrefix(lower, "vig-"):
		return ViG(strings.TrimPrefix(lower, "vig-"), op)
	case strings.HasPrefix(lower, "pvig-"):
		return PyramidViG(strings.TrimPrefix(lower, "pvig-"), op)
	}
	return Model{}, fmt.Errorf("workload: unknown model %q (want one of %s)", name, strings.Join(ModelNames(), ", "))
}

// linspaceInt returns element i of int(torch.linspace(a, b, n)): the
// isotropic ViG's k schedule. Computed in integers, so that it never
// depends on float rounding: a + floor(i*(b-a)/(n-1)).
func linspaceInt(a, b, n, i int) int {
	if n <= 1 {
		return a
	}
	return a + i*(b-a)/(n-1)
}

// vigAct is the activation of every ViG layer (the reference code's
// act='gelu').
const vigAct = "gelu"

// conv3 returns a 3x3 convolution f -> g with stride s, followed by BN and,
// when act is set, an activation.
func conv3(f, g, s int, act bool) []Layer {
	ls := []Layer{{Kind: Conv, F: f, G: g, Window: 3, Stride: s}, {Kind: BN, F: g, G: g}}
	if act {
		ls = append(ls, Layer{Kind: Act, F: g, G: g, Fn: vigAct})
	}
	return ls
}

// ViGStemBlock returns the isotropic ViG's stem on an img x img RGB image:
// four stride-2 3x3 convs (3 -> c/8 -> c/4 -> c/2 -> c) and a stride-1 one
// (c -> c), then the positional embedding (an element-wise add). c must be
// a multiple of 8.
func ViGStemBlock(img, c int) Block {
	var ls []Layer
	ls = append(ls, conv3(3, c/8, 2, true)...)
	ls = append(ls, conv3(c/8, c/4, 2, true)...)
	ls = append(ls, conv3(c/4, c/2, 2, true)...)
	ls = append(ls, conv3(c/2, c, 2, true)...)
	ls = append(ls, conv3(c, c, 1, false)...)
	ls = append(ls, Layer{Kind: Add, F: c, G: c})
	return Block{Name: "stem", Kind: Stem, In: Size{Nodes: int64(img) * int64(img)}, Layers: ls}
}

// PyramidStemBlock returns the Pyramid ViG's stem on an img x img RGB
// image: two stride-2 3x3 convs (3 -> c/2 -> c) and a stride-1 one (c ->
// c), then the positional embedding. c must be even.
func PyramidStemBlock(img, c int) Block {
	var ls []Layer
	ls = append(ls, conv3(3, c/2, 2, true)...)
	ls = append(ls, conv3(c/2, c, 2, true)...)
	ls = append(ls, conv3(c, c, 1, false)...)
	ls = append(ls, Layer{Kind: Add, F: c, G: c})
	return Block{Name: "stem", Kind: Stem, In: Size{Nodes: int64(img) * int64(img)}, Layers: ls}
}

// GrapherBlock returns a ViG Grapher on n nodes of c channels: fc1 (when
// preFC; MaGNAS can skip it), the k-NN graph of k neighbours among the
// nodes average-pooled by reduce (1: all nodes), the graph convolution op
// c -> 2c as a groups-4 1x1 conv with BN and activation, fc2 2c -> c with
// BN, and the residual add. Its MACs: (11 + fc1) NC^2 plus the graph conv's
// (MRConv NC^2, EdgeConv kNC^2, GIN NC^2/2, SAGE (1 + k/4) NC^2) plus the
// N * N/reduce^2 * C of the k-NN distances.
//
// The BN and activation of EdgeConv's and SAGE's per-neighbour convs are
// counted once per node rather than once per edge (they are element-wise:
// no MACs either way).
func GrapherBlock(n int64, c, k int, op LayerKind, reduce int, preFC bool) Block {
	var ls []Layer
	if preFC {
		ls = append(ls, Layer{Kind: FC, F: c, G: c}, Layer{Kind: BN, F: c, G: c})
	}
	ls = append(ls,
		Layer{Kind: KNN, F: c, G: c, K: k, Reduce: reduce},
		Layer{Kind: op, F: c, G: 2 * c, K: k, Groups: vigGroups},
		Layer{Kind: BN, F: 2 * c, G: 2 * c},
		Layer{Kind: Act, F: 2 * c, G: 2 * c, Fn: vigAct},
		Layer{Kind: FC, F: 2 * c, G: c},
		Layer{Kind: BN, F: c, G: c},
		Layer{Kind: Add, F: c, G: c})
	return Block{Name: "grapher", Kind: Grapher, In: Size{Nodes: n}, Layers: ls}
}

// FFNBlock returns a ViG FFN on n nodes of c channels with hidden width
// hidden (4c in the reference models): 1x1 conv c -> hidden, BN, act, 1x1
// conv hidden -> c, BN, residual add. Its MACs: 2 N c hidden.
func FFNBlock(n int64, c, hidden int) Block {
	return Block{Name: "ffn", Kind: FFN, In: Size{Nodes: n}, Layers: []Layer{
		{Kind: FC, F: c, G: hidden},
		{Kind: BN, F: hidden, G: hidden},
		{Kind: Act, F: hidden, G: hidden, Fn: vigAct},
		{Kind: FC, F: hidden, G: c},
		{Kind: BN, F: c, G: c},
		{Kind: Add, F: c, G: c},
	}}
}

// DownsampleBlock returns a Pyramid ViG downsampling between stages on n
// nodes (a square grid): a stride-2 3x3 conv cin -> cout and BN.
func DownsampleBlock(n int64, cin, cout int) Block {
	return Block{Name: "downsample", Kind: Downsample, In: Size{Nodes: n}, Layers: conv3(cin, cout, 2, false)}
}

// HeadBlock returns the classifier on n nodes of c channels: global
// average pooling, 1x1 conv c -> 1024, BN, act, 1x1 conv 1024 -> classes.
func HeadBlock(n int64, c, classes int) Block {
	return Block{Name: "cls", Kind: Head, In: Size{Nodes: n}, Layers: []Layer{
		{Kind: Pool, F: c, G: c},
		{Kind: FC, F: c, G: vigHeadHidden},
		{Kind: BN, F: vigHeadHidden, G: vigHeadHidden},
		{Kind: Act, F: vigHeadHidden, G: vigHeadHidden, Fn: vigAct},
		{Kind: FC, F: vigHeadHidden, G: classes},
	}}
}
