package workload

import (
	"fmt"
	"strings"
)

// The CNN zoo: standard ImageNet classifiers with every layer named as in
// its reference definition, so that per-layer measurements (TensorRT
// profiles name layers after the network they were built from) can be
// joined to the model's layers.
//
//   - GoogleNet (Inception v1) and AlexNet as BVLC Caffe's deploy.prototxt
//     define them (models/bvlc_googlenet, models/bvlc_alexnet): Caffe layer
//     names ("conv1/7x7_s2", "inception_3a/output", "norm1"), Caffe's
//     ceil-mode pooling, LRN, grouped convolutions (AlexNet), softmax
//     "prob". GoogleNet takes 224 x 224; AlexNet's reference input is
//     227 x 227 (its deploy.prototxt: 227 gives conv1's 55 x 55 with no
//     padding; 224 would give 54).
//   - VGG-16, ResNet-50, ResNet-101 and MobileNetV2 as torchvision builds
//     them (torchvision/models/vgg.py, resnet.py, mobilenetv2.py; ResNet
//     v1.5, the stride on the 3x3 convolution), at 224 x 224, named by
//     their module paths ("conv1", "layer1.0.downsample.0",
//     "features.1.conv.0.0", "classifier.1"). torchvision's forward
//     functions use a few operations that are no modules; they are named
//     here: a residual addition "<block>.add" ("layer1.0.add",
//     "features.2.add"); a ReLU module applied again gets torch.fx's
//     suffixes ("layer1.0.relu", "layer1.0.relu_1", "layer1.0.relu_2");
//     MobileNetV2's functional pooling is "adaptive_avg_pool2d".
//
// Dropout layers (identities at inference) are left out; every other
// reference layer is one Layer, in-place ReLUs included (they are what a
// TensorRT build fuses into the convolution before them). An in-place
// layer is its own producer: a Caffe Concat whose bottoms are the blobs
// "inception_3a/1x1", ... reads the ReLU layers that last wrote them.

// CNNImage is the input resolution of the CNN zoo (AlexNet excepted:
// AlexNetImage).
const CNNImage = 224

// AlexNetImage is AlexNet's input resolution in BVLC's deploy.prototxt.
const AlexNetImage = 227

// netBuilder assembles a named CNN block by block, filling in the input
// width of every layer from its inputs.
type netBuilder struct {
	m     Model
	in    Size
	width map[string]int // output channels of every named layer
	last  string         // the last layer added
	err   error
}

func newNet(name string, img int64, channels int) *netBuilder {
	return &netBuilder{m: Model{Name: name}, in: Grid(img, img), width: map[string]int{"": channels}}
}

// block starts a new block.
func (b *netBuilder) block(name string, kind BlockKind) {
	b.m.Blocks = append(b.m.Blocks, Block{Name: name, Kind: kind})
}

// add appends l to the current block. An F of 0 is filled in from the
// layer's inputs (the previous layer when it names none; the sum for a
// Concat); a width-keeping kind gets G = F. It returns l's name.
func (b *netBuilder) add(l Layer) string {
	if b.err != nil {
		return l.Name
	}
	if _, dup := b.width[l.Name]; dup || l.Name == "" {
		b.err = fmt.Errorf("workload: %s: layer name %q empty or used twice", b.m.Name, l.Name)
		return l.Name
	}
	if l.F == 0 {
		ins := l.Inputs
		if len(ins) == 0 {
			ins = []string{b.last}
		}
		if l.Kind != Concat {
			ins = ins[:1]
		}
		for _, in := range ins {
			w, ok := b.width[in]
			if !ok {
				b.err = fmt.Errorf("workload: %s: layer %s reads unknown layer %q", b.m.Name, l.Name, in)
				return l.Name
			}
			l.F += w
		}
	}
	if l.Kind.keepsWidth() {
		l.G = l.F
	}
	blk := &b.m.Blocks[len(b.m.Blocks)-1]
	blk.Layers = append(blk.Layers, l)
	b.width[l.Name] = l.OutWidth()
	b.last = l.Name
	return l.Name
}

