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
