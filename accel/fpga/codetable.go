package fpga

// The operator table of the FGNAS authors' cost model: the HLS profile of
// every operator by bit width, as their repository records it
// (github.com/qinglu0330/FGNAS, commit 71f64eb, json/fpga/fpga_info.json;
// the values are measurements, restated here as data). An entry is LUT,
// FF ("Reg"), DSP and the operator's latency in cycles; an entry the
// repository leaves null counts 0.
//
// Indexing (their fpga/operator.py): an operator of one index is looked up
// by int + frac bits, capped at 9; one of two indices by [int][frac] (for
// the multiplier [a bits][b bits]), capped at [3][6]. Index 0 is the
// floating-point operator, used when a design has no bit genes. Row 0 of a
// two-index table has only its column 0 (the float entry): the model never
// reads another under DesignMode's checks (see codeValidate). Entries
// beyond the caps are never read and are left out.

type codeOp struct{ lut, ff, dsp, cyc int64 }

const (
	codeCap1    = 9 // one-index cap
	codeCapInt  = 3 // two-index caps
	codeCapFrac = 6
)

type codeTable1 [codeCap1 + 1]codeOp
type codeTable2 [codeCapInt + 1][codeCapFrac + 1]codeOp

var (
	codeAdder = codeTable1{{262, 278, 2, 4}, {13, 0, 0, 0}, {11, 0, 0, 0}, {12, 0, 0, 0}, {15, 0, 0, 0},
		{15, 0, 0, 0}, {15, 0, 0, 0}, {15, 0, 0, 0}, {16, 0, 0, 0}, {17, 0, 0, 0}}
	codeMax2 = codeTable1{{117, 66, 0, 0}, {8, 0, 0, 0}, {13, 0, 0, 0}, {12, 0, 0, 0}, {13, 0, 0, 0},
		{16, 0, 0, 0}, {17, 0, 0, 0}, {18, 0, 0, 0}, {19, 0, 22, 0}, {22, 0, 0, 0}}
	codeReLU = codeTable1{{82, 0, 0, 1}, {0, 0, 0, 0}, {8, 0, 0, 0}, {11, 0, 0, 0}, {12, 0, 0, 0},
		{15, 0, 0, 0}, {16, 0, 0, 0}, {17, 0, 0, 0}, {18, 0, 0, 0}, {21, 0, 0, 0}}
	// The truncator's latency is 0 whatever its entry says (their model
	// sets it so); its entries 0 and 1 are null.
	codeTrunc = codeTable1{{0, 0, 0, 0}, {0, 0, 0, 0}, {264, 144, 0, 0}, {232, 144, 0, 0}, {232, 144, 0, 0},
		{232, 144, 0, 0}, {232, 144, 0, 0}, {232, 144, 0, 0}, {232, 144, 0, 0}, {232, 144, 0, 0}}

	codeMult = codeTable2{
		{{92, 130, 3, 1}},
		{{0, 0, 0, 0}, {0, 0, 0, 0}, {14, 0, 0, 0}, {16, 0, 0, 0}, {20, 0, 0, 0}, {21, 0, 0, 0}, {22, 0, 0, 0}},
		{{0, 0, 0, 0}, {14, 0, 1, 0}, {7, 0, 1, 0}, {8, 0, 0, 0}, {11, 0, 0, 0}, {17, 0, 0, 0}, {23, 0, 0, 0}},
		{{0, 0, 0, 0}, {16, 0, 0, 0}, {8, 0, 0, 0}, {12, 0, 0, 0}, {11, 0, 0, 0}, {17, 0, 0, 0}, {23, 0, 0, 0}},
	}
	codeDivider = codeTable2{
		{{279, 249, 0, 8}},
		{{1788, 410, 0, 10}, {2784, 534, 0, 11}, {2806, 539, 0, 11}, {2824, 538, 0, 11}, {2768, 540, 0, 11}, {2776, 545, 0, 11}, {2804, 547, 0, 11}},
		{{2729, 439, 0, 11}, {2806, 539, 0, 11}, {2824, 538, 0, 11}, {2768, 540, 0, 11}, {2776, 545, 0, 11}, {2804, 547, 0, 11}, {2821, 550, 0, 11}},
		{{2751, 499, 0, 11}, {2824, 538, 0, 11}, {2768, 540, 0, 11}, {2776, 545, 0, 11}, {2804, 547, 0, 11}, {2821, 550, 0, 11}, {2844, 544, 0, 11}},
	}
	codeELU = codeTable2{
		{{1115, 479, 9, 10}},
		{{2475, 605, 9, 11}, {3481, 726, 9, 12}, {3508, 732, 9, 12}, {3530, 732, 9, 12}, {3480, 735, 9, 12}, {3492, 741, 9, 12}, {3524, 744, 9, 12}},
		{{3426, 684, 9, 12}, {3508, 732, 9, 12}, {3530, 732, 9, 12}, {3480, 735, 9, 12}, {3492, 741, 9, 12}, {3524, 744, 9, 12}, {3545, 748, 9, 12}},
		{{3453, 690, 9, 12}, {3530, 732, 9, 12}, {3480, 735, 9, 12}, {3492, 741, 9, 12}, {3524, 744, 9, 12}, {3545, 748, 9, 12}, {3574, 743, 9, 12}},
	}
	codeTanh = codeTable2{
		{{2042, 953, 18, 16}},
		{{3489, 1076, 18, 18}, {4486, 1200, 18, 19}, {4508, 1205, 18, 19}, {4526, 1204, 18, 19}, {4470, 1206, 18, 19}, {4478, 1211, 18, 19}, {4506, 1213, 18, 19}},
		{{4431, 1159, 18, 18}, {4508, 1205, 18, 19}, {4526, 1204, 18, 19}, {4470, 1206, 18, 19}, {4478, 1211, 18, 19}, {4506, 1213, 18, 19}, {4523, 1216, 18, 19}},
		{{4453, 1165, 18, 19}, {4526, 1204, 18, 19}, {4470, 1206, 18, 19}, {4478, 1211, 18, 19}, {4506, 1213, 18, 19}, {4523, 1216, 18, 19}, {4546, 1210, 18, 19}},
	}
	codeSigmoid = codeTable2{
		{{1082, 517, 9, 16}},
		{{2497, 640, 9, 18}, {3527, 764, 9, 19}, {3549, 769, 9, 19}, {3527, 764, 9, 19}, {3511, 770, 9, 19}, {3519, 775, 9, 19}, {3547, 777, 9, 19}},
		{{3472, 723, 9, 19}, {3549, 769, 9, 19}, {3567, 768, 9, 19}, {3511, 770, 9, 19}, {3519, 775, 9, 19}, {3547, 777, 9, 19}, {3564, 780, 9, 19}},
		{{3494, 729, 9, 19}, {3567, 768, 9, 19}, {3511, 770, 9, 19}, {3519, 775, 9, 19}, {3547, 777, 9, 19}, {3564, 780, 9, 19}, {3587, 774, 9, 19}},
	}
)

func (t *codeTable1) at(bits int) codeOp { return t[min(max(bits, 0), codeCap1)] }

func (t *codeTable2) at(i, f int) codeOp {
	return t[min(max(i, 0), codeCapInt)][min(max(f, 0), codeCapFrac)]
}