// conv adds a k x k convolution to g channels, stride s, padding p, groups
// (0 or 1: dense).
func (b *netBuilder) conv(name string, g, k, s, p, groups int, inputs ...string) string {
	return b.add(Layer{Name: name, Kind: Conv, G: g, Window: k, Stride: s, Pad: p, Groups: groups, Inputs: inputs})
}

func (b *netBuilder) op(name string, kind LayerKind, inputs ...string) string {
	return b.add(Layer{Name: name, Kind: kind, Inputs: inputs})
}

// pool adds a windowed pooling of kind MaxPool or AvgPool.
func (b *netBuilder) pool(name string, kind LayerKind, k, s, p int, ceil bool, inputs ...string) string {
	return b.add(Layer{Name: name, Kind: kind, Window: k, Stride: s, Pad: p, Ceil: ceil, Inputs: inputs})
}

// fc adds a fully connected layer to g outputs that flattens its input.
func (b *netBuilder) fc(name string, f, g int) string {
	return b.add(Layer{Name: name, Kind: FC, F: f, G: g, Flatten: true})
}

// build sets every block's input Size and checks the model as a graph.
func (b *netBuilder) build() (Model, error) {
	if b.err != nil {
		return Model{}, b.err
	}
	cur := b.in
	for i := range b.m.Blocks {
		b.m.Blocks[i].In = cur
		cur = b.m.Blocks[i].Out()
	}
	if _, err := b.m.Graph(); err != nil {
		return Model{}, err
	}
	return b.m, nil
}

// GoogleNet returns BVLC Caffe's GoogleNet (Inception v1, Szegedy et al.,
// CVPR 2015) on 224 x 224 without its training-only auxiliary classifiers:
// a stem (conv1/7x7_s2 ... pool2/3x3_s2), nine Inception modules with
// max-pooling blocks pool3 and pool4 between the stages, and the head
// (pool5/7x7_s1, loss3/classifier, prob).
func GoogleNet() (Model, error) {
	b := newNet("googlenet", CNNImage, 3)
	b.block("stem", Stem)
	b.conv("conv1/7x7_s2", 64, 7, 2, 3, 0)
	b.op("conv1/relu_7x7", Act)
	b.pool("pool1/3x3_s2", MaxPool, 3, 2, 0, true)
	b.op("pool1/norm1", LRN)
	b.conv("conv2/3x3_reduce", 64, 1, 1, 0, 0)
	b.op("conv2/relu_3x3_reduce", Act)
	b.conv("conv2/3x3", 192, 3, 1, 1, 0)
	b.op("conv2/relu_3x3", Act)
	b.op("conv2/norm2", LRN)
	b.pool("pool2/3x3_s2", MaxPool, 3, 2, 0, true)
	// Inception modules: 1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool proj
	// (deploy.prototxt's num_output values; the paper's Table 1).
	modules := []struct {
		name                      string
		c1, c3r, c3, c5r, c5, cpp int
		poolAfter                 string
	}{
		{"inception_3a", 64, 96, 128, 16, 32, 32, ""},
		{"inception_3b", 128, 128, 192, 32, 96, 64, "pool3/3x3_s2"},
		{"inception_4a", 192, 96, 208, 16, 48, 64, ""},
		{"inception_4b", 160, 112, 224, 24, 64, 64, ""},
		{"inception_4c", 128, 128, 256, 24, 64, 64, ""},
		{"inception_4d", 112, 144, 288, 32, 64, 64, ""},
		{"inception_4e", 256, 160, 320, 32, 128, 128, "pool4/3x3_s2"},
		{"inception_5a", 256, 160, 320, 32, 128, 128, ""},
		{"inception_5b", 384, 192, 384, 48, 128, 128, ""},
	}
	for _, md := range modules {
		in := b.last
		n := md.name + "/"
		b.block(md.name, Module)
		b.conv(n+"1x1", md.c1, 1, 1, 0, 0, in)
		r1 := b.op(n+"relu_1x1", Act)
		b.conv(n+"3x3_reduce", md.c3r, 1, 1, 0, 0, in)
		b.op(n+"relu_3x3_reduce", Act)
		b.conv(n+"3x3", md.c3, 3, 1, 1, 0)
		r3 := b.op(n+"relu_3x3", Act)
		b.conv(n+"5x5_reduce", md.c5r, 1, 1, 0, 0, in)
		b.op(n+"relu_5x5_reduce", Act)
		b.conv(n+"5x5", md.c5, 5, 1, 2, 0)
		r5 := b.op(n+"relu_5x5", Act)
		b.pool(n+"pool", MaxPool, 3, 1, 1, true, in)
		b.conv(n+"pool_proj", md.cpp, 1, 1, 0, 0)
		rp := b.op(n+"relu_pool_proj", Act)
		b.op(n+"output", Concat, r1, r3, r5, rp)
		if md.poolAfter != "" {
			b.block(strings.SplitN(md.poolAfter, "/", 2)[0], Downsample)
			b.pool(md.poolAfter, MaxPool, 3, 2, 0, true)
		}
	}
	b.block("loss3", Head)
	b.pool("pool5/7x7_s1", AvgPool, 7, 1, 0, true)
	b.fc("loss3/classifier", 1024, Classes)
	b.op("prob", Softmax)
	return b.build()
}

