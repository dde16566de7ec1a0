package interrupt

import (
	"syscall"
	"testing"
	"time"
)

// TestSignalCancels: SIGTERM cancels the context; stop releases the
// signal and cancels too.
func TestSignalCancels(t *testing.T) {
	ctx, stop := Context()
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Skip(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	ctx2, stop2 := Context()
	stop2()
	stop2() // twice is harmless
	if ctx2.Err() == nil {
		t.Error("stop did not cancel the context")
	}
}
