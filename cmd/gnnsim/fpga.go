package main

import (
	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/nas/fgnas"
)

func init() { register(fpgaCmd) }

// fpgaCmd is the 'fpga' group: FGNAS's FPGA pipeline model.
func fpgaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fpga",
		Short: "FGNAS's per-layer FPGA pipeline: cycles, resources, feasibility",
		Long: `The FPGA pipeline of seed 004 (FGNAS): every GNN layer as four registered stages
(linear, attention, aggregation, activation) at 100 MHz, priced in cycles per stage
(summed as FGNAS does, or overlapped on node blocks by the event-driven model) and in
LUT / FF / DSP / BRAM by bit width, with feasibility against resource and latency budgets.
Two cost models: gnnsim (ours, the default) and fgnas-code (the FGNAS authors' own model,
equal to their code; 'fpga validate fgnas' checks it against their outputs).
There is no 'fpga spec': a design is its eval flags (--arch or a model file,
--tiles, --bits), not a spec file.`,
	}
	cmd.AddCommand(kindEvalCmd("fpga"), fpgaValidateCmd())
	return cmd
}

// fpgaDataset resolves --data for the FPGA model (bench.FPGADataset).
func fpgaDataset(arg, dir string) (fgnas.Dataset, error) { return bench.FPGADataset(arg, dir) }
