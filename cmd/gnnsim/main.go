// Command gnnsim simulates GNN inference on spatial accelerators, SoCs and
// FPGA pipelines. It is a thin shell: each subcommand parses its flags,
// calls the packages that do the work, and prints.
//
// Each command group lives in its own file and registers the constructor of
// its command from an init function, so groups can be added without touching
// this file.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim"
)

// commands are the constructors of the top-level commands, in registration
// order.
var commands []func() *cobra.Command

// register adds constructors of top-level commands; call it from init.
func register(newCmd ...func() *cobra.Command) { commands = append(commands, newCmd...) }

// newRootCmd builds a fresh command tree. Flag values live in the
// constructors' closures, so each tree starts from the defaults: cobra keeps
// parsed flag state between Execute calls on one tree, and the tests run many
// command lines in one process.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "gnnsim",
		Short: "Simulate GNN inference on hardware: dataflows, SoCs, schedulers, predictors",
		Long: `gnnsim simulates GNN inference on Omega-style spatial accelerators and
feeds generated and real graphs through hardware models, online schedulers
and search loops. Every result is written as Parquet.

Run 'gnnsim demo' for the end-to-end example on built-in defaults.`,
		Version:       gnnsim.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, newCmd := range commands {
		root.AddCommand(newCmd())
	}
	root.SetFlagErrorFunc(flagError)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return checkDataFlags(cmd) }
	rejectUnknownSubcommands(root)
	return root
}

// rejectUnknownSubcommands makes every command below root that only groups
// subcommands fail on an unknown one. Cobra checks subcommand names only on
// the root: without this 'gnnsim graphs bogus' would print the help of
// 'graphs' and exit 0, and a typo in a script would go unnoticed.
func rejectUnknownSubcommands(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = unknownSubcommand
			// flagError reports an unknown subcommand before the flags
			// meant for it ('repro seed005 --quick' is an unknown seed,
			// not an unknown flag).
			c.Annotations = map[string]string{groupAnnotation: "true"}
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
		rejectUnknownSubcommands(c)
	}
}

// groupAnnotation marks the commands that only group subcommands.
const groupAnnotation = "gnnsim-group"

// unknownSubcommand is the Args check of a command that only groups
// subcommands: any argument is an unknown subcommand, reported with the
// list of the known ones.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	var names []string
	for _, s := range cmd.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	what := "command"
	if cmd.Name() == "repro" {
		what = "seed"
	}
	return fmt.Errorf("unknown %s %q for %q: want one of %s", what, cut(args[0]), cmd.CommandPath(), strings.Join(names, ", "))
}

func main() {
	if err := newRootCmd().Execute(); err != nil {
		if errors.Is(err, context.Canceled) {
			// A signal stopped the command (signalContext); what it had
			// written is whole.
			fmt.Fprintln(os.Stderr, "gnnsim: interrupted: stopped before the end; files already written are complete, the rest were not written")
			os.Exit(130)
		}
		fmt.Fprintln(os.Stderr, "gnnsim:", cutMessage(err.Error()))
		os.Exit(1)
	}
}
