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
	Model     string `parquet:"model"` // the models: entry, empty for an archs: one
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
	slots := [fpgaMaxLayers]struct {
		text [3]*string
		num  [11]*int64
	}{
		{[3]*string{&r.L0Attn, &r.L0Aggr, &r.L0Act}, [11]*int64{&r.L0Embed, &r.L0Heads, &r.L0TIn, &r.L0TOut, &r.L0TAttn, &r.L0TAggr, &r.L0TAct, &r.L0WInt, &r.L0WFrac, &r.L0AInt, &r.L0AFrac}},
		{[3]*string{&r.L1Attn, &r.L1Aggr, &r.L1Act}, [11]*int64{&r.L1Embed, &r.L1Heads, &r.L1TIn, &r.L1TOut, &r.L1TAttn, &r.L1TAggr, &r.L1TAct, &r.L1WInt, &r.L1WFrac, &r.L1AInt, &r.L1AFrac}},
		{[3]*string{&r.L2Attn, &r.L2Aggr, &r.L2Act}, [11]*int64{&r.L2Embed, &r.L2Heads, &r.L2TIn, &r.L2TOut, &r.L2TAttn, &r.L2TAggr, &r.L2TAct, &r.L2WInt, &r.L2WFrac, &r.L2AInt, &r.L2AFrac}},
		{[3]*string{&r.L3Attn, &r.L3Aggr, &r.L3Act}, [11]*int64{&r.L3Embed, &r.L3Heads, &r.L3TIn, &r.L3TOut, &r.L3TAttn, &r.L3TAggr, &r.L3TAct, &r.L3WInt, &r.L3WFrac, &r.L3AInt, &r.L3AFrac}},
	}
	for l := range min(len(d.Layers), fpgaMaxLayers) {
		x, s := &d.Layers[l], &slots[l]
		for i, v := range [3]string{x.Attn.String(), x.Aggr.String(), x.Act.String()} {
			*s.text[i] = v
		}
		for i, v := range [11]int{x.Embed, x.Heads, x.T.In, x.T.Out, x.T.Attn, x.T.Aggr, x.T.Act, x.Bits.W.Int, x.Bits.W.Frac, x.Bits.A.Int, x.Bits.A.Frac} {
			*s.num[i] = int64(v)
		}
	}
}
