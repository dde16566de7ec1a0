package seed004

import (
	"math/rand/v2"
	"strings"

	"gnnsim/accel/fpga"
	"gnnsim/nas/fgnas"
	"gnnsim/workload"
)

// FeasibleRow is the share of uniform random designs that meet a
// specification under one cost model: how hard the specification is, and
// what random search pays in hardware evaluations per trained design.
type FeasibleRow struct {
	Data      string  `parquet:"data"`
	LatencyMS float64 `parquet:"latency_ms"`
	LUT       int64   `parquet:"lut_ff"`
	DSP       int64   `parquet:"dsp"`
	Model     string  `parquet:"model"`
	Draws     int64   `parquet:"draws"`
	Feasible  int64   `parquet:"feasible"`
	// Over counts the designs by the first limit they break (LUT, FF,
	// DSP, then latency: the FPGA model's order).
	OverLatency int64 `parquet:"over_latency"`
	OverLUT     int64 `parquet:"over_lut"`
	OverFF      int64 `parquet:"over_ff"`
	OverDSP     int64 `parquet:"over_dsp"`
	// Breaks counts the designs over each limit, whatever else they
	// break.
	BreaksLatency int64 `parquet:"breaks_latency"`
	BreaksLUT     int64 `parquet:"breaks_lut"`
	BreaksFF      int64 `parquet:"breaks_ff"`
	BreaksDSP     int64 `parquet:"breaks_dsp"`
	// FeasibleReLU counts the designs that would be feasible if each of
	// their activation units cost what a ReLU does (the architecture and
	// everything else unchanged): how much the elu, sigmoid and tanh units'
	// LUTs and DSPs decide.
	FeasibleReLU int64 `parquet:"feasible_relu_priced"`
}

// Share returns the feasible share of the draws.
func (f FeasibleRow) Share() float64 {
	if f.Draws == 0 {
		return 0
	}
	return float64(f.Feasible) / float64(f.Draws)
}

// verdictModel is one way of judging a design: a cost model (its pricing)
// and a feasibility rule.
type verdictModel struct {
	name  string
	price int // index of the pricing (the cost model's options)
	opt   fpga.Options
}

// specSet is a data set and the specifications judged on it.
type specSet struct {
	data   fgnas.Dataset
	limits []fgnas.Limits
}

// feasibility draws uniform designs of each data set's joint space, prices
// each once per cost model and judges it against every specification
// under every verdict model (the same designs for every row of a data set).
func feasibility(sets []specSet, models []verdictModel, pricing []fpga.Options, draws int, seed uint64) ([]FeasibleRow, error) {
	var out []FeasibleRow
	for _, set := range sets {
		d := set.data
		sp, err := fgnas.NewSpace(2, d.Classes)
		if err != nil {
			return nil, err
		}
		var acts []int // the activation genes
		for i := range sp.Joint().Len() {
			if strings.HasSuffix(sp.Joint().Var(i).Name, ".act") {
				acts = append(acts, i)
			}
		}
		relu := make([]int, sp.Joint().Len())
		rows := make([][]FeasibleRow, len(models)) // model, spec
		for m, vm := range models {
			for _, l := range set.limits {
				rows[m] = append(rows[m], FeasibleRow{Data: d.Name, LatencyMS: l.LatencyMS, LUT: l.LUT, DSP: l.DSP, Model: vm.name, Draws: int64(draws)})
			}
		}
		pricers := make([]*fgnas.Pricer, len(pricing))
		for i, opt := range pricing {
			pricers[i] = (&fgnas.Problem{Space: sp, Data: d, Timing: opt}).NewPricer()
		}
		priced := make([]fgnas.Sample, len(pricing))
		pricedReLU := make([]fgnas.Sample, len(pricing))
		r := rand.New(rand.NewPCG(seed, 0x66656173))
		var g []int // reused: a draw is judged, not kept
		for range draws {
			g = sp.Joint().AppendSample(g[:0], r)
			// The hardware of the same design with ReLU units: the
			// activation genes' choice of relu.
			copy(relu, g)
			for _, i := range acts {
				relu[i] = fgnas.ActChoice(workload.ActReLU)
			}
			for i, pr := range pricers {
				if _, priced[i], err = pr.Hardware(g); err != nil {
					return nil, err
				}
				if _, pricedReLU[i], err = pr.Hardware(relu); err != nil {
					return nil, err
				}
			}
			for m, vm := range models {
				s, sr := priced[vm.price], pricedReLU[vm.price]
				for k, l := range set.limits {
					row := &rows[m][k]
					o := vm.opt
					o.Budget = l.Budget()
					_, over := o.Judge(s.Use, s.Cycles)
					if ok2, _ := o.Judge(sr.Use, sr.Cycles); ok2 {
						row.FeasibleReLU++
					}
					switch over {
					case "":
						row.Feasible++
					case "latency":
						row.OverLatency++
					case "LUT":
						row.OverLUT++
					case "FF":
						row.OverFF++
					case "DSP":
						row.OverDSP++
					}
					// Each limit alone, under the model's rule.
					b := o.Budget
					for _, one := range []struct {
						n *int64
						b fpga.Budget
					}{{&row.BreaksLatency, fpga.Budget{LatencyPS: b.LatencyPS}}, {&row.BreaksLUT, lutOnly(b)},
						{&row.BreaksFF, ffOnly(b)}, {&row.BreaksDSP, dspOnly(b)}} {
						o.Budget = one.b
						if ok, _ := o.Judge(s.Use, s.Cycles); !ok {
							*one.n++
						}
					}
				}
			}
		}
		for m := range models {
			out = append(out, rows[m]...)
		}
	}
	return out, nil
}

func lutOnly(b fpga.Budget) fpga.Budget {
	var o fpga.Budget
	o.LUT = b.LUT
	return o
}

func ffOnly(b fpga.Budget) fpga.Budget {
	var o fpga.Budget
	o.FF = b.FF
	return o
}

func dspOnly(b fpga.Budget) fpga.Budget {
	var o fpga.Budget
	o.DSP = b.DSP
	return o
}
