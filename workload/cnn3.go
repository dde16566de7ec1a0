package workload

import "fmt"

// InceptionImage is the input resolution of Inception-v4 and
// Inception-ResNet-v2.
const InceptionImage = 299

// basicConv adds timm's BasicConv2d: a kh x kw convolution to g channels
// (stride s, padding ph rows and pw columns, no bias), BN and ReLU, named
// p.conv, p.bn, p.relu; it returns the ReLU's name.
func (b *netBuilder) basicConv(p string, g, kh, kw, s, ph, pw int, inputs ...string) string {
	l := Layer{Name: p + ".conv", Kind: Conv, G: g, Window: kh, Stride: s, Pad: ph, NoBias: true, Inputs: inputs}
	if kh != kw {
		l.WindowW, l.PadW = kw, pw
	}
	b.add(l)
	b.op(p+".bn", BN)
	return b.op(p+".relu", Act)
}

// InceptionV4 returns Inception-v4 (Szegedy et al., "Inception-v4,
// Inception-ResNet and the Impact of Residual Connections on Learning",
// AAAI 2017, Figs. 3-9) as timm builds it (timm/models/inception_v4.py,
// Cadene's port of the TensorFlow model) at 299 x 299, named by its
// module paths: the stem features.0-2 and Mixed_3a/4a/5a (features.3-5),
// four Inception-A (features.6-9), Reduction-A (10), seven Inception-B
// (11-17), Reduction-B (18), three Inception-C (19-21), global average
// pooling and last_linear. Every convolution is a BasicConv2d (no bias,
// BN, ReLU); the 1x7, 7x1, 1x3 and 3x1 convolutions are rectangular
// windows; branch concatenations are named "<block>.cat".
func InceptionV4() (Model, error) {
	b := newNet("inception-v4", InceptionImage, 3)
	b.block("stem", Stem)
	b.basicConv("features.0", 32, 3, 3, 2, 0, 0)
	b.basicConv("features.1", 32, 3, 3, 1, 0, 0)
	x := b.basicConv("features.2", 64, 3, 3, 1, 1, 1)
	b.block("features.3", Module)
	p0 := b.pool("features.3.maxpool", MaxPool, 3, 2, 0, false, x)
	c0 := b.basicConv("features.3.conv", 96, 3, 3, 2, 0, 0, x)
	x = b.add(Layer{Name: "features.3.cat", Kind: Concat, Inputs: []string{p0, c0}})
	b.block("features.4", Module)
	b.basicConv("features.4.branch0.0", 64, 1, 1, 1, 0, 0, x)
	a := b.basicConv("features.4.branch0.1", 96, 3, 3, 1, 0, 0)
	b.basicConv("features.4.branch1.0", 64, 1, 1, 1, 0, 0, x)
	b.basicConv("features.4.branch1.1", 64, 1, 7, 1, 0, 3)
	b.basicConv("features.4.branch1.2", 64, 7, 1, 1, 3, 0)
	c := b.basicConv("features.4.branch1.3", 96, 3, 3, 1, 0, 0)
	x = b.add(Layer{Name: "features.4.cat", Kind: Concat, Inputs: []string{a, c}})
	b.block("features.5", Module)
	c0 = b.basicConv("features.5.conv", 192, 3, 3, 2, 0, 0, x)
	p0 = b.pool("features.5.maxpool", MaxPool, 3, 2, 0, false, x)
	x = b.add(Layer{Name: "features.5.cat", Kind: Concat, Inputs: []string{c0, p0}})
	i := 6
	module := func() string { p := fmt.Sprintf("features.%d", i); i++; b.block(p, Module); return p }
	for range 4 { // Inception-A
		p := module()
		b0, b1, b2 := b.branches35(p, x, [6]int{96, 64, 96, 64, 96, 96})
		b.pool(p+".branch3.0", AvgPool, 3, 1, 1, false, x)
		b3 := b.basicConv(p+".branch3.1", 96, 1, 1, 1, 0, 0)
		x = b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: []string{b0, b1, b2, b3}})
	}
	x = b.reductionA(module(), x, 192, 224, 256, 384) // the paper's Table 1: k, l, m, n
	for range 7 {                                     // Inception-B
		p := module()
		b0 := b.basicConv(p+".branch0", 384, 1, 1, 1, 0, 0, x)
		b1 := b.factor7(p+".branch1", x, 192, 224, 256)
		b.basicConv(p+".branch2.0", 192, 1, 1, 1, 0, 0, x)
		b.basicConv(p+".branch2.1", 192, 7, 1, 1, 3, 0)
		b.basicConv(p+".branch2.2", 224, 1, 7, 1, 0, 3)
		b.basicConv(p+".branch2.3", 224, 7, 1, 1, 3, 0)
		b2 := b.basicConv(p+".branch2.4", 256, 1, 7, 1, 0, 3)
		b.pool(p+".branch3.0", AvgPool, 3, 1, 1, false, x)
		b3 := b.basicConv(p+".branch3.1", 128, 1, 1, 1, 0, 0)
		x = b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: []string{b0, b1, b2, b3}})
	}
	{ // Reduction-B
		p := module()
		b.basicConv(p+".branch0.0", 192, 1, 1, 1, 0, 0, x)
		b0 := b.basicConv(p+".branch0.1", 192, 3, 3, 2, 0, 0)
		b.factor7(p+".branch1", x, 256, 256, 320)
		b1 := b.basicConv(p+".branch1.3", 320, 3, 3, 2, 0, 0)
		b2 := b.pool(p+".branch2", MaxPool, 3, 2, 0, false, x)
		x = b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: []string{b0, b1, b2}})
	}
	for range 3 { // Inception-C
		p := module()
		b0 := b.basicConv(p+".branch0", 256, 1, 1, 1, 0, 0, x)
		y := b.basicConv(p+".branch1_0", 384, 1, 1, 1, 0, 0, x)
		b1a := b.basicConv(p+".branch1_1a", 256, 1, 3, 1, 0, 1, y)
		b1b := b.basicConv(p+".branch1_1b", 256, 3, 1, 1, 1, 0, y)
		b.basicConv(p+".branch2_0", 384, 1, 1, 1, 0, 0, x)
		b.basicConv(p+".branch2_1", 448, 3, 1, 1, 1, 0)
		z := b.basicConv(p+".branch2_2", 512, 1, 3, 1, 0, 1)
		b2a := b.basicConv(p+".branch2_3a", 256, 1, 3, 1, 0, 1, z)
		b2b := b.basicConv(p+".branch2_3b", 256, 3, 1, 1, 1, 0, z)
		b.pool(p+".branch3.0", AvgPool, 3, 1, 1, false, x)
		b3 := b.basicConv(p+".branch3.1", 256, 1, 1, 1, 0, 0)
		x = b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: []string{b0, b1a, b1b, b2a, b2b, b3}})
	}
	b.block("head", Head)
	b.op("global_pool", Pool, x)
	b.fc("last_linear", 1536, Classes)
	return b.build()
}

