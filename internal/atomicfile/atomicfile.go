// Package atomicfile writes files so that readers never see them half
// written: content goes to a temp file in the target's directory, which is
// synced and renamed over the target only when complete. A crash leaves at
// worst a hidden ".name.tmp-*" file beside the target, never a truncated
// target. Every file gnnsim writes goes through here.
//
// Targets: a regular file is replaced (keeping its permission bits); a new
// file gets 0666 less the process umask, as os.Create gives it, so results
// are readable by collaborators (0644 under the usual umask 022). A symbolic
// link is written through: its final target is replaced, the link kept.
// Anything else that is not a regular file (a directory, a device such as
// /dev/null, a FIFO, a socket) is refused with an error naming the path,
// because renaming over it would destroy it. Errors name the path the user
// gave, never the hidden temp file.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// createAttempts bounds createLocked's attempts.
const createAttempts = 1000

// TempPattern is the glob of the temp files Write creates for path, for
// callers that clean up after a killed run.
func TempPattern(path string) string {
	return filepath.Join(filepath.Dir(path), tempName(path))
}

// tempName is the os.CreateTemp pattern of path's temp files, which Write
// creates hidden beside path so that the rename is atomic.
func tempName(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// Target checks that path can be written by Write and returns the file
// that will actually be replaced (path itself, or the final target of a
// symbolic link) and the permission bits it will get. Commands call it to
// reject a bad output path before starting work.
func Target(path string) (real string, perm fs.FileMode, err error) {
	if path == "" {
		return "", 0, errors.New("no output path given")
	}
	real = path
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(path); err != nil {
			// A dangling link: write the file it names.
			if real, err = os.Readlink(path); err != nil {
				return "", 0, fmt.Errorf("%s: %w", path, err)
			}
			if !filepath.IsAbs(real) {
				real = filepath.Join(filepath.Dir(path), real)
			}
		}
		fi, err = os.Lstat(real)
	}
	switch {
	case err == nil && fi.Mode().IsRegular():
		return real, fi.Mode().Perm(), nil
	case err == nil && fi.IsDir():
		return "", 0, fmt.Errorf("%s is a directory: name a file to write", path)
	case err == nil:
		return "", 0, fmt.Errorf("%s is not a regular file (%s): refusing to replace it", path, kind(fi.Mode()))
	case !errors.Is(err, fs.ErrNotExist):
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	dir := filepath.Dir(real)
	di, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", 0, fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
	case err != nil:
		return "", 0, fmt.Errorf("cannot write %s: %w", path, err)
	case !di.IsDir():
		return "", 0, fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	return real, 0o666 &^ umask, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// RemoveStale removes the temp files of path that no live writer holds:
// those a killed process left. It returns the names it removed.
func RemoveStale(path string) ([]string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if !staleLocks {
		return nil, nil
	}
	names, err := filepath.Glob(TempPattern(path))
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue // gone already
		}
		ok, _ := tryLock(f)
		if ok && os.Remove(name) == nil {
			removed = append(removed, name)
		}
		f.Close() // releases the lock
	}
	return removed, nil
}

// createLocked creates a temp file for real and locks it. A cleaner may
// have removed the fresh file between its creation and the lock: then the
// name no longer leads to it, and it is created anew. The window is a few
// system calls wide, but a writer descheduled inside it (many writers of
// one target on a loaded machine: TestConcurrentWriters under CI load lost
// five attempts in a row) can lose it again and again, so it takes many
// attempts, yielding between them, before it gives up.
func createLocked(real string) (*os.File, error) {
	for range createAttempts {
		tmp, err := os.CreateTemp(filepath.Dir(real), tempName(real))
		if err != nil {
			return nil, err
		}
		if ok, err := tryLock(tmp); err != nil || !ok {
			tmp.Close()
			os.Remove(tmp.Name())
			if err != nil {
				return nil, err
			}
			continue
		}
		a, err1 := tmp.Stat()
		b, err2 := os.Stat(tmp.Name())
		if err1 == nil && err2 == nil && os.SameFile(a, b) {
			return tmp, nil
		}
		tmp.Close()
		runtime.Gosched()
	}
	return nil, fmt.Errorf("temp file beside the target kept disappearing")
}

// Write creates or replaces path with what write produces. If write fails,
// the temp file is removed and path is left as it was. Temp files of path
// that killed writers left behind are removed first.
func Write(path string, write func(w io.Writer) error) (err error) {
	real, perm, err := Target(path)
	if err != nil {
		return err
	}
	RemoveStale(real)
	tmp, err := createLocked(real)
	if err != nil {
		// The failing operation is the temp file's creation, not the
		// target's: say so, or "no such file" about an existing target
		// (a file in /proc, whose directory takes no new files) misleads.
		return fmt.Errorf("cannot write %s: cannot create a file in %s to replace it atomically: %w", path, filepath.Dir(real), unwrapPath(err))
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
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if staleLocks {
		// Rename while the lock is held: closing first would let another
		// writer's RemoveStale take the finished temp file for a stale one.
		if err = os.Rename(tmp.Name(), real); err != nil {
			return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
		}
		if err = tmp.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
		}
		return nil
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if err = os.Rename(tmp.Name(), real); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	return nil
}

// unwrapPath drops the *PathError wrapper that names the temp file, keeping
// the cause ("no space left on device").
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// WriteFile is Write for content already in memory.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
