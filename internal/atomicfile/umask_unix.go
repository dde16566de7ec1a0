//go:build unix

package atomicfile

import (
	"io/fs"
	"syscall"
)

// umask is the process's file mode creation mask, read once at start-up
// (syscall.Umask can only read it by setting it, so it is set back at once,
// before any goroutine of the program creates files).
var umask = func() fs.FileMode {
	u := syscall.Umask(0)
	syscall.Umask(u)
	return fs.FileMode(u)
}()