// InceptionResNetV2 returns Inception-ResNet-v2 (Szegedy et al., AAAI
// 2017) as timm builds it (timm/models/inception_resnet_v2.py) at 299 x
// 299, named by its module paths: the stem conv2d_1a ... maxpool_5a,
// mixed_5b, ten Block35 (repeat.0-9), mixed_6a, twenty Block17
// (repeat_1.0-19), mixed_7a, nine Block8 (repeat_2.0-8) and block8 (no
// ReLU), conv2d_7b, global pooling and classif. A residual block's
// branches are concatenated ("<block>.cat"), projected by a 1x1
// convolution with bias (conv2d), scaled and added to its input
// ("<block>.add": the scale is one multiplication an element, counted
// with the addition) and passed through a ReLU ("<block>.relu").
func InceptionResNetV2() (Model, error) {
	b := newNet("inception-resnet-v2", InceptionImage, 3)
	b.block("stem", Stem)
	b.basicConv("conv2d_1a", 32, 3, 3, 2, 0, 0)
	b.basicConv("conv2d_2a", 32, 3, 3, 1, 0, 0)
	b.basicConv("conv2d_2b", 64, 3, 3, 1, 1, 1)
	b.pool("maxpool_3a", MaxPool, 3, 2, 0, false)
	b.basicConv("conv2d_3b", 80, 1, 1, 1, 0, 0)
	b.basicConv("conv2d_4a", 192, 3, 3, 1, 0, 0)
	x := b.pool("maxpool_5a", MaxPool, 3, 2, 0, false)
	b.block("mixed_5b", Module)
	b0 := b.basicConv("mixed_5b.branch0", 96, 1, 1, 1, 0, 0, x)
	b.basicConv("mixed_5b.branch1.0", 48, 1, 1, 1, 0, 0, x)
	b1 := b.basicConv("mixed_5b.branch1.1", 64, 5, 5, 1, 2, 2)
	b.basicConv("mixed_5b.branch2.0", 64, 1, 1, 1, 0, 0, x)
	b.basicConv("mixed_5b.branch2.1", 96, 3, 3, 1, 1, 1)
	b2 := b.basicConv("mixed_5b.branch2.2", 96, 3, 3, 1, 1, 1)
	b.pool("mixed_5b.branch3.0", AvgPool, 3, 1, 1, false, x)
	b3 := b.basicConv("mixed_5b.branch3.1", 64, 1, 1, 1, 0, 0)
	x = b.add(Layer{Name: "mixed_5b.cat", Kind: Concat, Inputs: []string{b0, b1, b2, b3}})
	// residual closes a block: projection, scaled addition, ReLU.
	residual := func(p string, width int, relu bool, branches ...string) {
		cat := b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: branches})
		up := b.add(Layer{Name: p + ".conv2d", Kind: Conv, G: width, Inputs: []string{cat}})
		out := b.op(p+".add", Add, up, x)
		if relu {
			out = b.op(p+".relu", Act)
		}
		x = out
	}
	for i := range 10 { // Block35
		p := fmt.Sprintf("repeat.%d", i)
		b.block(p, Module)
		r0, r1, r2 := b.branches35(p, x, [6]int{32, 32, 32, 32, 48, 64})
		residual(p, 320, true, r0, r1, r2)
	}
	b.block("mixed_6a", Module)
	x = b.reductionA("mixed_6a", x, 256, 256, 384, 384) // Table 1: k, l, m, n
	for i := range 20 {                                 // Block17
		p := fmt.Sprintf("repeat_1.%d", i)
		b.block(p, Module)
		r0 := b.basicConv(p+".branch0", 192, 1, 1, 1, 0, 0, x)
		r1 := b.factor7(p+".branch1", x, 128, 160, 192)
		residual(p, 1088, true, r0, r1)
	}
	b.block("mixed_7a", Module)
	b.basicConv("mixed_7a.branch0.0", 256, 1, 1, 1, 0, 0, x)
	b0 = b.basicConv("mixed_7a.branch0.1", 384, 3, 3, 2, 0, 0)
	b.basicConv("mixed_7a.branch1.0", 256, 1, 1, 1, 0, 0, x)
	b1 = b.basicConv("mixed_7a.branch1.1", 288, 3, 3, 2, 0, 0)
	b.basicConv("mixed_7a.branch2.0", 256, 1, 1, 1, 0, 0, x)
	b.basicConv("mixed_7a.branch2.1", 288, 3, 3, 1, 1, 1)
	b2 = b.basicConv("mixed_7a.branch2.2", 320, 3, 3, 2, 0, 0)
	b3 = b.pool("mixed_7a.branch3", MaxPool, 3, 2, 0, false, x)
	x = b.add(Layer{Name: "mixed_7a.cat", Kind: Concat, Inputs: []string{b0, b1, b2, b3}})
	for i := range 10 { // Block8: nine with a ReLU, the last (block8) without
		p := fmt.Sprintf("repeat_2.%d", i)
		if i == 9 {
			p = "block8"
		}
		b.block(p, Module)
		r0 := b.basicConv(p+".branch0", 192, 1, 1, 1, 0, 0, x)
		b.basicConv(p+".branch1.0", 192, 1, 1, 1, 0, 0, x)
		b.basicConv(p+".branch1.1", 224, 1, 3, 1, 0, 1)
		r1 := b.basicConv(p+".branch1.2", 256, 3, 1, 1, 1, 0)
		residual(p, 2080, i < 9, r0, r1)
	}
	b.block("head", Head)
	b.basicConv("conv2d_7b", 1536, 1, 1, 1, 0, 0, x)
	b.op("global_pool", Pool)
	b.fc("classif", 1536, Classes)
	return b.build()
}

