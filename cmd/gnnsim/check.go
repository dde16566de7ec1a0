package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"gnnsim/bench"
	"gnnsim/internal/atomicfile"
)

// This file holds the checks every command runs on its flags before it
// starts work, so that a bad output path or an out-of-range value fails at
// once with a message naming the flag, not after minutes of simulation.

// MaxWorkers bounds every --workers flag.
const MaxWorkers = 4096

// checkOutFile checks that the file flag names (e.g. --out) can be
// written: not empty, not a directory, device or FIFO, in an existing
// directory.
func checkOutFile(flag, path string) error {
	if path == "" {
		return fmt.Errorf("--%s: no file named (give a path)", flag)
	}
	if _, _, err := atomicfile.Target(path); err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	return nil
}

// checkOutDir checks that the directory flag names can hold outputs: not
// empty, not an existing non-directory, and the nearest existing ancestor a
// directory (the missing ones are created when the command writes).
func checkOutDir(flag, path string) error {
	if path == "" {
		return fmt.Errorf("--%s: no directory named (give a path)", flag)
	}
	p := filepath.Clean(path)
	for {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			if p == filepath.Clean(path) {
				return fmt.Errorf("--%s %s: not a directory (it is an existing file): name a directory to write into", flag, path)
			}
			return fmt.Errorf("--%s %s: %s is not a directory", flag, path, p)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("--%s %s: %w", flag, path, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// checkWorkers checks a --workers value: 0 (one per CPU) up to MaxWorkers.
func checkWorkers(n int) error {
	if n < 0 || n > MaxWorkers {
		return fmt.Errorf("--workers %d: want 0 (one per CPU) to %d", n, MaxWorkers)
	}
	return nil
}

// checkRange checks that an integer flag lies in [lo, hi].
func checkRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s %d: want %d to %d", flag, v, lo, hi)
	}
	return nil
}

// checkPositive checks that a float flag is finite and > 0.
func checkPositive(flag string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("--%s %v: want a finite number above 0", flag, v)
	}
	return nil
}

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
	p := bench.NewProgress(progressOut(cmd), label, "", 0)
	halt := p.Beat()
	return func() {
		halt()
		p.Done()
	}
}

// signalContext is cancelled by SIGINT (Ctrl-C) or SIGTERM; long commands
// pass it to every loop and training they run, which stop within a second
// or two, and write nothing half done (outputs go through atomicfile). A
// second signal exits at once with status 130: whatever was written is
// whole, and what was not yet renamed into place is left as hidden temp
// files at worst.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			fmt.Fprintf(os.Stderr, "gnnsim: %v received: stopping (send it again to exit at once)\n", s)
			cancel()
		case <-done:
			return
		}
		select {
		case <-ch:
			fmt.Fprintln(os.Stderr, "gnnsim: second signal: exiting")
			os.Exit(130)
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
}

// sharedHint says where a reference set under the shared folder was
// looked for: in $GNNSIM_SHARED when it is set, else how to set it.
func sharedHint(sub string) string {
	if d := os.Getenv("GNNSIM_SHARED"); d != "" {
		return fmt.Sprintf("GNNSIM_SHARED=%s has no %s", d, sub)
	}
	return fmt.Sprintf("no shared/%s found above the working directory (set GNNSIM_SHARED to the shared folder)", sub)
}
