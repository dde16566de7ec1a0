package fpga

import "gnnsim/workload"

// Operator costs by bit width: the table every resource and latency figure
// of the model comes from. FGNAS (seed 004, section 3.4) profiled its
// operators with Xilinx HLS and published the results only as magnitudes
// (its supplementary material); gnnsim's specification (MISSION section 12)
// records them. Each constant says where it comes from:
//
//   - [FGNAS]: the published magnitude, as recorded in MISSION section 12.
//   - [DSP48]: the Xilinx 7-series DSP48E1 slice (UG479): a 25 x 18 signed
//     multiplier with an optional 3-stage pipeline.
//   - [BRAM18]: the 7-series block RAM (UG473): 18 Kbit per BRAM18.
//   - [assumed]: not published; a documented engineering estimate, kept
//     small so that it never decides feasibility on its own.

// Op is the cost of one operator instance.
type Op struct {
	LUT, FF, DSP int64
	Latency      int64 // pipeline depth in cycles (initiation interval 1)
}

func (o Op) times(n int64) Op {
	return Op{LUT: o.LUT * n, FF: o.FF * n, DSP: o.DSP * n, Latency: o.Latency}
}

const (
	// lutMultMaxBits: fixed-point multipliers up to about 10 x 10 bits map
	// to LUTs, wider ones to DSP slices [FGNAS].
	lutMultMaxBits = 10
	// lutPerMultBit2 is the LUT cost per wa*wb bit product of a LUT
	// multiplier, in tenths: ~0.6 wa wb [FGNAS].
	lutPerMultBit2Tenths = 6
	// adderExtraLUT: an n-bit adder takes ~n + 8 LUTs [FGNAS].
	adderExtraLUT = 8

	reluLUT = 20 // [FGNAS]

	// elu and sigmoid: ~3.5k LUTs and 9 DSPs, 12-19 cycles [FGNAS]; the
	// split of the latency range (elu 12, sigmoid 19) is [assumed].
	expClassLUT     = 3500
	expClassDSP     = 9
	eluLatency      = 12
	sigmoidLatency  = 19
	tanhLUT         = 4500      // [FGNAS]
	tanhDSP         = 18        // [FGNAS]
	tanhLatency     = 19        // [assumed]: as sigmoid, which it is built like
	dividerLUT      = 2800      // [FGNAS]
	dividerLatency  = 11        // [FGNAS]
	dspMultLatency  = 3         // [DSP48]: AREG/MREG/PREG pipeline
	lutMultLatency  = 1         // [assumed]: one register after the LUT array
	dspMultA        = 25        // [DSP48] port widths
	dspMultB        = 18        // [DSP48]
	stageControlLUT = 120       // [assumed]: FSM and address counters per stage
	stageControlFF  = 160       // [assumed]
	bramBits        = 18 * 1024 // [BRAM18]
	// accGuardBits widen an accumulator over its products so that 4,096
	// terms (CiteSeer's 3,703 features) cannot overflow [assumed].
	accGuardBits = 12
)

// Mult returns the cost of a signed wa x wb fixed-point multiplier: LUTs
// up to 10 x 10 bits, DSP48 slices beyond (with a few LUTs of glue).
// Crossing the threshold trades LUTs for a DSP, so LUTs fall there; within
// each implementation no cost falls as an operand widens.
func Mult(wa, wb int) Op {
	a, b := int64(max(wa, wb)), int64(min(wa, wb))
	if a <= lutMultMaxBits {
		return Op{LUT: ceilDiv(lutPerMultBit2Tenths*a*b, 10), FF: a + b, Latency: lutMultLatency}
	}
	dsp := ceilDiv(a, dspMultA) * ceilDiv(b, dspMultB)
	// Glue: sign extension and the cascade between slices [assumed].
	return Op{LUT: a + b, FF: a + b, DSP: dsp, Latency: dspMultLatency + dsp - 1}
}

// Adder returns the cost of an n-bit adder (or comparator: a max is a
// subtract and a select).
func Adder(n int) Op {
	return Op{LUT: int64(n) + adderExtraLUT, FF: int64(n), Latency: 1}
}

// AdderTree returns the cost of summing k n-bit products: k-1 adders of
// growing width, depth ceil(log2 k).
func AdderTree(k, n int) Op {
	if k <= 1 {
		return Op{}
	}
	d := ceilLog2(int64(k))
	// k-1 adders, the widest n + d bits; charge every adder at n + d/2 on
	// average (the sum of widths of a balanced tree).
	o := Adder(n + int(d)/2).times(int64(k - 1))
	o.Latency = d
	return o
}

// Divider returns a pipelined divider [FGNAS].
func Divider() Op { return Op{LUT: dividerLUT, FF: dividerLUT, Latency: dividerLatency} }

// Exp returns the exponential of the GAT softmax: the core of the elu and
// sigmoid units, costed as they are [assumed].
func Exp() Op { return Op{LUT: expClassLUT, FF: expClassLUT, DSP: expClassDSP, Latency: eluLatency} }

// Act returns one activation unit. The HLS math cores of elu, sigmoid and
// tanh are as many FFs as LUTs [assumed].
func Act(a workload.Activation) Op {
	switch a {
	case workload.ActTanh:
		return Op{LUT: tanhLUT, FF: tanhLUT, DSP: tanhDSP, Latency: tanhLatency}
	case workload.ActSigmoid:
		return Op{LUT: expClassLUT, FF: expClassLUT, DSP: expClassDSP, Latency: sigmoidLatency}
	case workload.ActELU:
		return Op{LUT: expClassLUT, FF: expClassLUT, DSP: expClassDSP, Latency: eluLatency}
	case workload.ActLinear:
		return Op{} // a wire
	}
	return Op{LUT: reluLUT, FF: 1, Latency: 1}
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func ceilLog2(x int64) int64 {
	n := int64(0)
	for v := int64(1); v < x; v <<= 1 {
		n++
	}
	return n
}
