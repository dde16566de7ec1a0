package maestro

import "testing"

// BenchmarkAnalyze times one layer evaluation on a pre-parsed dataflow:
// the ViG-Ti FFN expansion (196 x 192 times 192 x 768), the dense graph
// aggregation of 196 nodes and 192 channels, and a stride-2 3x3
// downsampling convolution of Pyramid ViG-Ti, at 256 PEs and a NoC of 64
// elements per cycle.
func BenchmarkAnalyze(b *testing.B) {
	layers := []struct {
		name string
		l    Layer
	}{
		{"fc196x192x768", MatMul(196, 192, 768)},
		{"agg196x196x192", MatMul(196, 196, 192)},
		{"conv3x3s2", Layer{Type: Conv, K: 96, C: 48, R: 3, S: 3, Y: 57, X: 57, Stride: 2}},
	}
	hw := ReferenceHardware(256, 64)
	for _, name := range []string{"kcp_ws", "ykp_os", "dpt", "maeri"} {
		df := mustBuiltin(b, name)
		for _, l := range layers {
			b.Run(name+"/"+l.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Analyze(l.l, df, hw); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkScore times scoring the whole reference set (6,327 runs).
func BenchmarkScore(b *testing.B) {
	ref := sharedReference(b)
	for b.Loop() {
		Score(ref)
	}
}
