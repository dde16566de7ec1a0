package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A sweep directory is shared by the processes of one spec (the shards of
// a cluster job, or a rerun beside a run still going) and closed to every
// other spec while they run: two specs writing final tables into one
// directory would leave it inconsistent. Each process holds a shared flock
// on the lock file of its spec hash, .gnnsim-<hash>.lock; a process of
// another spec finds that file held and is refused. The check of the other
// specs' lock files is serialised by an exclusive flock on .gnnsim.lock, so
// that of two specs starting at once exactly one wins. The kernel releases
// the locks of a killed process, so nothing stale blocks a rerun. On a file
// system that does not support flock, sweeps run unlocked.

const (
	claimLockFile = ".gnnsim.lock"
	specLockGlob  = ".gnnsim-*.lock"
)

func specLockFile(hash string) string { return ".gnnsim-" + hash + ".lock" }

// dirLock is a process's hold on a sweep directory for one spec.
type dirLock struct{ f *os.File }

// lockDir takes dir (which must exist) for spec hash, or fails naming the
// spec and process that hold it.
func lockDir(dir, hash string) (*dirLock, error) {
	claim, err := os.OpenFile(filepath.Join(dir, claimLockFile), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("bench: locking %s: %w", dir, err)
	}
	defer claim.Close() // releases the claim lock
	if err := flock(claim, lockExclusive); err != nil {
		// A file system without flock (some cluster file systems): run
		// unlocked, as before locks existed, rather than not at all.
		return &dirLock{}, nil
	}
	own := filepath.Join(dir, specLockFile(hash))
	f, err := os.OpenFile(own, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("bench: locking %s: %w", dir, err)
	}
	if err := flock(f, lockShared|lockNoWait); err != nil {
		f.Close()
		return nil, fmt.Errorf("bench: locking %s: %w", own, err)
	}
	others, _ := filepath.Glob(filepath.Join(dir, specLockGlob))
	for _, o := range others {
		if o == own {
			continue
		}
		if err := checkIdle(o); err != nil {
			f.Close()
			return nil, fmt.Errorf("bench: %s is in use by a sweep of another spec (%s): wait for it to finish or write to another directory", dir, err)
		}
	}
	// Record who holds it, for the message above (shards of one spec
	// overwrite each other's pid: any of them will do).
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &dirLock{f}, nil
}

// checkIdle returns an error naming the spec and pid when another process
// holds the lock file path; an idle lock file is removed.
func checkIdle(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil // gone
	}
	defer f.Close()
	err = flock(f, lockExclusive|lockNoWait)
	if err == nil {
		os.Remove(path)
		return nil
	}
	if !isWouldBlock(err) {
		return nil
	}
	hash := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), ".gnnsim-"), ".lock")
	pid, _ := os.ReadFile(path)
	if p := strings.TrimSpace(string(pid)); p != "" {
		return fmt.Errorf("spec %s, pid %s", hash, p)
	}
	return fmt.Errorf("spec %s", hash)
}

// unlock releases the directory.
func (l *dirLock) unlock() {
	if l != nil && l.f != nil {
		l.f.Close()
	}
}
