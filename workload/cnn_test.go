package workload

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// zooShape is a named layer's output in a reference definition: channels
// and the H x W grid.
type zooShape struct {
	layer   string
	c, h, w int64
}

// TestCNNZooShapes checks named layers' output sizes against their
// reference definitions: BVLC Caffe's deploy.prototxt for GoogleNet (blob
// shapes as Caffe's own shape inference gives them, ceil-mode pooling) and
// AlexNet, torchvision's modules for the others (shapes as
// torchinfo/torchsummary print them for a 224 x 224 input).
func TestCNNZooShapes(t *testing.T) {
	tests := []struct {
		model  string
		shapes []zooShape
	}{
		{"googlenet", []zooShape{
			{"conv1/7x7_s2", 64, 112, 112},
			{"pool1/3x3_s2", 64, 56, 56}, // ceil((112-3)/2)+1: Caffe rounds up
			{"pool1/norm1", 64, 56, 56},
			{"conv2/3x3", 192, 56, 56},
			{"pool2/3x3_s2", 192, 28, 28},
			{"inception_3a/3x3_reduce", 96, 28, 28},
			{"inception_3a/pool", 192, 28, 28},
			{"inception_3a/output", 256, 28, 28},
			{"inception_3b/output", 480, 28, 28},
			{"pool3/3x3_s2", 480, 14, 14},
			{"inception_4a/output", 512, 14, 14},
			{"inception_4e/output", 832, 14, 14},
			{"pool4/3x3_s2", 832, 7, 7},
			{"inception_5b/output", 1024, 7, 7},
			{"pool5/7x7_s1", 1024, 1, 1},
			{"loss3/classifier", 1000, 1, 1},
			{"prob", 1000, 1, 1},
		}},
		{"alexnet", []zooShape{
			{"conv1", 96, 55, 55}, // 227 input: (227 - 11)/4 + 1
			{"norm1", 96, 55, 55},
			{"pool1", 96, 27, 27},
			{"conv2", 256, 27, 27},
			{"pool2", 256, 13, 13},
			{"conv3", 384, 13, 13},
			{"conv5", 256, 13, 13},
			{"pool5", 256, 6, 6},
			{"fc6", 4096, 1, 1},
			{"prob", 1000, 1, 1},
		}},
		{"vgg16", []zooShape{
			{"features.0", 64, 224, 224},
			{"features.4", 64, 112, 112},
			{"features.9", 128, 56, 56},
			{"features.16", 256, 28, 28},
			{"features.23", 512, 14, 14},
			{"features.28", 512, 14, 14},
			{"features.30", 512, 7, 7},
			{"avgpool", 512, 7, 7},
			{"classifier.0", 4096, 1, 1},
			{"classifier.6", 1000, 1, 1},
		}},
		{"resnet50", []zooShape{
			{"conv1", 64, 112, 112},
			{"maxpool", 64, 56, 56},
			{"layer1.0.conv1", 64, 56, 56},
			{"layer1.0.conv3", 256, 56, 56},
			{"layer1.0.downsample.0", 256, 56, 56},
			{"layer2.0.conv1", 128, 56, 56},
			{"layer2.0.conv2", 128, 28, 28}, // v1.5: the stride is on the 3x3
			{"layer2.0.downsample.0", 512, 28, 28},
			{"layer3.5.relu_2", 1024, 14, 14},
			{"layer4.2.add", 2048, 7, 7},
			{"avgpool", 2048, 1, 1},
			{"fc", 1000, 1, 1},
		}},
		{"resnet101", []zooShape{
			{"layer3.22.relu_2", 1024, 14, 14},
			{"layer4.0.downsample.0", 2048, 7, 7},
			{"fc", 1000, 1, 1},
		}},
		{"mobilenetv2", []zooShape{
			{"features.0.0", 32, 112, 112},
			{"features.1.conv.0.0", 32, 112, 112},
			{"features.1.conv.1", 16, 112, 112},
			{"features.2.conv.0.0", 96, 112, 112},
			{"features.2.conv.1.0", 96, 56, 56},
			{"features.2.conv.2", 24, 56, 56},
			{"features.3.add", 24, 56, 56},
			{"features.7.conv.1.0", 192, 14, 14},
			{"features.14.conv.1.0", 576, 7, 7},
			{"features.17.conv.2", 320, 7, 7},
			{"features.18.0", 1280, 7, 7},
			{"adaptive_avg_pool2d", 1280, 1, 1},
			{"classifier.1", 1000, 1, 1},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			m, err := LookupModel(tc.model, 0)
			if err != nil {
				t.Fatal(err)
			}
			nodes, err := m.Graph()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.shapes {
				n, ok := Lookup(nodes, s.layer)
				if !ok {
					t.Errorf("%s: no layer %q", tc.model, s.layer)
					continue
				}
				if got := n.Layer.OutWidth(); int64(got) != s.c || n.Out.H != s.h || n.Out.W != s.w {
					t.Errorf("%s: %s = %d x %d x %d, want %d x %d x %d", tc.model, s.layer, got, n.Out.H, n.Out.W, s.c, s.h, s.w)
				}
			}
		})
	}
}

