package workload

import "fmt"

// DenseNet121 returns torchvision's DenseNet-121 (Huang et al., CVPR 2017;
// growth rate 32, blocks of 6, 12, 24 and 16 layers, bottleneck width 4 x
// 32, compression 0.5) at 224 x 224, named by its module paths: the stem
// features.conv0, norm0, relu0, pool0; dense layers
// features.denseblockB.denselayerL (norm1, relu1, conv1 1x1 to 128,
// norm2, relu2, conv2 3x3 to 32), each reading the concatenation of the
// block's input and every earlier layer's output (torch.cat in its
// forward, named "<layer>.cat"; the first layer reads the block's input
// itself); transitions features.transitionB (norm, relu, conv 1x1 to half
// the width, 2x2 average pooling); features.norm5, the functional ReLU
// ("relu") and pooling ("adaptive_avg_pool2d"), and the classifier.
func DenseNet121() (Model, error) {
	const growth, bottleneck = 32, 4
	b := newNet("densenet121", CNNImage, 3)
	b.block("features.stem", Stem)
	b.add(Layer{Name: "features.conv0", Kind: Conv, G: 64, Window: 7, Stride: 2, Pad: 3, NoBias: true})
	b.op("features.norm0", BN)
	b.op("features.relu0", Act)
	b.pool("features.pool0", MaxPool, 3, 2, 1, false)
	width := 64
	for bi, n := range []int{6, 12, 24, 16} {
		feats := []string{b.last}
		for l := range n {
			p := fmt.Sprintf("features.denseblock%d.denselayer%d", bi+1, l+1)
			b.block(p, Module)
			in := feats[0]
			if len(feats) > 1 {
				in = b.add(Layer{Name: p + ".cat", Kind: Concat, Inputs: append([]string(nil), feats...)})
			}
			b.op(p+".norm1", BN, in)
			b.op(p+".relu1", Act)
			b.add(Layer{Name: p + ".conv1", Kind: Conv, G: bottleneck * growth, NoBias: true})
			b.op(p+".norm2", BN)
			b.op(p+".relu2", Act)
			feats = append(feats, b.add(Layer{Name: p + ".conv2", Kind: Conv, G: growth, Window: 3, Pad: 1, NoBias: true}))
		}
		width += n * growth
		cat := b.add(Layer{Name: fmt.Sprintf("features.denseblock%d.cat", bi+1), Kind: Concat, Inputs: feats})
		if bi == 3 {
			break
		}
		p := fmt.Sprintf("features.transition%d", bi+1)
		b.block(p, Module)
		b.op(p+".norm", BN, cat)
		b.op(p+".relu", Act)
		width /= 2
		b.add(Layer{Name: p + ".conv", Kind: Conv, G: width, NoBias: true})
		b.pool(p+".pool", AvgPool, 2, 2, 0, false)
	}
	b.block("classifier", Head)
	b.op("features.norm5", BN)
	b.op("relu", Act)
	b.op("adaptive_avg_pool2d", Pool)
	b.fc("classifier", width, Classes)
	return b.build()
}

// MobileNetV1 returns MobileNet v1 (Howard et al., "MobileNets", 2017,
// Table 1; width 1.0, 224 x 224) with Keras Applications' layer names: a
// 3x3 stride-2 convolution to 32 (conv1, conv1_bn, conv1_relu), thirteen
// depthwise-separable blocks conv_dw_N / conv_pw_N (3x3 depthwise
// convolution, BN, ReLU6; 1x1 pointwise convolution, BN, ReLU6), global
// average pooling and the classifier (Keras's conv_preds, a 1x1
// convolution with bias: a fully connected layer here).
func MobileNetV1() (Model, error) {
	b := newNet("mobilenet-v1", CNNImage, 3)
	b.block("conv1", Stem)
	b.add(Layer{Name: "conv1", Kind: Conv, G: 32, Window: 3, Stride: 2, Pad: 1, NoBias: true})
	b.op("conv1_bn", BN)
	b.op("conv1_relu", Act)
	in := 32
	// Table 1: pointwise width and depthwise stride of blocks 1-13.
	for i, x := range [][2]int{{64, 1}, {128, 2}, {128, 1}, {256, 2}, {256, 1}, {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1}, {512, 1}, {1024, 2}, {1024, 1}} {
		n := i + 1
		b.block(fmt.Sprintf("block%d", n), Module)
		b.add(Layer{Name: fmt.Sprintf("conv_dw_%d", n), Kind: Conv, G: in, Window: 3, Stride: x[1], Pad: 1, Groups: in, NoBias: true})
		b.op(fmt.Sprintf("conv_dw_%d_bn", n), BN)
		b.op(fmt.Sprintf("conv_dw_%d_relu", n), Act)
		b.add(Layer{Name: fmt.Sprintf("conv_pw_%d", n), Kind: Conv, G: x[0], NoBias: true})
		b.op(fmt.Sprintf("conv_pw_%d_bn", n), BN)
		b.op(fmt.Sprintf("conv_pw_%d_relu", n), Act)
		in = x[0]
	}
	b.block("head", Head)
	b.op("global_average_pooling2d", Pool)
	b.fc("conv_preds", 1024, Classes)
	return b.build()
}
