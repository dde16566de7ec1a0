package workload

import (
	"math"
	"slices"
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
}

func TestCNNZooPublished(t *testing.T) {
	for _, p := range zooFigures {
		t.Run(p.model+"/"+p.what, func(t *testing.T) {
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
	if !slices.Contains(ModelNames(), "googlenet") {
		t.Error("ModelNames lacks googlenet")
	}
}
