package workload

import "fmt"

// Inception-v4 and Inception-ResNet-v2 (Szegedy et al., AAAI 2017, "Inception-v4,
// Inception-ResNet and the Impact of Residual Connections on Learning") on
// their 299 x 299 input, as the PyTorch port most concurrent-DNN studies
// run (Cadene's pretrainedmodels, inceptionv4.py and inceptionresnetv2.py,
// whose module paths name the layers: "features.6.branch1.1.conv",
// "repeat_1.3.branch1.2.bn", "last_linear"; timm builds the same
// networks). Every BasicConv2d is a convolution without bias, a BN and a
// ReLU (".conv", ".bn", ".relu"); a torch.cat is "<module>.cat"; a residual
// block's "out * scale + x" is "<module>.add" (the constant scale is
// folded into the conv2d before it, as TensorRT folds it) followed by
// "<module>.relu". The classifier has 1000 outputs (timm's; Cadene's
// checkpoints have 1001, a background class).

// InceptionImage is the input resolution of Inception-v4 and
// Inception-ResNet-v2.
const InceptionImage = 299

// basicConv adds a BasicConv2d p (conv, BN, ReLU) of g outputs, a kh x kw
// window at stride s padded ph rows and pw columns, reading inputs (the
// last layer when none); it returns the ReLU's name.
func (b *netBuilder) basicConv(p string, g, kh, kw, s, ph, pw int, inputs ...string) string {
	l := Layer{Name: p + ".conv", Kind: Conv, G: g, Window: kh, Stride: s, Pad: ph, NoBias: true, Inputs: inputs}
	if kw != kh || pw != ph {
		l.WindowW, l.PadW = kw, pw
	}
	b.add(l)
	b.op(p+".bn", BN)
	return b.op(p+".relu", Act)
}

// sq adds a square BasicConv2d (k x k, padding pad).
func (b *netBuilder) sq(p string, g, k, s, pad int, inputs ...string) string {
	return b.basicConv(p, g, k, k, s, pad, pad, inputs...)
}

// avgBranch adds an Inception module's pooling branch p: a 3x3 stride-1
// average pooling padded 1 (count_include_pad=False) and a 1x1
// BasicConv2d to g.
func (b *netBuilder) avgBranch(p string, g int, in string) string {
	b.pool(p+".0", AvgPool, 3, 1, 1, false, in)
	return b.sq(p+".1", g, 1, 1, 0)
}

// branches35 adds the three convolution branches the 35 x 35 modules share
// (Inception-A, Block35): branch0 a 1x1 to w[0]; branch1 a 1x1 to w[1] and
// a 3x3 to w[2]; branch2 a 1x1 to w[3] and two 3x3 to w[4] and w[5]; all
// reading x. It returns the three branches' outputs.
func (b *netBuilder) branches35(m, x string, w [6]int) (b0, b1, b2 string) {
	b0 = b.sq(m+".branch0", w[0], 1, 1, 0, x)
	b.sq(m+".branch1.0", w[1], 1, 1, 0, x)
	b1 = b.sq(m+".branch1.1", w[2], 3, 1, 1)
	b.sq(m+".branch2.0", w[3], 1, 1, 0, x)
	b.sq(m+".branch2.1", w[4], 3, 1, 1)
	b2 = b.sq(m+".branch2.2", w[5], 3, 1, 1)
	return b0, b1, b2
}

// reductionA adds the paper's Reduction-A module m (its Fig. 7, with the
// filter counts k, l, mm, n of its Table 1) on x: a stride-2 3x3 to n; a
// 1x1 to k, a 3x3 to l and a stride-2 3x3 to mm; a stride-2 max pooling.
func (b *netBuilder) reductionA(m, x string, k, l, mm, n int) string {
	b0 := b.sq(m+".branch0", n, 3, 2, 0, x)
	b.sq(m+".branch1.0", k, 1, 1, 0, x)
	b.sq(m+".branch1.1", l, 3, 1, 1)
	b1 := b.sq(m+".branch1.2", mm, 3, 2, 0)
	b2 := b.pool(m+".branch2", MaxPool, 3, 2, 0, false, x)
	return b.op(m+".cat", Concat, b0, b1, b2)
}

// factor7 adds branch p of a 17 x 17 module: a 1x1 to a, a 1x7 to c1 and a
// 7x1 to c2, reading x; it returns the last ReLU.
func (b *netBuilder) factor7(p, x string, a, c1, c2 int) string {
	b.sq(p+".0", a, 1, 1, 0, x)
	b.basicConv(p+".1", c1, 1, 7, 1, 0, 3)
	return b.basicConv(p+".2", c2, 7, 1, 1, 3, 0)
}