// AlexNet returns BVLC Caffe's AlexNet (Krizhevsky et al., NIPS 2012) on its
// reference 227 x 227 input: five convolutions (conv2, conv4 and conv5 in
// two groups, as the two-GPU original), LRN after conv1 and conv2 (before
// their pooling, as bvlc_alexnet has it; CaffeNet swaps the two), three
// fully connected layers and the softmax.
func AlexNet() (Model, error) {
	b := newNet("alexnet", AlexNetImage, 3)
	b.block("conv1", Stem)
	b.conv("conv1", 96, 11, 4, 0, 0)
	b.op("relu1", Act)
	b.op("norm1", LRN)
	b.pool("pool1", MaxPool, 3, 2, 0, true)
	b.block("conv2", Module)
	b.conv("conv2", 256, 5, 1, 2, 2)
	b.op("relu2", Act)
	b.op("norm2", LRN)
	b.pool("pool2", MaxPool, 3, 2, 0, true)
	b.block("conv3", Module)
	b.conv("conv3", 384, 3, 1, 1, 0)
	b.op("relu3", Act)
	b.block("conv4", Module)
	b.conv("conv4", 384, 3, 1, 1, 2)
	b.op("relu4", Act)
	b.block("conv5", Module)
	b.conv("conv5", 256, 3, 1, 1, 2)
	b.op("relu5", Act)
	b.pool("pool5", MaxPool, 3, 2, 0, true)
	b.block("fc", Head)
	b.fc("fc6", 256*6*6, 4096)
	b.op("relu6", Act)
	b.fc("fc7", 4096, 4096)
	b.op("relu7", Act)
	b.fc("fc8", 4096, Classes)
	b.op("prob", Softmax)
	return b.build()
}

// VGG16 returns torchvision's VGG-16 (configuration "D" of Simonyan and
// Zisserman, ICLR 2015; no batch norm): thirteen 3x3 convolutions with
// ReLUs in five stages, each closed by a 2x2 max pooling (features.0 to
// features.30), the 7 x 7 adaptive average pooling (an identity on the
// 7 x 7 map: a 1x1 window here) and the three-layer classifier.
func VGG16() (Model, error) { return vgg(16) }

