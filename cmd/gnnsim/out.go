package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gnnsim/internal/pqio"
)

// This file holds what every result command's --out shares: the run's
// metadata (command, flags as given, seed), written beside the rows as
// sweep outputs write their spec and seed. pqio adds gnnsim's version.

// runMeta is the key-value metadata of a command's Parquet output: the
// command path, the flags the user set in canonical "--name=value" form
// (sorted by name; --out and --json left out, they say where and how the
// result goes, not what it is) and, when the command has a --seed flag,
// the seed in effect.
func runMeta(cmd *cobra.Command) map[string]string {
	var flags []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name == "out" || f.Name == "json" {
			return
		}
		flags = append(flags, "--"+f.Name+"="+f.Value.String())
	})
	meta := map[string]string{
		"gnnsim.command": strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "),
		"gnnsim.flags":   strings.Join(flags, " "),
	}
	if f := cmd.Flags().Lookup("seed"); f != nil {
		meta["gnnsim.seed"] = f.Value.String()
	}
	return meta
}

// writeOut writes rows to path (when not empty) with the run's metadata
// and extra, the command's own keys (a setting the rows leave out).
func writeOut[T any](cmd *cobra.Command, path string, rows []T, extra map[string]string) error {
	if path == "" {
		return nil
	}
	meta := runMeta(cmd)
	for k, v := range extra {
		meta[k] = v
	}
	return pqio.Write(path, rows, meta)
}
