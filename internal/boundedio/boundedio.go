// Package boundedio reads the files a user hands gnnsim (specs, tables,
// mappings, CSVs, data sets, models) with a size cap per kind of file, so a
// file that never ends (/dev/zero, a FIFO, a symbolic link to either) or an
// absurdly large one is refused with an error naming the file, its cap and
// how to go past it, instead of growing memory until the machine gives out.
//
// Only regular files are read: devices, FIFOs, sockets and directories are
// refused after symbolic links are followed. The size is checked from the
// file's metadata before reading and again while reading (a file that grows,
// or a /proc file whose size reads as 0, is still cut at the cap).
//
// It leaves out writing (internal/atomicfile) and parsing.
package boundedio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Kind is a kind of input file with its size cap.
type Kind struct {
	Name string // what the file is, in the user's terms: "SoC spec"
	Max  int64  // largest size accepted, in bytes
}

// The caps, one per kind of input. They are far above any real input of
// the kind (the largest shared data set, Planetoid PubMed, is 38 MB) and
// small enough that reading one never endangers the machine. README's
// "Limits" table lists them.
var (
	Spec     = Kind{"spec", 1 << 20}       // YAML/JSON hardware, SoC and sweep specs
	Mapping  = Kind{"mapping", 16 << 20}   // SoC mapping files
	Table    = Kind{"table", 256 << 20}    // measured latency tables (CSV)
	CSV      = Kind{"CSV", 256 << 20}      // reference, curve and accuracy CSVs
	Manifest = Kind{"manifest", 1 << 20}   // predictor manifests and sidecars (JSON)
	Model    = Kind{"model", 1 << 30}      // LightGBM text models
	DataSet  = Kind{"data set", 2 << 30}   // .npz archives, Planetoid pickles, graph files
	Trace    = Kind{"trace", 256 << 20}    // workload traces
	Graph    = Kind{"graph file", 4 << 30} // .mtx / edge lists / TU files
)

// ErrTooLarge is wrapped by errors about a file above its kind's cap.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by errors about a device, FIFO, socket or
// directory given where a file is read.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading as a file of kind k: it must be a regular
// file (after symbolic links) of at most k.Max bytes. The returned reader
// fails with ErrTooLarge if the file turns out longer while being read.
func Open(path string, k Kind) (io.ReadCloser, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, plain(path, err)
	}
	if err := check(path, fi, k); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, plain(path, err)
	}
	// Stat again through the descriptor: the path may have been swapped.
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	if err := check(path, fi, k); err != nil {
		f.Close()
		return nil, err
	}
	return &capped{f: f, left: k.Max, path: path, k: k}, nil
}

// ReadFile reads all of path, a file of kind k (see Open).
func ReadFile(path string, k Kind) ([]byte, error) {
	r, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// ReadAll reads r, named name, as a file of kind k: at most k.Max bytes.
func ReadAll(r io.Reader, name string, k Kind) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, k.Max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > k.Max {
		return nil, tooLarge(name, k)
	}
	return data, nil
}

// plain restates an *fs.PathError without the system call's name ("stat
// x: no such file" becomes "cannot read x: no such file"); errors.Is
// still sees the cause (fs.ErrNotExist, fs.ErrPermission).
func plain(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot read %s: %w", path, pe.Err)
	}
	return err
}

func check(path string, fi fs.FileInfo, k Kind) error {
	if !fi.Mode().IsRegular() {
		what := "a directory"
		switch m := fi.Mode(); {
		case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
			what = "a device"
		case m&fs.ModeNamedPipe != 0:
			what = "a FIFO"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		case !m.IsDir():
			what = "not a regular file"
		}
		return fmt.Errorf("%s: %w (%s): give a %s file", path, ErrNotRegular, what, k.Name)
	}
	if fi.Size() > k.Max {
		return tooLarge(path, k)
	}
	return nil
}

func tooLarge(name string, k Kind) error {
	return fmt.Errorf("%s: %w: a %s file may hold at most %s (see Limits in README.md)", name, ErrTooLarge, k.Name, Size(k.Max))
}

// Size formats n bytes in binary units, as the caps are stated.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// capped reads at most left bytes from f and then fails with ErrTooLarge
// if f has more.
type capped struct {
	f    *os.File
	left int64
	path string
	k    Kind
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// At the cap: one more byte means the file is too large.
		var b [1]byte
		n, err := c.f.Read(b[:])
		if n > 0 {
			return 0, tooLarge(c.path, c.k)
		}
		if err == nil {
			err = io.EOF
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.f.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *capped) Close() error { return c.f.Close() }

// CheckRegular checks, without opening it (opening a FIFO blocks), that
// path is a regular file after symbolic links, for readers that stream or
// seek a file themselves (Parquet) and so need no size cap.
func CheckRegular(path, what string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return plain(path, err)
	}
	return check(path, fi, Kind{what, fi.Size()})
}
