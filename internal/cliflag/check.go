package cliflag

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"gnnsim/internal/atomicfile"
)

// CheckOutFile checks that the file flag names (e.g. --out) can be
// written: not empty, not a directory, device or FIFO, in an existing
// directory.
func CheckOutFile(flag, path string) error {
	if path == "" {
		return fmt.Errorf("--%s: no file named (give a path)", flag)
	}
	if _, _, err := atomicfile.Target(path); err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	return nil
}

// CheckOutDir checks that the directory flag names can hold outputs: not
// empty, not an existing non-directory, and the nearest existing ancestor a
// directory (the missing ones are created when the command writes).
func CheckOutDir(flag, path string) error {
	if path == "" {
		return fmt.Errorf("--%s: no directory named (give a path)", flag)
	}
	p := filepath.Clean(path)
	for {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			if p == filepath.Clean(path) {
				return fmt.Errorf("--%s %s: not a directory (it is an existing file): name a directory to write into", flag, path)
			}
			return fmt.Errorf("--%s %s: %s is not a directory", flag, path, p)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("--%s %s: %w", flag, path, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// CheckWorkers checks a --workers value: 0 (one per CPU) up to MaxWorkers.
func CheckWorkers(n int) error {
	if n < 0 || n > MaxWorkers {
		return fmt.Errorf("--workers %d: want 0 (one per CPU) to %d", n, MaxWorkers)
	}
	return nil
}

// CheckRange checks that an integer flag lies in [lo, hi].
func CheckRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s %d: want %d to %d", flag, v, lo, hi)
	}
	return nil
}

// CheckPositive checks that a float flag is finite and > 0.
func CheckPositive(flag string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("--%s %v: want a finite number above 0", flag, v)
	}
	return nil
}

// Explain turns a flag parsing error into a message in the user's terms:
// a range, list or path error is returned as is; a value that does not
// parse is named with its flag and the type wanted, without Go's strconv
// wording.
func Explain(err error) error {
	var re *RangeError
	if errors.As(err, &re) {
		return re
	}
	var fe *FloatRangeError
	if errors.As(err, &fe) {
		return fe
	}
	var le *ListError
	if errors.As(err, &le) {
		return le
	}
	var pe *PathError
	if errors.As(err, &pe) {
		return pe.err
	}
	var ive *pflag.InvalidValueError
	if errors.As(err, &ive) {
		f := ive.GetFlag()
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			want := "a number"
			switch f.Value.Type() {
			case "int", "int64", "int32", "uint64", "uint", "uint32":
				want = "an integer"
			case "bool":
				want = "true or false"
			}
			if errors.Is(ne.Err, strconv.ErrRange) {
				return fmt.Errorf("--%s %s: out of range (want %s of type %s)", f.Name, Cut(ive.GetValue()), want, f.Value.Type())
			}
			return fmt.Errorf("--%s %s: not %s", f.Name, Cut(ive.GetValue()), want)
		}
		return fmt.Errorf("--%s %s: %v", f.Name, Cut(ive.GetValue()), errors.Unwrap(err))
	}
	return err
}

// maxEcho is the longest piece of user input quoted back in an error.
const maxEcho = 80

// Cut shortens s to maxEcho characters for an error message, so a huge
// token is never echoed whole.
func Cut(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	r := []rune(s)
	if len(r) <= maxEcho {
		return s
	}
	return string(r[:maxEcho]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// longRun matches what CutMessage shortens outside quotes: a run without
// spaces long enough to be a pasted value.
var longRun = regexp.MustCompile(`[^\s"]{256,}`)

// CutMessage shortens the pieces of user input an error quotes, wherever
// in the code it was raised: a quoted string beyond maxEcho characters,
// or any run of 256 characters without a space, so that a huge token is
// never echoed whole. Quotes are paired left to right (an escaped quote
// does not count), so the text between two quoted pieces is never taken
// for one (it cut "unknown directive "X" ... "Q"" in the middle).
func CutMessage(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(longRun.ReplaceAllStringFunc(msg, Cut))
			return b.String()
		}
		j := closingQuote(msg, i+1)
		if j < 0 { // an unpaired quote: the rest is plain text
			b.WriteString(longRun.ReplaceAllStringFunc(msg, Cut))
			return b.String()
		}
		b.WriteString(longRun.ReplaceAllStringFunc(msg[:i], Cut))
		b.WriteString(`"` + Cut(msg[i+1:j]) + `"`)
		msg = msg[j+1:]
	}
}

// closingQuote returns the index of the first unescaped '"' in s from
// start, or -1.
func closingQuote(s string, start int) int {
	for k := start; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '"':
			return k
		}
	}
	return -1
}

// Seeds reads a --seeds list: each entry a non-negative integer.
func Seeds(list []string) ([]uint64, error) {
	if len(list) == 0 {
		return nil, fmt.Errorf("--seeds: give at least one seed")
	}
	out := make([]uint64, len(list))
	for i, v := range list {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds: %q is not a seed (a non-negative integer)", v)
		}
		out[i] = n
	}
	return out, nil
}

// SeedsOrRuns returns the seeds of a command that takes both --seeds (a
// list, listed says it was given; at most maxSeeds) and --runs (a count
// of seeds from first, first+1, ...): the list when given, else the count.
// Giving both is an error.
func SeedsOrRuns(list []string, listed, counted bool, runs int, first uint64, maxSeeds int) ([]uint64, error) {
	if !listed {
		seeds := make([]uint64, runs)
		for i := range seeds {
			seeds[i] = first + uint64(i)
		}
		return seeds, nil
	}
	if counted {
		return nil, fmt.Errorf("--seeds and --runs exclude each other: --seeds lists the seeds, --runs counts them from --seed")
	}
	if len(list) > maxSeeds {
		return nil, fmt.Errorf("--seeds: %d seeds: want at most %d", len(list), maxSeeds)
	}
	return Seeds(list)
}