// published is a figure from a paper or a model zoo's documentation, with
// the tolerance this package is held to and why, when it is not 2 %.
type published struct {
	model  string
	what   string // "macs" or "params"
	value  float64
	tol    float64 // relative
	source string
}

// zooFigures are the published MACs (multiply-accumulates) and parameter
// counts of the CNN zoo.
var zooFigures = []published{
	// GoogleNet. Szegedy et al., "Going deeper with convolutions" (CVPR
	// 2015), Sec. 1: the models "keep a computational budget of 1.5
	// billion multiply-adds at inference time": a round design budget, not
	// a count. The BVLC definition's convolutions and classifier count
	// 1.583 G (conv1 alone is 112 x 112 x 64 outputs of 7 x 7 x 3 = 118 M),
	// +5.5 %: held here to 6 %, the 2 % of the other figures not being
	// meaningful against a rounded budget. The parameter count below pins
	// the definition exactly.
	{"googlenet", "macs", 1.5e9, 0.06, "Szegedy et al. 2015, budget of 1.5 G multiply-adds"},
	// OpenVINO Open Model Zoo, models/public/googlenet-v1 (the BVLC Caffe
	// model): 6.999 MParams.
	{"googlenet", "params", 6.999e6, 0.02, "Open Model Zoo googlenet-v1: 6.999 M parameters"},
	// AlexNet (BVLC, grouped convolutions, 227 x 227). Sze et al.,
	// "Efficient Processing of Deep Neural Networks: A Tutorial and
	// Survey", Proc. IEEE 105(12), 2017, Table 4: 724 M MACs, 61 M
	// weights.
	{"alexnet", "macs", 724e6, 0.02, "Sze et al. 2017, Table 4: 724 M MACs"},
	{"alexnet", "params", 61e6, 0.02, "Sze et al. 2017, Table 4: 61 M weights"},
	// torchvision's models: the weights' metadata in
	// torchvision/models/{vgg,resnet,mobilenetv2}.py, "_ops" (GFLOPS in
	// the docs' table, counted as multiply-adds of the convolutions and
	// linear layers) and "num_params".
	{"vgg16", "macs", 15.47e9, 0.02, "torchvision VGG16_Weights _ops 15.47"},
	{"vgg16", "params", 138357544, 0.02, "torchvision VGG16_Weights num_params"},
	{"resnet50", "macs", 4.089e9, 0.02, "torchvision ResNet50_Weights _ops 4.089"},
	{"resnet50", "params", 25557032, 0.02, "torchvision ResNet50_Weights num_params"},
	{"resnet101", "macs", 7.801e9, 0.02, "torchvision ResNet101_Weights _ops 7.801"},
	{"resnet101", "params", 44549160, 0.02, "torchvision ResNet101_Weights num_params"},
	// MobileNetV2: Sandler et al. (CVPR 2018), Table 4: 300 M
	// multiply-adds; torchvision _ops 0.301, num_params 3504872.
	{"mobilenetv2", "macs", 300e6, 0.02, "Sandler et al. 2018, Table 4: 300 M multiply-adds"},
	{"mobilenetv2", "macs", 0.301e9, 0.02, "torchvision MobileNet_V2_Weights _ops 0.301"},
	{"mobilenetv2", "params", 3504872, 0.02, "torchvision MobileNet_V2_Weights num_params"},
	// Issue 35's zoo, held to 1 %: torchvision's weights metadata as
	// above, and MobileNet v1's paper (Howard et al. 2017, Table 8: 1.0
	// MobileNet-224, 569 M mult-adds, 4.2 M parameters).
	{"resnet18", "macs", 1.814e9, 0.01, "torchvision ResNet18_Weights _ops 1.814"},
	{"resnet18", "params", 11689512, 0.01, "torchvision ResNet18_Weights num_params"},
	{"resnet152", "macs", 11.514e9, 0.01, "torchvision ResNet152_Weights _ops 11.514"},
	{"resnet152", "params", 60192808, 0.01, "torchvision ResNet152_Weights num_params"},
	{"vgg19", "macs", 19.632e9, 0.01, "torchvision VGG19_Weights _ops 19.632"},
	{"vgg19", "params", 143667240, 0.01, "torchvision VGG19_Weights num_params"},
	{"densenet121", "macs", 2.834e9, 0.01, "torchvision DenseNet121_Weights _ops 2.834"},
	{"densenet121", "params", 7978856, 0.01, "torchvision DenseNet121_Weights num_params"},
	{"mobilenet-v1", "macs", 569e6, 0.01, "Howard et al. 2017, Table 8: 569 M mult-adds"},
	{"mobilenet-v1", "params", 4.2e6, 0.01, "Howard et al. 2017, Table 8: 4.2 M parameters"},
	// timm's model cards (huggingface.co/timm/inception_v4.tf_in1k,
	// inception_resnet_v2.tf_in1k): Params (M) and GMACs at 299 x 299;
	// OpenVINO's googlenet-v4-tf (1001 classes): 42.648 MParams, 24.584
	// GFLOPs.
	{"inception-v4", "macs", 12.3e9, 0.01, "timm inception_v4.tf_in1k: 12.3 GMACs"},
	{"inception-v4", "macs", 24.584e9 / 2, 0.01, "OpenVINO googlenet-v4-tf: 24.584 GFLOPs"},
	{"inception-v4", "params", 42.7e6, 0.01, "timm inception_v4.tf_in1k: 42.7 M params"},
	{"inception-resnet-v2", "macs", 13.2e9, 0.01, "timm inception_resnet_v2.tf_in1k: 13.2 GMACs"},
	{"inception-resnet-v2", "params", 55.8e6, 0.01, "timm inception_resnet_v2.tf_in1k: 55.8 M params"},
}

