package bench

// The row of an fpga sweep: every gene of a design in its own column, in
// fixed layer slots (the genes of layer i are the l<i>_ columns), so that
// the schema depends on nothing but this type.

import "gnnsim/accel/fpga"

// fpgaMaxLayers is the number of layer slots of an FPGA row: FGNAS's
// designs have two layers, the slots allow four.
const fpgaMaxLayers = 4

// FPGARow is one row of an fpga sweep's runs table: one design point (see
// the package doc for the columns).
type FPGARow struct {
	PointID   int64  `parquet:"point_id"`
	Data      string `parquet:"data"`
	CostModel string `parquet:"cost_model"`
	Arch      string `parquet:"arch"`
	Tiles     string `parquet:"tiles"`
	Bits      string `parquet:"bits"`
	Layers    int64  `parquet:"layers"`
	L0Attn    string `parquet:"l0_attn"`
	L0Aggr    string `parquet:"l0_aggr"`
	L0Act     string `parquet:"l0_act"`
	L0Embed   int64  `parquet:"l0_embed"`
	L0Heads   int64  `parquet:"l0_heads"`
	L0TIn     int64  `parquet:"l0_t_in"`
	L0TOut    int64  `parquet:"l0_t_out"`
	L0TAttn   int64  `parquet:"l0_t_attn"`
	L0TAggr   int64  `parquet:"l0_t_aggr"`
	L0TAct    int64  `parquet:"l0_t_act"`
	L0WInt    int64  `parquet:"l0_w_int"`
	L0WFrac   int64  `parquet:"l0_w_frac"`
	L0AInt    int64  `parquet:"l0_a_int"`
	L0AFrac   int64  `parquet:"l0_a_frac"`
	L1Attn    string `parquet:"l1_attn"`
	L1Aggr    string `parquet:"l1_aggr"`
	L1Act     string `parquet:"l1_act"`
	L1Embed   int64  `parquet:"l1_embed"`
	L1Heads   int64  `parquet:"l1_heads"`
	L1TIn     int64  `parquet:"l1_t_in"`
	L1TOut    int64  `parquet:"l1_t_out"`
	L1TAttn   int64  `parquet:"l1_t_attn"`
	L1TAggr   int64  `parquet:"l1_t_aggr"`
	L1TAct    int64  `parquet:"l1_t_act"`
	L1WInt    int64  `parquet:"l1_w_int"`
	L1WFrac   int64  `parquet:"l1_w_frac"`
	L1AInt    int64  `parquet:"l1_a_int"`
	L1AFrac   int64  `parquet:"l1_a_frac"`
	L2Attn    string `parquet:"l2_attn"`
	L2Aggr    string `parquet:"l2_aggr"`
	L2Act     string `parquet:"l2_act"`
	L2Embed   int64  `parquet:"l2_embed"`
	L2Heads   int64  `parquet:"l2_heads"`
	L2TIn     int64  `parquet:"l2_t_in"`
	L2TOut    int64  `parquet:"l2_t_out"`
	L2TAttn   int64  `parquet:"l2_t_attn"`
	L2TAggr   int64  `parquet:"l2_t_aggr"`
	L2TAct    int64  `parquet:"l2_t_act"`
	L2WInt    int64  `parquet:"l2_w_int"`
	L2WFrac   int64  `parquet:"l2_w_frac"`
	L2AInt    int64  `parquet:"l2_a_int"`
	L2AFrac   int64  `parquet:"l2_a_frac"`
	L3Attn    string `parquet:"l3_attn"`
	L3Aggr    string `parquet:"l3_aggr"`
	L3Act     string `parquet:"l3_act"`
	L3Embed   int64  `parquet:"l3_embed"`
	L3Heads   int64  `parquet:"l3_heads"`
	L3TIn     int64  `parquet:"l3_t_in"`
	L3TOut    int64  `parquet:"l3_t_out"`
	L3TAttn   int64  `parquet:"l3_t_attn"`
	L3TAggr   int64  `parquet:"l3_t_aggr"`
	L3TAct    int64  `parquet:"l3_t_act"`
	L3WInt    int64  `parquet:"l3_w_int"`
	L3WFrac   int64  `parquet:"l3_w_frac"`
	L3AInt    int64  `parquet:"l3_a_int"`
	L3AFrac   int64  `parquet:"l3_a_frac"`

	Cycles          int64  `parquet:"cycles"`
	SummedCycles    int64  `parquet:"summed_cycles"`
	PipelinedCycles int64  `parquet:"pipelined_cycles"`
	LatencyPS       int64  `parquet:"latency_ps"`
	MACs            int64  `parquet:"macs"`
	DRAMBytes       int64  `parquet:"dram_bytes"`
	LUT             int64  `parquet:"lut"`
	FF              int64  `parquet:"ff"`
	DSP             int64  `parquet:"dsp"`
	BRAM18          int64  `parquet:"bram18"`
	Feasible        bool   `parquet:"feasible"`
	Over            string `parquet:"over"`
}

