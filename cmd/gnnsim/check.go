package main

import (
	"io"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/internal/interrupt"
)

// This file holds the checks every command runs on its flags before it
// starts work, so that a bad output path or an out-of-range value fails at
// once with a message naming the flag, not after minutes of simulation.

// quietFlag adds --quiet, which progressOut reads.
func quietFlag(c *cobra.Command) {
	c.Flags().Bool("quiet", false, "no progress lines on stderr (warnings and errors still appear)")
}

// progressOut is where a long command writes its progress: stderr (a live
// line on a terminal, a line every few seconds otherwise), or nowhere with
// --quiet.
func progressOut(cmd *cobra.Command) io.Writer {
	if f := cmd.Flag("quiet"); f != nil && f.Value.String() == "true" {
		return nil
	}
	return cmd.ErrOrStderr()
}

// heartbeat prints, on the progress stream, that a step of unknown length
// is still running (its elapsed time every LogInterval, every second on a
// terminal) until the returned stop, which closes the display: for work
// that reports no items, so that it never sits silent.
func heartbeat(cmd *cobra.Command, label string) (stop func()) {
	return bench.Heartbeat(progressOut(cmd), label)
}

// signalContext is cancelled by SIGINT (Ctrl-C) or SIGTERM (package
// interrupt); long commands pass it to every loop and training they run.
var signalContext = interrupt.Context
