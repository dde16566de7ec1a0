// Package atomicfile writes files so that readers never see them half
// written: content goes to a temp file in the target's directory, which is
// synced and renamed over the target only when complete. A crash leaves at
// worst a hidden ".name.tmp-*" file beside the target, never a truncated
// target. Every file gnnsim writes goes through here.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// TempPattern is the glob of the temp files Write creates for path, for
// callers that clean up after a killed run.
func TempPattern(path string) string {
	return filepath.Join(filepath.Dir(path), tempName(path))
}

// tempName is the os.CreateTemp pattern of path's temp files, which Write
// creates hidden beside path so that the rename is atomic.
func tempName(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// Write creates or replaces path with what write produces. If write fails,
// the temp file is removed and path is left as it was.
func Write(path string, write func(w io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), tempName(path))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteFile is Write for content already in memory.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
