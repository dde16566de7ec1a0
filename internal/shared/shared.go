// Package shared locates the project's shared folder (real data sets and
// reference outputs), which lives beside the repository as ../shared: the
// environment variables GNNSIM_SHARED and GNNSIM_DATA override it. Tests
// and commands call it instead of hard-coding a path, so they work from any
// package directory and on any machine.
package shared

import (
	"os"
	"path/filepath"
)

// Root returns the shared folder: $GNNSIM_SHARED, else "shared" beside the
// module root found by walking up from the working directory to go.mod,
// else ../shared.
func Root() string {
	if d := os.Getenv("GNNSIM_SHARED"); d != "" {
		return d
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.Join(filepath.Dir(dir), "shared")
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return filepath.Join("..", "shared")
}

// Data returns the real-data folder: $GNNSIM_DATA, else Root()/data.
func Data() string {
	if d := os.Getenv("GNNSIM_DATA"); d != "" {
		return d
	}
	return filepath.Join(Root(), "data")
}
