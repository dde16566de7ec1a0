package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// One command tree for every hardware kind: gnnsim KIND eval | validate |
// spec. omega and dsa get their groups here; soc, fpga and gcos have theirs
// in their own files and add what they lack (gcos spec). The spellings
// from before (simulate, validate omega, hw default, gcos config default)
// stay for one release as deprecated aliases that say what replaces them.

func init() {
	register(newOmegaCmd, newDSACmd,
		func() *cobra.Command {
			return deprecate(renamed(kindEvalCmd("omega"), "simulate"), "gnnsim omega eval")
		})
}

// renamed returns c with the first word of its Use replaced by name.
func renamed(c *cobra.Command, name string) *cobra.Command {
	_, rest, _ := strings.Cut(c.Use, " ")
	c.Use = strings.TrimSpace(name + " " + rest)
	return c
}

// deprecate makes c an alias kept for one release: it still runs, is hidden
// from the help, and says on stderr which command replaces it. (Cobra's own
// Deprecated prints to the command's output, which would change what the
// old spelling writes on stdout.)
func deprecate(c *cobra.Command, use string) *cobra.Command {
	c.Hidden = true
	c.Short = "Deprecated: use '" + use + "'. " + c.Short
	run := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "gnnsim: %q is deprecated and goes in the next release: use '%s'\n", cmd.CommandPath(), use)
		return run(cmd, args)
	}
	return c
}

// specGroup returns the 'spec' group of a kind with its subcommands.
func specGroup(kind, what string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   "spec",
		Short: "Describe " + kind + " spec files (" + what + ")",
		Long:  "Describe the " + kind + " spec files (" + what + "): 'spec default' prints the built-in one, every key commented.",
	}
	c.AddCommand(subs...)
	return c
}

func newOmegaCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "omega",
		Short: "The Omega-style spatial accelerator (seed 002): eval, validate, spec",
		Long: `The Omega-style spatial accelerator of seed 002 (package accel): GNN layers
under the seq / sp / pp inter-phase dataflows and the tilings of its Table 2.

  omega eval       run GNN layers on graphs (formerly 'gnnsim simulate')
  omega validate   score omega mode against STONNE-Omega (formerly 'validate omega')
  omega spec       the hardware spec files --hw reads (formerly 'hw default')`,
	}
	c.AddCommand(kindEvalCmd("omega"), renamed(newValidateOmegaCmd(), "validate"),
		specGroup("accelerator", "the YAML --hw reads", newOmegaSpecDefaultCmd()))
	return c
}

func newDSACmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "dsa",
		Short: "MAESTRO-priced DSAs (MaGNAS's accelerators): eval, validate",
		Long: `A domain-specific accelerator priced by the MAESTRO-like analytical model
(package soc/maestro): a PE array under a dataflow, with L1, L2 and a NoC.
DSAs are units of a SoC too (a SoC spec's dsas:, 'gnnsim soc spec default').

  dsa eval       one DSA running a zoo model alone ('eval --unit dsa')
  dsa validate   score the model against MAESTRO's outputs ('soc validate maestro')

A DSA has no spec file of its own: its keys are eval's flags, a dsa sweep's
dsa: block (bench/testdata/dsa.yaml) or an entry of a SoC spec's dsas:.`,
	}
	c.AddCommand(kindEvalCmd("dsa"), renamed(newSocValidateMaestroCmd(), "validate"))
	return c
}