// setGenes fills the gene columns of r from design d (at most
// fpgaMaxLayers layers; the slots of absent layers stay empty and 0).
func (r *FPGARow) setGenes(d *fpga.Design) {
	if len(d.Layers) > 0 {
		x := &d.Layers[0]
		r.L0Attn, r.L0Aggr, r.L0Act = x.Attn.String(), x.Aggr.String(), x.Act.String()
		r.L0Embed, r.L0Heads = int64(x.Embed), int64(x.Heads)
		r.L0TIn, r.L0TOut, r.L0TAttn, r.L0TAggr, r.L0TAct = int64(x.T.In), int64(x.T.Out), int64(x.T.Attn), int64(x.T.Aggr), int64(x.T.Act)
		r.L0WInt, r.L0WFrac, r.L0AInt, r.L0AFrac = int64(x.Bits.W.Int), int64(x.Bits.W.Frac), int64(x.Bits.A.Int), int64(x.Bits.A.Frac)
	}
	if len(d.Layers) > 1 {
		x := &d.Layers[1]
		r.L1Attn, r.L1Aggr, r.L1Act = x.Attn.String(), x.Aggr.String(), x.Act.String()
		r.L1Embed, r.L1Heads = int64(x.Embed), int64(x.Heads)
		r.L1TIn, r.L1TOut, r.L1TAttn, r.L1TAggr, r.L1TAct = int64(x.T.In), int64(x.T.Out), int64(x.T.Attn), int64(x.T.Aggr), int64(x.T.Act)
		r.L1WInt, r.L1WFrac, r.L1AInt, r.L1AFrac = int64(x.Bits.W.Int), int64(x.Bits.W.Frac), int64(x.Bits.A.Int), int64(x.Bits.A.Frac)
	}
	if len(d.Layers) > 2 {
		x := &d.Layers[2]
		r.L2Attn, r.L2Aggr, r.L2Act = x.Attn.String(), x.Aggr.String(), x.Act.String()
		r.L2Embed, r.L2Heads = int64(x.Embed), int64(x.Heads)
		r.L2TIn, r.L2TOut, r.L2TAttn, r.L2TAggr, r.L2TAct = int64(x.T.In), int64(x.T.Out), int64(x.T.Attn), int64(x.T.Aggr), int64(x.T.Act)
		r.L2WInt, r.L2WFrac, r.L2AInt, r.L2AFrac = int64(x.Bits.W.Int), int64(x.Bits.W.Frac), int64(x.Bits.A.Int), int64(x.Bits.A.Frac)
	}
	if len(d.Layers) > 3 {
		x := &d.Layers[3]
		r.L3Attn, r.L3Aggr, r.L3Act = x.Attn.String(), x.Aggr.String(), x.Act.String()
		r.L3Embed, r.L3Heads = int64(x.Embed), int64(x.Heads)
		r.L3TIn, r.L3TOut, r.L3TAttn, r.L3TAggr, r.L3TAct = int64(x.T.In), int64(x.T.Out), int64(x.T.Attn), int64(x.T.Aggr), int64(x.T.Act)
		r.L3WInt, r.L3WFrac, r.L3AInt, r.L3AFrac = int64(x.Bits.W.Int), int64(x.Bits.W.Frac), int64(x.Bits.A.Int), int64(x.Bits.A.Frac)
	}
}