// VGG19 returns torchvision's VGG-19 (configuration E: sixteen 3x3
// convolutions, four in each of the last three stages), laid out and
// named as VGG16.
func VGG19() (Model, error) { return vgg(19) }

// vgg builds torchvision's VGG-16 or VGG-19 (configurations D and E).
func vgg(depth int) (Model, error) {
	stages := [][]int{{64, 64}, {128, 128}, {256, 256, 256}, {512, 512, 512}, {512, 512, 512}}
	if depth == 19 {
		stages = [][]int{{64, 64}, {128, 128}, {256, 256, 256, 256}, {512, 512, 512, 512}, {512, 512, 512, 512}}
	}
	b := newNet(fmt.Sprintf("vgg%d", depth), CNNImage, 3)
	i := 0
	for s, widths := range stages {
		kind := Module
		if s == 0 {
			kind = Stem
		}
		b.block(fmt.Sprintf("stage%d", s+1), kind)
		for _, w := range widths {
			b.conv(fmt.Sprintf("features.%d", i), w, 3, 1, 1, 0)
			b.op(fmt.Sprintf("features.%d", i+1), Act)
			i += 2
		}
		b.pool(fmt.Sprintf("features.%d", i), MaxPool, 2, 2, 0, false)
		i++
	}
	b.block("classifier", Head)
	b.pool("avgpool", AvgPool, 1, 1, 0, false)
	b.fc("classifier.0", 512*7*7, 4096)
	b.op("classifier.1", Act)
	b.fc("classifier.3", 4096, 4096)
	b.op("classifier.4", Act)
	b.fc("classifier.6", 4096, Classes)
	return b.build()
}

// resnetDepths are the blocks per stage of torchvision's resnet18 (basic
// blocks), resnet50, resnet101 and resnet152 (bottlenecks).
var resnetDepths = map[int][4]int{18: {2, 2, 2, 2}, 50: {3, 4, 6, 3}, 101: {3, 4, 23, 3}, 152: {3, 8, 36, 3}}

// ResNet returns torchvision's ResNet-50 or ResNet-101 (He et al., CVPR
// 2016, as torchvision builds it: "v1.5", the stride on each stage's first
// 3x3 convolution): the stem (conv1, bn1, relu, maxpool), bottleneck blocks
// layerS.B (1x1, 3x3, 1x1 convolutions with BN, a downsample projection on
// each stage's first block, the residual add and the last ReLU), global
// average pooling and fc.
func ResNet(depth int) (Model, error) {
	blocks, ok := resnetDepths[depth]
	if !ok {
		return Model{}, fmt.Errorf("workload: no ResNet-%d in the zoo (want 18, 50, 101 or 152)", depth)
	}
	basic := depth < 50 // ResNet-18: two 3x3 convolutions a block, no expansion
	expand := 4
	if basic {
		expand = 1
	}
	b := newNet(fmt.Sprintf("resnet%d", depth), CNNImage, 3)
	b.block("stem", Stem)
	b.add(Layer{Name: "conv1", Kind: Conv, G: 64, Window: 7, Stride: 2, Pad: 3, NoBias: true})
	b.op("bn1", BN)
	b.op("relu", Act)
	b.pool("maxpool", MaxPool, 3, 2, 1, false)
	for s, n := range blocks {
		width := 64 << s
		for i := range n {
			p := fmt.Sprintf("layer%d.%d.", s+1, i)
			stride := 1
			if i == 0 && s > 0 {
				stride = 2
			}
			in := b.last
			b.block(p[:len(p)-1], Module)
			var main string
			last := "relu_2"
			if basic {
				b.add(Layer{Name: p + "conv1", Kind: Conv, G: width, Window: 3, Stride: stride, Pad: 1, NoBias: true})
				b.op(p+"bn1", BN)
				b.op(p+"relu", Act)
				b.add(Layer{Name: p + "conv2", Kind: Conv, G: width, Window: 3, Pad: 1, NoBias: true})
				main = b.op(p+"bn2", BN)
				last = "relu_1"
			} else {
				b.add(Layer{Name: p + "conv1", Kind: Conv, G: width, NoBias: true})
				b.op(p+"bn1", BN)
				b.op(p+"relu", Act)
				b.add(Layer{Name: p + "conv2", Kind: Conv, G: width, Window: 3, Stride: stride, Pad: 1, NoBias: true})
				b.op(p+"bn2", BN)
				b.op(p+"relu_1", Act)
				b.add(Layer{Name: p + "conv3", Kind: Conv, G: expand * width, NoBias: true})
				main = b.op(p+"bn3", BN)
			}
			shortcut := in
			// torchvision projects the shortcut where the block changes
			// the size or the width: every stage's first bottleneck, and
			// the first basic block of stages 2-4.
			if i == 0 && (!basic || s > 0) {
				b.add(Layer{Name: p + "downsample.0", Kind: Conv, G: expand * width, Stride: stride, NoBias: true, Inputs: []string{in}})
				shortcut = b.op(p+"downsample.1", BN)
			}
			b.op(p+"add", Add, main, shortcut)
			b.op(p+last, Act)
		}
	}
	b.block("head", Head)
	b.op("avgpool", Pool)
	b.fc("fc", 512*expand, Classes)
	return b.build()
}

