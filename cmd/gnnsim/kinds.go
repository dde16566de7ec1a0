package main

import (
	"fmt"
	"gnnsim/bench"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// One command tree for every hardware kind: gnnsim KIND eval | validate |
// spec. Each kind of the table with an evaluation command gets its group,
// its help from the table, its eval and validate generated (eval.go);
// kindExtras adds what a kind has beyond them. The spellings from before
// (simulate, validate omega, hw default, gcos config default) stay for one
// release as deprecated aliases that say what replaces them.

func init() {
	for _, k := range bench.CommandKinds() {
		register(func() *cobra.Command { return newKindGroup(k) })
	}
	register(newValidateCmd, func() *cobra.Command {
		return deprecate(renamed(kindEvalCmd("omega"), "simulate"), "gnnsim omega eval")
	})
}

// kindExtras are the commands of a kind's group beyond what its table
// entry declares (its validate, when the extras have none).
var kindExtras = map[string]func() []*cobra.Command{
	"omega": func() []*cobra.Command {
		return []*cobra.Command{specGroup("accelerator", "the YAML --hw reads", newOmegaSpecDefaultCmd())}
	},
	"soc": func() []*cobra.Command {
		return []*cobra.Command{newSocValidateCmd(), newSocCorunCmd()}
	},
	"fpga": func() []*cobra.Command { return []*cobra.Command{fpgaValidateCmd()} },
	"gcos": func() []*cobra.Command { return []*cobra.Command{newGcosConfigCmd()} },
}

// newKindGroup is 'gnnsim KIND' of kind k: eval, validate (scoring the kind
// against its reference set), spec (its built-in spec files) and the
// kind's extras.
func newKindGroup(k bench.UnitKind) *cobra.Command {
	c := &cobra.Command{Use: k.Name, Short: k.Short, Long: k.Long}
	c.AddCommand(newKindCmd(k.Command))
	if extra := kindExtras[k.Name]; extra != nil {
		c.AddCommand(extra()...)
	}
	if k.Spec != nil {
		c.AddCommand(newSpecGroup(k.Spec))
	}
	for _, x := range k.Extras {
		c.AddCommand(newKindCmd(x))
	}
	if has := slices.ContainsFunc(c.Commands(), func(s *cobra.Command) bool { return s.Name() == "validate" }); !has && k.Validate != nil {
		c.AddCommand(renamed(newKindCmd(k.Validate), "validate"))
	}
	return c
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

// newSpecGroup is 'gnnsim KIND spec' of a kind's spec files.
func newSpecGroup(s *bench.SpecFiles) *cobra.Command {
	c := &cobra.Command{Use: "spec", Short: s.Short, Long: s.Long}
	for _, f := range s.Files {
		c.AddCommand(newBuiltinSpecCmd(f))
	}
	return c
}

// newBuiltinSpecCmd prints the built-in spec file f.
func newBuiltinSpecCmd(f bench.BuiltinSpec) *cobra.Command {
	return &cobra.Command{Use: f.Use, Short: f.Short, Long: f.Long, Example: f.Example, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			text, err := f.Text()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(text)
			return err
		}}
}

// specGroup returns the 'spec' group of a kind with its subcommands (the
// accelerator's, whose 'default' info.go builds for 'hw default' too).
func specGroup(kind, what string, subs ...*cobra.Command) *cobra.Command {
	return group("spec", "Describe "+kind+" spec files ("+what+")",
		"Describe the "+kind+" spec files ("+what+"): 'spec default' prints the built-in one, every key commented.", false, subs...)
}

// group is a command that only groups subs; a hidden one is a spelling
// from before kept for one release.
func group(use, short, long string, hidden bool, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short, Long: long, Hidden: hidden}
	c.AddCommand(subs...)
	return c
}

// newSocValidateCmd is 'gnnsim soc validate': the DSA units against
// MAESTRO.
func newSocValidateCmd() *cobra.Command {
	return group("validate", "Check the SoC unit models against reference simulators",
		`Check the SoC unit models against the outputs of reference simulators.`, false, kindValidateCmd("dsa"))
}

// fpgaValidateCmd is 'fpga validate': the FPGA model against references.
func fpgaValidateCmd() *cobra.Command {
	return group("validate", "Check the FPGA model against reference outputs",
		`Check the FPGA cost models against reference outputs. 'fgnas' prices every row of a
set of outputs of the FGNAS authors' own cost model with the fgnas-code model and
reports how many agree exactly.`, false, kindValidateCmd("fpga"))
}

// newValidateCmd is the deprecated 'gnnsim validate' group ('validate
// omega').
func newValidateCmd() *cobra.Command {
	return group("validate", "Check gnnsim's models against reference simulators (deprecated: gnnsim omega validate)",
		`Check gnnsim's models against the outputs of reference simulators.`, true,
		deprecate(kindValidateCmd("omega"), "gnnsim omega validate"))
}

// newGcosConfigCmd is the deprecated 'gnnsim gcos config' group.
func newGcosConfigCmd() *cobra.Command {
	return group("config", "G-CoS design files (deprecated: gnnsim gcos spec)",
		`Design files of the G-CoS template: YAML with name, allocation, scheme,
repurpose, share_weights, clock_mhz, hbm_gb_per_s, hbm_latency_cycles and
subs (1..5 sub-accelerators: pes, tiling, kernel, tile_m, tile_k, tile_n);
'gcos config default' prints the built-in one, every key commented.`, true,
		deprecate(newBuiltinSpecCmd(kindNamed("gcos").Spec.Files[0]), "gnnsim gcos spec default"))
}
