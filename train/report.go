package train

import (
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// Report is a training over several seeds as 'gnnsim train' prints it
// (text, JSON); accuracies in percent.
type Report struct {
	Data      string   `json:"data"`
	Arch      string   `json:"arch"`
	Config    Config   `json:"config"`
	Bits      string   `json:"bits"`
	Runs      []RunRow `json:"runs"`
	TestMean  float64  `json:"test_mean"`
	TestStd   float64  `json:"test_std"`
	QTestMean float64  `json:"quant_test_mean"`
	QTestStd  float64  `json:"quant_test_std"`
}

// RunRow is one training (one seed) in percent: a row of the table, of
// the JSON's runs and of the Parquet file.
type RunRow struct {
	Seed      uint64  `json:"seed" parquet:"seed"`
	Epoch     int     `json:"epoch" parquet:"epoch"`
	Val       float64 `json:"val" parquet:"val"`
	Test      float64 `json:"test" parquet:"test"`
	QuantVal  float64 `json:"quant_val" parquet:"quant_val"`
	QuantTest float64 `json:"quant_test" parquet:"quant_test"`
}

// NewReport summarises the runs of TrainSeeds: per seed, and the mean and
// sample standard deviation (0 for one run) of the test accuracies.
func NewReport(d *Data, a Arch, c Config, bits []Bits, runs []Run) *Report {
	r := &Report{Data: d.Name, Arch: a.String(), Config: c}
	parts := make([]string, len(bits))
	for i, b := range bits {
		parts[i] = b.String()
	}
	r.Bits = strings.Join(parts, "/")
	test, qtest := make([]float64, len(runs)), make([]float64, len(runs))
	for i, x := range runs {
		r.Runs = append(r.Runs, RunRow{x.Seed, x.Epoch, 100 * x.Val, 100 * x.Test, 100 * x.QuantVal, 100 * x.QuantTest})
		test[i], qtest[i] = 100*x.Test, 100*x.QuantTest
	}
	r.TestMean, r.TestStd = stat.MeanStdDev(test, nil)
	r.QTestMean, r.QTestStd = stat.MeanStdDev(qtest, nil)
	if len(runs) == 1 {
		r.TestStd, r.QTestStd = 0, 0 // stat gives NaN for one sample
	}
	return r
}

// WriteText prints the report as a table of the runs of the data set d.
func (r *Report) WriteText(w io.Writer, d *Data) {
	c := r.Config
	decay := "first layer"
	if c.DecayAll {
		decay = "all weights"
	}
	fmt.Fprintf(w, "%s: %d nodes, %d features, %d classes; split %d/%d/%d\n",
		d.Name, d.NumNodes, d.NumFeatures, d.NumClasses, len(d.Train), len(d.Val), len(d.Test))
	fmt.Fprintf(w, "network %s\n", r.Arch)
	fmt.Fprintf(w, "%d epochs, Adam lr %g, weight decay %g (%s), dropout %g, coefficient dropout %g\n",
		c.Epochs, c.LR, c.WeightDecay, decay, c.Dropout, c.AttnDropout)
	quant := r.Bits != ""
	if quant {
		fmt.Fprintf(w, "quantised to %s\n", r.Bits)
	}
	fmt.Fprintf(w, "\n%6s %6s %8s %8s", "seed", "epoch", "val %", "test %")
	if quant {
		fmt.Fprintf(w, " %8s %8s", "qval %", "qtest %")
	}
	fmt.Fprintln(w)
	for _, x := range r.Runs {
		fmt.Fprintf(w, "%6d %6d %8.2f %8.2f", x.Seed, x.Epoch, x.Val, x.Test)
		if quant {
			fmt.Fprintf(w, " %8.2f %8.2f", x.QuantVal, x.QuantTest)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\ntest accuracy %.2f ± %.2f %% over %d seeds", r.TestMean, r.TestStd, len(r.Runs))
	if quant {
		fmt.Fprintf(w, "; quantised %.2f ± %.2f %%", r.QTestMean, r.QTestStd)
	}
	fmt.Fprintln(w)
}
