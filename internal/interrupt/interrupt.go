// Package interrupt gives long commands a context that SIGINT (Ctrl-C) or
// SIGTERM cancels, so that every loop and training they run stops within
// a second or two and writes nothing half done (outputs go through
// atomicfile). A second signal exits at once with status 130. It leaves
// out every other signal (SIGHUP, SIGQUIT keep Go's defaults).
package interrupt

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Context returns a context cancelled by the first SIGINT or SIGTERM
// (said on stderr) and its stop, which releases the signals; a second
// signal exits the process with status 130: whatever was written is
// whole, and what was not yet renamed into place is left as hidden temp
// files at worst.
func Context() (context.Context, context.CancelFunc) {
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
