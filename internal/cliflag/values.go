package cliflag

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// MaxWorkers bounds every --workers flag.
const MaxWorkers = 4096

// RangeError is a flag value outside its range.
type RangeError struct {
	flag, value string
	lo, hi      int64
	note        string // what lo means, when it is special ("0: one per CPU")
	syntax      bool   // value is not a number at all
}

func (e *RangeError) Error() string {
	if e.syntax {
		return fmt.Sprintf("--%s %s: not an integer (want %d to %d)", e.flag, Cut(e.value), e.lo, e.hi)
	}
	if e.note != "" {
		return fmt.Sprintf("--%s %s: want %d (%s) to %d", e.flag, Cut(e.value), e.lo, e.note, e.hi)
	}
	return fmt.Sprintf("--%s %s: want %d to %d", e.flag, Cut(e.value), e.lo, e.hi)
}

// boundedInt is a pflag.Value holding an integer in [lo, hi].
type boundedInt[T int | int64] struct {
	p      *T
	name   string
	lo, hi int64
	note   string
}

func (b *boundedInt[T]) String() string { return strconv.FormatInt(int64(*b.p), 10) }
func (b *boundedInt[T]) Type() string   { return "int" }

func (b *boundedInt[T]) Set(s string) error {
	re := &RangeError{flag: b.name, value: s, lo: b.lo, hi: b.hi, note: b.note}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
	if err != nil {
		// 1e12 is a count too: parse it to say it is out of range rather
		// than "invalid syntax".
		f, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if ferr != nil && !errors.Is(ferr, strconv.ErrRange) || math.IsNaN(f) || f != math.Trunc(f) {
			re.syntax = true
			return re
		}
		if f < math.MinInt64 || f >= math.MaxInt64 {
			return re
		}
		v = int64(f)
	}
	if v < b.lo || v > b.hi {
		return re
	}
	*b.p = T(v)
	return nil
}

// Int registers the int flag name on fs with default def and allowed
// range [lo, hi], stated after usage in --help.
func Int[T int | int64](fs *pflag.FlagSet, p *T, name string, def T, lo, hi int64, usage string) {
	*p = def
	fs.Var(&boundedInt[T]{p: p, name: name, lo: lo, hi: hi}, name, fmt.Sprintf("%s (%d to %d)", usage, lo, hi))
}

// Workers registers --workers: 0 (one per CPU) to MaxWorkers, the same
// bound and message in every command.
func Workers(fs *pflag.FlagSet, p *int, def int, usage string) {
	*p = def
	fs.Var(&boundedInt[int]{p: p, name: "workers", lo: 0, hi: MaxWorkers, note: "one per CPU"}, "workers",
		fmt.Sprintf("%s (0 to %d)", usage, MaxWorkers))
}

// boundedFloat is a pflag.Value holding a finite float64 in [lo, hi]
// (lo excluded when open).
type boundedFloat struct {
	p      *float64
	name   string
	lo, hi float64
	open   bool
}

func (b *boundedFloat) String() string { return strconv.FormatFloat(*b.p, 'g', -1, 64) }
func (b *boundedFloat) Type() string   { return "float" }

func (b *boundedFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < b.lo || v > b.hi || (b.open && v == b.lo) {
		return &FloatRangeError{b.name, s, b.rangeText()}
	}
	*b.p = v
	return nil
}

func (b *boundedFloat) rangeText() string {
	if b.open {
		return fmt.Sprintf("a finite number above %g, at most %g", b.lo, b.hi)
	}
	return fmt.Sprintf("a finite number from %g to %g", b.lo, b.hi)
}

// FloatRangeError is a float flag value outside its range, NaN or Inf.
type FloatRangeError struct{ flag, value, want string }

func (e *FloatRangeError) Error() string {
	return fmt.Sprintf("--%s %s: want %s", e.flag, Cut(e.value), e.want)
}

