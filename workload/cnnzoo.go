package workload

import "fmt"

// The CNN zoo's networks of the concurrent-DNN studies on Jetson GPU + DLA
// (HaX-CoNN, H2H, Herald and their kin): ResNet-18 and ResNet-152 (ResNet
// builds them), VGG-19, DenseNet-121 and MobileNet v1, each named as its
// reference definition names its layers. See cnn.go for the conventions.

// vgg returns torchvision's VGG of the given stages of 3x3 convolutions
// (configuration "D", VGG-16, or "E", VGG-19; no batch norm): features.i
// numbered as torchvision's Sequential numbers them, each stage closed by a
// 2x2 max pooling, the 7 x 7 adaptive average pooling (an identity on the
// 7 x 7 map: a 1x1 window here) and the three-layer classifier.
func vgg(name string, stages [][]int) (Model, error) {
	b := newNet(name, CNNImage, 3)
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

// VGG19 returns torchvision's VGG-19 (configuration "E" of Simonyan and
// Zisserman, ICLR 2015): sixteen 3x3 convolutions (features.0 to
// features.36), as VGG16 otherwise.
func VGG19() (Model, error) {
	return vgg("vgg19", [][]int{{64, 64}, {128, 128}, {256, 256, 256, 256}, {512, 512, 512, 512}, {512, 512, 512, 512}})
}

// basicBlock adds torchvision's BasicBlock layerS.B of ResNet-18/34: two
// 3x3 convolutions with BN (the first with the stage's stride), a 1x1
// downsample projection when the stride or width changes, the residual add
// and the last ReLU ("relu" applied twice: relu, relu_1).
func (b *netBuilder) basicBlock(p string, width, stride int, project bool) {
	in := b.last
	b.block(p[:len(p)-1], Module)
	b.add(Layer{Name: p + "conv1", Kind: Conv, G: width, Window: 3, Stride: stride, Pad: 1, NoBias: true})
	b.op(p+"bn1", BN)
	b.op(p+"relu", Act)
	b.add(Layer{Name: p + "conv2", Kind: Conv, G: width, Window: 3, Pad: 1, NoBias: true})
	main := b.op(p+"bn2", BN)
	shortcut := in
	if project {
		b.add(Layer{Name: p + "downsample.0", Kind: Conv, G: width, Stride: stride, NoBias: true, Inputs: []string{in}})
		shortcut = b.op(p+"downsample.1", BN)
	}
	b.op(p+"add", Add, main, shortcut)
	b.op(p+"relu_1", Act)
}

// DenseNet121 returns torchvision's DenseNet-121 (Huang et al., CVPR 2017;
// growth rate 32, blocks of 6, 12, 24 and 16 layers, bottleneck width 4 x
// 32, compression 0.5) on 224 x 224: features.conv0 ... pool0, dense blocks
// whose layers (norm1, relu1, 1x1 conv1 to 128, norm2, relu2, 3x3 conv2 to
// 32) each read the concatenation of the block's input and every earlier
// layer's output ("<layer>.cat", torch.cat in _DenseLayer.bn_function; the
// first layer reads the block input alone), the block's output the
// concatenation of all ("<block>.cat"), transitions (norm, relu, 1x1 conv
// halving the channels, 2x2 average pooling), features.norm5, the
// functional ReLU and pooling, and classifier.
func DenseNet121() (Model, error) {
	const growth, bottleneck = 32, 4 * 32
	b := newNet("densenet121", CNNImage, 3)
	b.block("features.stem", Stem)
	b.add(Layer{Name: "features.conv0", Kind: Conv, G: 64, Window: 7, Stride: 2, Pad: 3, NoBias: true})
	b.op("features.norm0", BN)
	b.op("features.relu0", Act)
	b.pool("features.pool0", MaxPool, 3, 2, 1, false)
	channels := 64
	for bi, n := range []int{6, 12, 24, 16} {
		blk := fmt.Sprintf("features.denseblock%d", bi+1)
		feats := []string{b.last}
		for li := range n {
			p := fmt.Sprintf("%s.denselayer%d.", blk, li+1)
			b.block(p[:len(p)-1], Module)
			in := feats[0]
			if len(feats) > 1 {
				in = b.op(p+"cat", Concat, feats...)
			}
			b.op(p+"norm1", BN, in)
			b.op(p+"relu1", Act)
			b.add(Layer{Name: p + "conv1", Kind: Conv, G: bottleneck, NoBias: true})
			b.op(p+"norm2", BN)
			b.op(p+"relu2", Act)
			feats = append(feats, b.add(Layer{Name: p + "conv2", Kind: Conv, G: growth, Window: 3, Pad: 1, NoBias: true}))
		}
		channels += n * growth
		b.block(blk+".out", Module)
		b.op(blk+".cat", Concat, feats...)
		if bi == 3 {
			break
		}
		t := fmt.Sprintf("features.transition%d.", bi+1)
		channels /= 2
		b.block(t[:len(t)-1], Downsample)
		b.op(t+"norm", BN)
		b.op(t+"relu", Act)
		b.add(Layer{Name: t + "conv", Kind: Conv, G: channels, NoBias: true})
		b.pool(t+"pool", AvgPool, 2, 2, 0, false)
	}
	b.block("head", Head)
	b.op("features.norm5", BN)
	b.op("relu", Act)
	b.op("adaptive_avg_pool2d", Pool)
	b.fc("classifier", channels, Classes)
	return b.build()
}

// MobileNetV1 returns MobileNet v1 (Howard et al., arXiv 1704.04861, width
// 1.0, 224 x 224; its Table 1) as the widely used Caffe port
// (shicai/MobileNet-Caffe, mobilenet_deploy.prototxt) names it: conv1 (3x3
// stride 2 to 32), thirteen depthwise-separable pairs convX_Y/dw (3x3
// depthwise) and convX_Y/sep (1x1 pointwise), each with BN (".../bn"; the
// port's separate Scale layer is the BN's affine, part of BN here) and
// ReLU (reluX_Y/dw, reluX_Y/sep), global average pooling pool6, the 1x1
// convolution classifier fc7 and the softmax prob. Convolutions have no
// bias; fc7 has one.
func MobileNetV1() (Model, error) {
	b := newNet("mobilenet-v1", CNNImage, 3)
	b.block("conv1", Stem)
	b.add(Layer{Name: "conv1", Kind: Conv, G: 32, Window: 3, Stride: 2, Pad: 1, NoBias: true})
	b.op("conv1/bn", BN)
	b.op("relu1", Act)
	// name, output channels and stride of each depthwise-separable pair
	// (Table 1: "Conv dw / s2" rows halve the grid).
	pairs := []struct {
		name   string
		out, s int
	}{
		{"2_1", 64, 1}, {"2_2", 128, 2}, {"3_1", 128, 1}, {"3_2", 256, 2}, {"4_1", 256, 1}, {"4_2", 512, 2},
		{"5_1", 512, 1}, {"5_2", 512, 1}, {"5_3", 512, 1}, {"5_4", 512, 1}, {"5_5", 512, 1}, {"5_6", 1024, 2}, {"6", 1024, 1},
	}
	in := 32
	for _, p := range pairs {
		n := "conv" + p.name
		b.block(n, Module)
		b.add(Layer{Name: n + "/dw", Kind: Conv, G: in, Window: 3, Stride: p.s, Pad: 1, Groups: in, NoBias: true})
		b.op(n+"/dw/bn", BN)
		b.op("relu"+p.name+"/dw", Act)
		b.add(Layer{Name: n + "/sep", Kind: Conv, G: p.out, NoBias: true})
		b.op(n+"/sep/bn", BN)
		b.op("relu"+p.name+"/sep", Act)
		in = p.out
	}
	b.block("head", Head)
	b.op("pool6", Pool)
	b.add(Layer{Name: "fc7", Kind: Conv, G: Classes})
	b.op("prob", Softmax)
	return b.build()
}
