package main

import (
	"gnnsim/bench"
	"gnnsim/soc"
)

// loadSoC returns the SoC of a spec file (default: the built-in Xavier)
// in precision p with the measured table's units swapped in
// (bench.LoadSoC).
func loadSoC(spec, table, p string) (*soc.SoC, error) { return bench.LoadSoC("", spec, table, p) }