// Float registers the float flag name with default def and allowed range
// [lo, hi], or (lo, hi] when open; NaN and Inf are refused.
func Float(fs *pflag.FlagSet, p *float64, name string, def, lo, hi float64, open bool, usage string) {
	*p = def
	b := &boundedFloat{p: p, name: name, lo: lo, hi: hi, open: open}
	fs.Var(b, name, fmt.Sprintf("%s (%s)", usage, b.rangeText()))
}

// listValue is a comma-separated (and repeatable) string list flag that
// refuses an empty entry and a repeated one: running a data set, a policy
// or a directory twice is a typo, never a request.
type listValue struct {
	p       *[]string
	name    string
	changed bool
	key     func(string) string // identity of an entry for the duplicate check
}

func (l *listValue) String() string { return "[" + strings.Join(*l.p, ",") + "]" }
func (l *listValue) Type() string   { return "strings" }

func (l *listValue) Set(s string) error {
	if !l.changed {
		*l.p = nil // the first use replaces the default
		l.changed = true
	}
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return &ListError{l.name, s, "an empty entry"}
		}
		for _, w := range *l.p {
			if l.key(w) == l.key(v) {
				return &ListError{l.name, s, fmt.Sprintf("%s given twice", Cut(v))}
			}
		}
		*l.p = append(*l.p, v)
	}
	return nil
}

// ListError is a list flag with an empty or repeated entry.
type ListError struct{ flag, value, what string }

func (e *ListError) Error() string {
	return fmt.Sprintf("--%s %s: %s (give each entry once, comma-separated)", e.flag, Cut(e.value), e.what)
}

// List registers a list flag of names (compared case-insensitively).
func List(fs *pflag.FlagSet, p *[]string, name string, def []string, usage string) {
	*p = def
	fs.Var(&listValue{p: p, name: name, key: strings.ToLower}, name, usage)
}

// PathList registers a list flag of paths (compared cleaned).
func PathList(fs *pflag.FlagSet, p *[]string, name string, def []string, usage string) {
	*p = def
	fs.Var(&listValue{p: p, name: name, key: filepath.Clean}, name, usage)
}

// pathValue is an output path flag checked while the command line is
// parsed: an empty value is refused (it would otherwise mean "the
// default" in one command and "the current directory" in another), and
// the path must be writable as a directory (dir) or a file.
type pathValue struct {
	p    *string
	name string
	dir  bool
}

func (v *pathValue) String() string { return *v.p }
func (v *pathValue) Type() string {
	if v.dir {
		return "dir"
	}
	return "file"
}

func (v *pathValue) Set(s string) error {
	check := CheckOutFile
	if v.dir {
		check = CheckOutDir
	}
	if err := check(v.name, s); err != nil {
		return &PathError{err}
	}
	*v.p = s
	return nil
}

// PathError is an output path flag refused by CheckOutDir or
// CheckOutFile, whose message already names the flag.
type PathError struct{ err error }

func (e *PathError) Error() string { return e.err.Error() }
func (e *PathError) Unwrap() error { return e.err }

// OutDir registers an output directory flag (checked by CheckOutDir).
func OutDir(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&pathValue{p: p, name: name, dir: true}, name, usage)
}

// OutFile registers an output file flag (checked by CheckOutFile).
func OutFile(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&pathValue{p: p, name: name}, name, usage)
}

// parsed is a pflag.Value of any type with a parser and a String method.
type parsed[T fmt.Stringer] struct {
	p     *T
	parse func(string) (T, error)
}

func (v *parsed[T]) String() string { return (*v.p).String() }
func (v *parsed[T]) Type() string   { return "string" }
func (v *parsed[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// Parsed registers a flag whose value parse reads into *p (its current
// value the default shown in --help).
func Parsed[T fmt.Stringer](fs *pflag.FlagSet, p *T, name, usage string, parse func(string) (T, error)) {
	fs.Var(&parsed[T]{p: p, parse: parse}, name, usage)
}