// branches35 adds the three convolution branches the 35 x 35 modules share
// (Inception-A, Block35), all reading x: branch0 a 1x1 to w[0]; branch1 a
// 1x1 to w[1] and a 3x3 to w[2]; branch2 a 1x1 to w[3] and two 3x3 to w[4]
// and w[5]. It returns the three branches' outputs.
func (b *netBuilder) branches35(p, x string, w [6]int) (b0, b1, b2 string) {
	b0 = b.basicConv(p+".branch0", w[0], 1, 1, 1, 0, 0, x)
	b.basicConv(p+".branch1.0", w[1], 1, 1, 1, 0, 0, x)
	b1 = b.basicConv(p+".branch1.1", w[2], 3, 3, 1, 1, 1)
	b.basicConv(p+".branch2.0", w[3], 1, 1, 1, 0, 0, x)
	b.basicConv(p+".branch2.1", w[4], 3, 3, 1, 1, 1)
	b2 = b.basicConv(p+".branch2.2", w[5], 3, 3, 1, 1, 1)
	return b0, b1, b2
}

// reductionA adds the paper's Reduction-A module p (its Fig. 7, with the
// filter counts k, l, m, n of its Table 1) on x: a stride-2 3x3 to n; a
// 1x1 to k, a 3x3 to l and a stride-2 3x3 to m; a stride-2 max pooling.
// It returns the concatenation.
func (b *netBuilder) reductionA(p, x string, k, l, m, n int) string {
	b0 := b.basicConv(p+".branch0", n, 3, 3, 2, 0, 0, x)
	b.basicConv(p+".branch1.0", k, 1, 1, 1, 0, 0, x)
	b.basicConv(p+".branch1.1", l, 3, 3, 1, 1, 1)
	b1 := b.basicConv(p+".branch1.2", m, 3, 3, 2, 0, 0)
	b2 := b.pool(p+".branch2", MaxPool, 3, 2, 0, false, x)
	return b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: []string{b0, b1, b2}})
}

// factor7 adds a 17 x 17 module's factorised branch p: a 1x1 to a, a 1x7
// to c1 and a 7x1 to c2, reading x; it returns the last layer.
func (b *netBuilder) factor7(p, x string, a, c1, c2 int) string {
	b.basicConv(p+".0", a, 1, 1, 1, 0, 0, x)
	b.basicConv(p+".1", c1, 1, 7, 1, 0, 3)
	return b.basicConv(p+".2", c2, 7, 1, 1, 3, 0)
}
