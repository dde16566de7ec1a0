package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"gnnsim/bench"
	"gnnsim/graphs"
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

// loadGraphs is bench.LoadGraphs (schedule --graph reads with it).
func loadGraphs(path, format string) ([]*graphs.Graph, error) { return bench.LoadGraphs(path, format) }
