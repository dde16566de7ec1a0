package main

import (
	"gnnsim/bench"
	"gnnsim/nas/fgnas"
)

// fpgaDataset resolves --data for the FPGA model (bench.FPGADataset).
func fpgaDataset(arg, dir string) (fgnas.Dataset, error) { return bench.FPGADataset(arg, dir) }