func TestCNNZooPublished(t *testing.T) {
	for _, p := range zooFigures {
		t.Run(p.model+"/"+p.what+"/"+strings.Fields(p.source)[0], func(t *testing.T) {
			m, err := LookupModel(p.model, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got float64
			switch p.what {
			case "macs":
				macs, err := m.MACs()
				if err != nil {
					t.Fatal(err)
				}
				got = float64(macs)
			case "params":
				got = float64(m.Params())
			}
			if d := got/p.value - 1; math.Abs(d) > p.tol {
				t.Errorf("%s %s = %.4g, published %.4g (%s): %+.1f %%, want within %.0f %%", p.model, p.what, got, p.value, p.source, 100*d, 100*p.tol)
			} else {
				t.Logf("%s %s = %.4g, published %.4g (%s): %+.2f %%", p.model, p.what, got, p.value, p.source, 100*d)
			}
		})
	}
}

// TestGoogleNetGraph checks the DAG a consumer reads fusion from: the four
// branches of a module read its input, the concat joins the four ReLUs, and
// 57 convolutions (the layers a TensorRT profile of GoogleNet times).
func TestGoogleNetGraph(t *testing.T) {
	m, err := GoogleNet()
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := m.Graph()
	if err != nil {
		t.Fatal(err)
	}
	name := func(is []int) []string {
		var s []string
		for _, i := range is {
			s = append(s, nodes[i].Name)
		}
		return s
	}
	pool2, _ := Lookup(nodes, "pool2/3x3_s2")
	if got, want := name(pool2.Readers), []string{"inception_3a/1x1", "inception_3a/3x3_reduce", "inception_3a/5x5_reduce", "inception_3a/pool"}; !slices.Equal(got, want) {
		t.Errorf("pool2/3x3_s2 readers = %v, want %v", got, want)
	}
	out, _ := Lookup(nodes, "inception_4c/output")
	if got, want := name(out.Inputs), []string{"inception_4c/relu_1x1", "inception_4c/relu_3x3", "inception_4c/relu_5x5", "inception_4c/relu_pool_proj"}; !slices.Equal(got, want) {
		t.Errorf("inception_4c/output inputs = %v, want %v", got, want)
	}
	if out.InWidth != 512 || out.Layer.G != 512 {
		t.Errorf("inception_4c/output: %d channels in, %d out, want 512", out.InWidth, out.Layer.G)
	}
	relu, _ := Lookup(nodes, "inception_4c/relu_3x3")
	if got := name(relu.Inputs); !slices.Equal(got, []string{"inception_4c/3x3"}) {
		t.Errorf("inception_4c/relu_3x3 reads %v", got)
	}
	convs := 0
	for _, n := range nodes {
		if n.Layer.Kind == Conv {
			convs++
		}
	}
	if convs != 57 {
		t.Errorf("%d convolutions, want 57", convs)
	}
	if len(nodes) != 141 {
		// deploy.prototxt: 142 layers after the input, less one dropout
		t.Errorf("%d layers, want 141", len(nodes))
	}
}

// TestLookupModelCNN checks the CLI's lookup: case-insensitive names, and a
// graph op other than the default refused for a CNN.
func TestLookupModelCNN(t *testing.T) {
	if _, err := LookupModel("GoogleNet", MRConv); err != nil {
		t.Errorf("LookupModel(GoogleNet, mrconv): %v", err)
	}
	if _, err := LookupModel("googlenet", GIN); err == nil {
		t.Error("LookupModel(googlenet, gin) succeeded")
	}
	for _, n := range []string{"googlenet", "alexnet", "vgg16", "resnet50", "resnet101", "mobilenetv2"} {
		if !slices.Contains(ModelNames(), n) {
			t.Errorf("ModelNames lacks %s", n)
		}
	}
	if _, err := ResNet(34); err == nil {
		t.Error("ResNet(34) succeeded")
	}
}

// TestResidualGraphs checks the residual joins of the torchvision models:
// what each add reads, and that a downsample projection reads its block's
// input.
func TestResidualGraphs(t *testing.T) {
	tests := []struct {
		model, layer string
		inputs       []string
	}{
		{"resnet50", "layer1.0.downsample.0", []string{"maxpool"}},
		{"resnet50", "layer1.0.add", []string{"layer1.0.bn3", "layer1.0.downsample.1"}},
		{"resnet50", "layer1.1.add", []string{"layer1.1.bn3", "layer1.0.relu_2"}},
		{"resnet50", "layer1.1.conv1", []string{"layer1.0.relu_2"}},
		{"resnet50", "layer1.0.relu_1", []string{"layer1.0.bn2"}},
		{"resnet101", "layer3.22.add", []string{"layer3.22.bn3", "layer3.21.relu_2"}},
		{"mobilenetv2", "features.3.add", []string{"features.3.conv.3", "features.2.conv.3"}},
		{"mobilenetv2", "features.4.conv.0.0", []string{"features.3.add"}},
		{"vgg16", "classifier.0", []string{"avgpool"}},
		{"alexnet", "norm1", []string{"relu1"}},
	}
	graphs := map[string][]Node{}
	for _, tc := range tests {
		nodes, ok := graphs[tc.model]
		if !ok {
			m, err := LookupModel(tc.model, 0)
			if err != nil {
				t.Fatal(err)
			}
			if nodes, err = m.Graph(); err != nil {
				t.Fatal(err)
			}
			graphs[tc.model] = nodes
		}
		n, ok := Lookup(nodes, tc.layer)
		if !ok {
			t.Errorf("%s: no layer %s", tc.model, tc.layer)
			continue
		}
		var got []string
		for _, i := range n.Inputs {
			got = append(got, nodes[i].Name)
		}
		if !slices.Equal(got, tc.inputs) {
			t.Errorf("%s: %s reads %v, want %v", tc.model, tc.layer, got, tc.inputs)
		}
	}
	// MobileNetV2 has a residual add in the ten blocks that keep their
	// size and width; ResNet-50 a projection in the first block of each
	// of its four stages.
	count := func(model, suffix string) int {
		c := 0
		for _, n := range graphs[model] {
			if strings.HasSuffix(n.Name, suffix) {
				c++
			}
		}
		return c
	}
	if got := count("mobilenetv2", ".add"); got != 10 {
		t.Errorf("mobilenetv2: %d residual adds, want 10", got)
	}
	if got := count("resnet50", "downsample.0"); got != 4 {
		t.Errorf("resnet50: %d projections, want 4", got)
	}
}

// BenchmarkGoogleNetKernels measures one pass over GoogleNet's kernels,
// the work a per-layer costing repeats.
func BenchmarkGoogleNetKernels(b *testing.B) {
	m, err := GoogleNet()
	if err != nil {
		b.Fatal(err)
	}
	ks := make([]Kernel, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		ks = ks[:0]
		for _, blk := range m.Blocks {
			if ks, err = blk.AppendKernels(ks); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestRectangularWindow: a 1x7 convolution padded (0, 3) keeps a 17 x 17
// grid and counts 7 taps; bad widths are errors.
func TestRectangularWindow(t *testing.T) {
	l := Layer{Name: "c", Kind: Conv, F: 192, G: 224, Window: 1, WindowW: 7, PadW: 3, NoBias: true}
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	out, err := l.OutSize(Grid(17, 17))
	if err != nil || out.H != 17 || out.W != 17 {
		t.Errorf("1x7 on 17x17: %+v, %v", out, err)
	}
	if got, want := l.Params(), int64(7*192*224); got != want {
		t.Errorf("1x7 params %d, want %d", got, want)
	}
	tall := Layer{Name: "c", Kind: Conv, F: 4, G: 4, Window: 7, Pad: 3, WindowW: 1}
	if out, err := tall.OutSize(Grid(17, 9)); err != nil || out.H != 17 || out.W != 9 {
		t.Errorf("7x1 on 17x9: %+v, %v", out, err)
	}
	for _, bad := range []Layer{
		{Name: "c", Kind: Conv, F: 4, G: 4, WindowW: 16},
		{Name: "c", Kind: Conv, F: 4, G: 4, WindowW: 3, PadW: 3},
		{Name: "c", Kind: Conv, F: 4, G: 4, PadW: 1},
		{Name: "c", Kind: BN, F: 4, G: 4, WindowW: 3},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