// MobileNetV2 returns torchvision's MobileNetV2 (Sandler et al., CVPR 2018,
// width 1.0): features.0 (3x3 stride-2 convolution, BN, ReLU6), seventeen
// inverted residual blocks features.1-17 (1x1 expansion unless the ratio is
// 1, 3x3 depthwise convolution, 1x1 linear projection, each with BN; a
// residual add when the block keeps its size and width), features.18 (1x1
// convolution to 1280), the functional average pooling and
// classifier.1 (classifier.0 is the dropout).
func MobileNetV2() (Model, error) {
	b := newNet("mobilenetv2", CNNImage, 3)
	// convBNAct adds torchvision's Conv2dNormActivation: conv, BN, ReLU6.
	convBNAct := func(p string, g, k, s, groups int) {
		b.add(Layer{Name: p + ".0", Kind: Conv, G: g, Window: k, Stride: s, Pad: (k - 1) / 2, Groups: groups, NoBias: true})
		b.op(p+".1", BN)
		b.op(p+".2", Act)
	}
	b.block("features.0", Stem)
	convBNAct("features.0", 32, 3, 2, 0)
	// t (expansion), c (channels), n (blocks), s (first stride):
	// mobilenetv2.py's inverted_residual_setting.
	settings := [][4]int{{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}}
	in, idx := 32, 1
	for _, st := range settings {
		t, c, n, s := st[0], st[1], st[2], st[3]
		for i := range n {
			stride := 1
			if i == 0 {
				stride = s
			}
			p := fmt.Sprintf("features.%d", idx)
			x := b.last
			b.block(p, Module)
			hidden, j := in*t, 0
			if t != 1 {
				convBNAct(fmt.Sprintf("%s.conv.%d", p, j), hidden, 1, 1, 0)
				j++
			}
			convBNAct(fmt.Sprintf("%s.conv.%d", p, j), hidden, 3, stride, hidden)
			b.add(Layer{Name: fmt.Sprintf("%s.conv.%d", p, j+1), Kind: Conv, G: c, NoBias: true})
			out := b.op(fmt.Sprintf("%s.conv.%d", p, j+2), BN)
			if stride == 1 && in == c {
				b.op(p+".add", Add, out, x)
			}
			in = c
			idx++
		}
	}
	b.block("features.18", Module)
	convBNAct("features.18", 1280, 1, 1, 0)
	b.block("classifier", Head)
	b.op("adaptive_avg_pool2d", Pool)
	b.fc("classifier.1", 1280, Classes)
	return b.build()
}
