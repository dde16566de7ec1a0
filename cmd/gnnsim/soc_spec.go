package main

import (
	"github.com/spf13/cobra"

	"gnnsim/soc"
)

// newSocSpecCmd is 'gnnsim soc spec': the SoC spec files --spec reads.
func newSocSpecCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "spec",
		Short: "Describe SoC spec files (the YAML --spec reads)",
		Long: `Describe the SoC spec files that --spec reads (YAML; unknown keys are
errors, so a typo never silently drops a constant).`,
	}
	c.AddCommand(&cobra.Command{
		Use:   "default",
		Short: "Print the built-in SoC spec (Jetson AGX Xavier) as commented YAML",
		Long: `Print the built-in SoC spec, the Jetson AGX Xavier, as the spec file --spec
reads: memory, CPU, units (GPU, DLA), power modes and the optional dsas:
list, every constant with its source in its section's sources: map. Edit a
copy to describe another SoC or to declare DSAs (MAESTRO-priced units with
a built-in or a .m dataflow; the commented example at the end of the file).`,
		Example: `  gnnsim soc spec default > my-soc.yaml
  gnnsim soc eval --spec my-soc.yaml --model vig-s --mapping gpu`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write(soc.DefaultSpecYAML())
			return err
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "magnas",
		Short: "Print the Xavier as MaGNAS measured it (soc eval --profile magnas) as YAML",
		Long: `Print the MaGNAS profile (soc.MaGNASSpec) as a spec file --spec reads: the
built-in Xavier with its GPU engines in FP32 (TensorRT's default; MaGNAS
Table 2's slope reads 0.92 TFLOPS) and the per-frame host work of MaGNAS's
measurement harness (cpu.frame_cycles). Its constants and their sources
are the default's, in each section's sources: map. 'gnnsim soc eval
--profile magnas' evaluates the same spec: MaGNAS Table 2's ViG-S rows
come out as 'gnnsim repro seed000' reports them.`,
		Example: `  gnnsim soc spec magnas > magnas.yaml
  gnnsim soc eval --profile magnas --model vig-s --graph-op mrconv --mapping gpu
  gnnsim soc eval --spec magnas.yaml --model vig-s --graph-op gin --mapping dla`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			text, err := soc.MaGNASSpecYAML()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(text)
			return err
		},
	})
	return c
}
