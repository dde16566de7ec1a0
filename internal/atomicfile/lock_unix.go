//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// staleLocks reports whether tryLock tells stale temp files from live ones.
const staleLocks = true

// tryLock takes an exclusive advisory lock on f without waiting; false
// means another open file holds it (a live writer).
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