// InceptionV4 returns Inception-v4 (the paper's Figs. 3-9): the stem
// (features.0-5, Mixed_3a, 4a and 5a), four Inception-A, Reduction-A,
// seven Inception-B, Reduction-B and three Inception-C modules, global
// average pooling and last_linear.
func InceptionV4() (Model, error) {
	b := newNet("inception-v4", InceptionImage, 3)
	b.block("stem", Stem)
	b.sq("features.0", 32, 3, 2, 0)
	b.sq("features.1", 32, 3, 1, 0)
	x := b.sq("features.2", 64, 3, 1, 1)
	// Mixed_3a: max pooling beside a stride-2 convolution.
	b.block("features.3", Module)
	p := b.pool("features.3.maxpool", MaxPool, 3, 2, 0, false, x)
	c := b.sq("features.3.conv", 96, 3, 2, 0, x)
	x = b.op("features.3.cat", Concat, p, c)
	// Mixed_4a.
	b.block("features.4", Module)
	b.sq("features.4.branch0.0", 64, 1, 1, 0, x)
	b0 := b.sq("features.4.branch0.1", 96, 3, 1, 0)
	b.sq("features.4.branch1.0", 64, 1, 1, 0, x)
	b.basicConv("features.4.branch1.1", 64, 1, 7, 1, 0, 3)
	b.basicConv("features.4.branch1.2", 64, 7, 1, 1, 3, 0)
	b1 := b.sq("features.4.branch1.3", 96, 3, 1, 0)
	x = b.op("features.4.cat", Concat, b0, b1)
	// Mixed_5a.
	b.block("features.5", Module)
	c = b.sq("features.5.conv", 192, 3, 2, 0, x)
	p = b.pool("features.5.maxpool", MaxPool, 3, 2, 0, false, x)
	x = b.op("features.5.cat", Concat, c, p)
	i := 6
	for range 4 { // Inception-A (Fig. 4)
		m := fmt.Sprintf("features.%d", i)
		b.block(m, Module)
		b0, b1, b2 := b.branches35(m, x, [6]int{96, 64, 96, 64, 96, 96})
		b3 := b.avgBranch(m+".branch3", 96, x)
		x = b.op(m+".cat", Concat, b0, b1, b2, b3)
		i++
	}
	// Reduction-A (Table 1: k = 192, l = 224, m = 256, n = 384).
	m := fmt.Sprintf("features.%d", i)
	b.block(m, Downsample)
	x = b.reductionA(m, x, 192, 224, 256, 384)
	i++
	for range 7 { // Inception-B (Fig. 5)
		m := fmt.Sprintf("features.%d", i)
		b.block(m, Module)
		b0 := b.sq(m+".branch0", 384, 1, 1, 0, x)
		b1 := b.factor7(m+".branch1", x, 192, 224, 256)
		b.sq(m+".branch2.0", 192, 1, 1, 0, x)
		b.basicConv(m+".branch2.1", 192, 7, 1, 1, 3, 0)
		b.basicConv(m+".branch2.2", 224, 1, 7, 1, 0, 3)
		b.basicConv(m+".branch2.3", 224, 7, 1, 1, 3, 0)
		b2 := b.basicConv(m+".branch2.4", 256, 1, 7, 1, 0, 3)
		b3 := b.avgBranch(m+".branch3", 128, x)
		x = b.op(m+".cat", Concat, b0, b1, b2, b3)
		i++
	}
	// Reduction-B (Fig. 8).
	m = fmt.Sprintf("features.%d", i)
	b.block(m, Downsample)
	b.sq(m+".branch0.0", 192, 1, 1, 0, x)
	b0 = b.sq(m+".branch0.1", 192, 3, 2, 0)
	b.factor7(m+".branch1", x, 256, 256, 320)
	b1 = b.sq(m+".branch1.3", 320, 3, 2, 0)
	b2 := b.pool(m+".branch2", MaxPool, 3, 2, 0, false, x)
	x = b.op(m+".cat", Concat, b0, b1, b2)
	i++
	for range 3 { // Inception-C (Fig. 6)
		m := fmt.Sprintf("features.%d", i)
		b.block(m, Module)
		b0 := b.sq(m+".branch0", 256, 1, 1, 0, x)
		t := b.sq(m+".branch1_0", 384, 1, 1, 0, x)
		a := b.basicConv(m+".branch1_1a", 256, 1, 3, 1, 0, 1, t)
		c := b.basicConv(m+".branch1_1b", 256, 3, 1, 1, 1, 0, t)
		b1 := b.op(m+".branch1.cat", Concat, a, c)
		b.sq(m+".branch2_0", 384, 1, 1, 0, x)
		b.basicConv(m+".branch2_1", 448, 3, 1, 1, 1, 0)
		t = b.basicConv(m+".branch2_2", 512, 1, 3, 1, 0, 1)
		a = b.basicConv(m+".branch2_3a", 256, 1, 3, 1, 0, 1, t)
		c = b.basicConv(m+".branch2_3b", 256, 3, 1, 1, 1, 0, t)
		b2 := b.op(m+".branch2.cat", Concat, a, c)
		b3 := b.avgBranch(m+".branch3", 256, x)
		x = b.op(m+".cat", Concat, b0, b1, b2, b3)
		i++
	}
	b.block("head", Head)
	b.op("avg_pool", Pool)
	b.fc("last_linear", 1536, Classes)
	return b.build()
}

