//go:build unix

package bench

import (
	"errors"
	"os"
	"syscall"
)

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

const (
	lockShared    = syscall.LOCK_SH
	lockExclusive = syscall.LOCK_EX
	lockNoWait    = syscall.LOCK_NB
	lockRelease   = syscall.LOCK_UN
)

func isWouldBlock(err error) bool { return errors.Is(err, syscall.EWOULDBLOCK) }
