package soc_test

import (
	"fmt"

	"gnnsim/soc"
	"gnnsim/workload"
)

// A model mapped block by block onto the Xavier's GPU and DLA, priced by
// MaGNAS Eq. 6-7 at one DVFS setting. The stem on the DLA and the rest on
// the GPU is one change of unit; the parts of the latency add up.
func ExampleEvaluator_Evaluate() {
	s := soc.Default() // Jetson AGX Xavier: GPU, DLA, one shared memory
	m, err := workload.ViG("s", workload.GIN)
	if err != nil {
		panic(err)
	}
	e, err := soc.NewEvaluator(s, m, soc.Blocks) // Stem, 16 x (Grapher, FFN), Cls
	if err != nil {
		panic(err)
	}
	n := len(e.Segments())
	text := "D"
	for range n - 1 {
		text += ",G"
	}
	mp, err := s.ParseMapping(text, soc.Blocks, n)
	if err != nil {
		panic(err)
	}
	r, err := e.Evaluate(mp, soc.DVFS{"gpu": 1377, "emc": 2133})
	if err != nil {
		panic(err)
	}
	var busy int64
	for _, b := range r.BusyPS {
		busy += b
	}
	fmt.Println("segments:", n, "transitions:", r.Transitions)
	fmt.Println("busy time sums to the latency:", busy == r.LatencyPS, "energy over the platform's share:", r.EnergyPJ > r.PlatformPJ)
	// Output:
	// segments: 34 transitions: 1
	// busy time sums to the latency: true energy over the platform's share: true
}
