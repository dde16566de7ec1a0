// Package sharedtest holds the test helpers of package shared. They live
// apart so that non-test code (the gnnsim binary) that locates the shared
// folder does not link package testing.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"

	"gnnsim/internal/shared"
)

// RequireData returns shared.Data() joined with sub, or skips tb with a
// message saying how to point at the data when that path is absent.
func RequireData(tb testing.TB, sub ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{shared.Data()}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared data %s absent (set GNNSIM_DATA to the shared data folder): %v", p, err)
	}
	return p
}