// residual closes an Inception-ResNet block m: the concatenation of its
// branches, the 1x1 convolution (with bias) back to the block's width, the
// residual add with the block's input x and, unless last, the ReLU.
func (b *netBuilder) residual(m, x string, width int, last bool, branches ...string) string {
	b.op(m+".cat", Concat, branches...)
	c := b.add(Layer{Name: m + ".conv2d", Kind: Conv, G: width})
	out := b.op(m+".add", Add, c, x)
	if last {
		return out
	}
	return b.op(m+".relu", Act)
}

// InceptionResNetV2 returns Inception-ResNet-v2 (the paper's Figs. 3 and
// 16-18; Mixed_5b is the PyTorch port's stem output, as in TF-slim): the
// stem (conv2d_1a ... mixed_5b), ten Block35 (Inception-ResNet-A), mixed_6a
// (Reduction-A), twenty Block17 (-B), mixed_7a (Reduction-B), nine Block8
// (-C) and block8 without its ReLU, conv2d_7b, average pooling and
// last_linear.
func InceptionResNetV2() (Model, error) {
	b := newNet("inception-resnet-v2", InceptionImage, 3)
	b.block("stem", Stem)
	b.sq("conv2d_1a", 32, 3, 2, 0)
	b.sq("conv2d_2a", 32, 3, 1, 0)
	b.sq("conv2d_2b", 64, 3, 1, 1)
	b.pool("maxpool_3a", MaxPool, 3, 2, 0, false)
	b.sq("conv2d_3b", 80, 1, 1, 0)
	b.sq("conv2d_4a", 192, 3, 1, 0)
	x := b.pool("maxpool_5a", MaxPool, 3, 2, 0, false)
	b.block("mixed_5b", Module)
	b0 := b.sq("mixed_5b.branch0", 96, 1, 1, 0, x)
	b.sq("mixed_5b.branch1.0", 48, 1, 1, 0, x)
	b1 := b.sq("mixed_5b.branch1.1", 64, 5, 1, 2)
	b.sq("mixed_5b.branch2.0", 64, 1, 1, 0, x)
	b.sq("mixed_5b.branch2.1", 96, 3, 1, 1)
	b2 := b.sq("mixed_5b.branch2.2", 96, 3, 1, 1)
	b3 := b.avgBranch("mixed_5b.branch3", 64, x)
	x = b.op("mixed_5b.cat", Concat, b0, b1, b2, b3)
	for i := range 10 { // Block35
		m := fmt.Sprintf("repeat.%d", i)
		b.block(m, Module)
		b0, b1, b2 := b.branches35(m, x, [6]int{32, 32, 32, 32, 48, 64})
		x = b.residual(m, x, 320, false, b0, b1, b2)
	}
	b.block("mixed_6a", Downsample) // Reduction-A, Table 1: k = l = 256, m = n = 384
	x = b.reductionA("mixed_6a", x, 256, 256, 384, 384)
	for i := range 20 { // Block17
		m := fmt.Sprintf("repeat_1.%d", i)
		b.block(m, Module)
		b0 := b.sq(m+".branch0", 192, 1, 1, 0, x)
		b1 := b.factor7(m+".branch1", x, 128, 160, 192)
		x = b.residual(m, x, 1088, false, b0, b1)
	}
	b.block("mixed_7a", Downsample)
	b.sq("mixed_7a.branch0.0", 256, 1, 1, 0, x)
	b0 = b.sq("mixed_7a.branch0.1", 384, 3, 2, 0)
	b.sq("mixed_7a.branch1.0", 256, 1, 1, 0, x)
	b1 = b.sq("mixed_7a.branch1.1", 288, 3, 2, 0)
	b.sq("mixed_7a.branch2.0", 256, 1, 1, 0, x)
	b.sq("mixed_7a.branch2.1", 288, 3, 1, 1)
	b2 = b.sq("mixed_7a.branch2.2", 320, 3, 2, 0)
	b3 = b.pool("mixed_7a.branch3", MaxPool, 3, 2, 0, false, x)
	x = b.op("mixed_7a.cat", Concat, b0, b1, b2, b3)
	for i := range 10 { // nine Block8 and block8 (no ReLU)
		m, last := fmt.Sprintf("repeat_2.%d", i), i == 9
		if last {
			m = "block8"
		}
		b.block(m, Module)
		b0 := b.sq(m+".branch0", 192, 1, 1, 0, x)
		b.sq(m+".branch1.0", 192, 1, 1, 0, x)
		b.basicConv(m+".branch1.1", 224, 1, 3, 1, 0, 1)
		b1 := b.basicConv(m+".branch1.2", 256, 3, 1, 1, 1, 0)
		x = b.residual(m, x, 2080, last, b0, b1)
	}
	b.block("head", Head)
	b.sq("conv2d_7b", 1536, 1, 1, 0)
	b.op("avgpool_1a", Pool)
	b.fc("last_linear", 1536, Classes)
	return b.build()
}
