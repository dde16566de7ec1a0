package hw_test

import (
	"fmt"

	"gnnsim/accel"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/workload"
)

// A hardware model is an hw.Unit: it prices a Work, here one GCN layer
// (64 input and 16 output features) on a four-node path graph, on the
// Omega-style accelerator at its default configuration.
func ExampleUnit() {
	g, err := graphs.FromEdges(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	if err != nil {
		panic(err)
	}
	u, err := accel.NewUnit(accel.DefaultHW(), accel.Options{})
	if err != nil {
		panic(err)
	}
	var unit hw.Unit = u
	cost, err := unit.Run(hw.LayerWork(g, workload.Layer{Kind: workload.GCN, F: 64, G: 16}))
	if err != nil {
		panic(err)
	}
	// The MACs are the layer's: the combination 4 x 64 x 16 and the
	// aggregation over the 10 non-zeros of A+I at 64 features (the default
	// configuration aggregates first).
	fmt.Println("MACs:", cost.MACs, "=", 4*64*16+10*64, "positive time:", cost.TimePS > 0, "valid:", cost.Validate() == nil)
	// Output:
	// MACs: 4736 = 4736 positive time: true valid: true
}

// NewUnitFunc makes a unit of any cost function: a stand-in for a model
// under construction, or a measured table.
func ExampleNewUnitFunc() {
	flat := hw.NewUnitFunc("flat", func(w hw.Work) (hw.Cost, error) {
		ks, err := w.Kernels()
		if err != nil {
			return hw.Cost{}, err
		}
		var c hw.Cost
		for _, k := range ks {
			c.MACs += k.MACs
		}
		c.Cycles = c.MACs / 256 // 256 MACs a cycle
		c.TimePS = hw.PS(c.Cycles, 1e9)
		return c, nil
	})
	// 1,000 nodes and 6,000 adjacency non-zeros: 1000 x 128 x 64 MACs of
	// combination and (6000 + 1000) x 128 of aggregation over A+I.
	b := workload.Block{In: workload.Size{Nodes: 1000, NNZ: 6000}, Layers: []workload.Layer{{Kind: workload.GCN, F: 128, G: 64}}}
	cost, err := flat.Run(hw.BlockWork(b))
	fmt.Println(flat.Name(), cost.MACs, cost.Cycles, cost.TimePS, err)
	// Output:
	// flat 9088000 35500 35500000 <nil>
}
