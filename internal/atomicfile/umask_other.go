//go:build !unix

package atomicfile

import "io/fs"

// umask is the usual 022 where the platform has none to read.
var umask fs.FileMode = 0o022
