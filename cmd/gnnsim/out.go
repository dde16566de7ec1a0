package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
	if err := checkReplace(path); err != nil {
		return err
	}
	meta := runMeta(cmd)
	for k, v := range extra {
		meta[k] = v
	}
	return pqio.Write(path, rows, meta)
}

// checkReplace is --out's policy for a path that exists: a Parquet file
// (complete: its magic numbers and footer) is replaced, so a rerun
// refreshes its result; anything else (a text file, a spec, a directory, a
// typo'd path onto a source file) is refused, naming it, and left as it
// is. gnnsim never writes anything but Parquet to --out, so it never needs
// to replace anything else.
func checkReplace(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("--out %s is a directory: give a file path (FILE.parquet)", path)
	}
	if err := pqio.CheckFile(path); err != nil {
		return fmt.Errorf("--out %s exists and is not a Parquet file: gnnsim replaces only Parquet files; delete it or choose another path", path)
	}
	return nil
}
