//go:build !unix

package bench

import "os"

// Without flock, directories are not locked.
func flock(*os.File, int) error { return nil }

const (
	lockShared = 1 << iota
	lockExclusive
	lockNoWait
	lockRelease
)

func isWouldBlock(error) bool { return false }
