package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"gnnsim/bench"
	"gnnsim/nas/fgnas"
	"gnnsim/soc"
	"gnnsim/workload"
)

// dataUsage is the one --help line of every command's --data
// (bench.DataUsage).
func dataUsage(what string) string { return bench.DataUsage(what) }

// dataFlags registers --data (with its default) and --data-dir (the
// folder names are looked up in: env GNNSIM_DATA, else ../shared/data).
func dataFlags(fl *pflag.FlagSet, data, dir *string, def, what string) {
	fl.StringVar(data, "data", def, dataUsage(what))
	fl.StringVar(dir, "data-dir", defaultDataDir(), "folder the --data names are looked up in (env GNNSIM_DATA)")
}

// namedDataFlags is dataFlags for a command that takes its own short list
// of names, which usage gives whole (not every data set under --data-dir).
func namedDataFlags(fl *pflag.FlagSet, data, dir *string, def, usage string) {
	fl.StringVar(data, "data", def, usage)
	fl.StringVar(dir, "data-dir", defaultDataDir(), "folder the --data names are looked up in (env GNNSIM_DATA)")
}

// resolveData resolves a --data argument (bench.ResolveData), its error
// naming the flag.
func resolveData(arg, dir string, need bench.DataNeed) (bench.Data, error) {
	d, err := bench.ResolveData(arg, dir, need)
	if err != nil {
		return bench.Data{}, fmt.Errorf("--data %w", err)
	}
	return d, nil
}

// dataDirFlag registers --data-dir, the data folder of a command that reads
// every set it needs from it (the reproductions, the demo, sweep real),
// and its old name --data, deprecated: --data names one data set
// everywhere else.
func dataDirFlag(fl *pflag.FlagSet, dir *string, usage string) {
	fl.StringVar(dir, "data-dir", defaultDataDir(), usage)
	fl.StringVar(dir, "data", defaultDataDir(), usage)
	_ = fl.MarkDeprecated("data", "use --data-dir (--data names one data set in the other commands)")
}

// fpgaDataset resolves --data for the FPGA model (bench.FPGADataset).
func fpgaDataset(arg, dir string) (fgnas.Dataset, error) { return bench.FPGADataset(arg, dir) }

// loadSoC returns the SoC of a spec file (default: the built-in Xavier)
// in precision p with the measured table's units swapped in
// (bench.LoadSoC).
func loadSoC(spec, table, p string) (*soc.SoC, error) { return bench.LoadSoC("", spec, table, p) }

// socAt is bench.SoCAt (schedule's static path reads the SoC with it).
func socAt(spec, precision, dvfs, powerMode string) (*soc.SoC, soc.Setting, error) {
	return bench.SoCAt(spec, precision, dvfs, powerMode)
}

// zooOrFileModel is bench.ZooOrFileModel.
func zooOrFileModel(name string, op workload.LayerKind, data, dataDir string, features int) (workload.Model, error) {
	return bench.ZooOrFileModel(name, op, data, dataDir, features)
}
