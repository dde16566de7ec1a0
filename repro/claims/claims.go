package claims

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"gnnsim/internal/atomicfile"
	"gnnsim/internal/csvtab"
)

// Header is the column order of claims.csv.
var Header = []string{"claim", "paper", "measured", "unit", "note"}

// Claim is one row: a headline claim of the paper and its measurement.
type Claim struct {
	ID string // stable identifier, e.g. "table3_vs_constrained_energy_pct"
	// Paper is the paper's figure; NaN when the paper states none (a
	// direction only, or a figure without published numbers).
	Paper float64
	// Measured is this run's figure, computed from its outputs; NaN when
	// the run could not measure it (the note says why).
	Measured float64
	Unit     string // "pct", "x", "pt", "ratio", "count", ...
	Note     string
}

// Ledger is an ordered set of claims with unique IDs.
type Ledger struct {
	rows []Claim
}

// Set adds the claim id or replaces it in place (a claim measured twice
// keeps its first position and its last value).
func (l *Ledger) Set(id string, paper, measured float64, unit, note string) {
	c := Claim{ID: id, Paper: paper, Measured: measured, Unit: unit, Note: note}
	for i := range l.rows {
		if l.rows[i].ID == id {
			l.rows[i] = c
			return
		}
	}
	l.rows = append(l.rows, c)
}

// Note replaces the note of claim id; it reports whether the claim exists.
func (l *Ledger) Note(id, note string) bool {
	for i := range l.rows {
		if l.rows[i].ID == id {
			l.rows[i].Note = note
			return true
		}
	}
	return false
}

// Order puts the claims named in ids first, in that order; the others
// keep their order after them.
func (l *Ledger) Order(ids []string) {
	rank := func(id string) int {
		for i, x := range ids {
			if x == id {
				return i
			}
		}
		return len(ids)
	}
	slices.SortStableFunc(l.rows, func(a, b Claim) int { return rank(a.ID) - rank(b.ID) })
}

// Get returns claim id.
func (l *Ledger) Get(id string) (Claim, bool) {
	for _, c := range l.rows {
		if c.ID == id {
			return c, true
		}
	}
	return Claim{}, false
}

// Measured returns the measured value of claim id, NaN if it is absent.
func (l *Ledger) Measured(id string) float64 {
	if c, ok := l.Get(id); ok {
		return c.Measured
	}
	return math.NaN()
}

// Claims returns the rows in the order they were set.
func (l *Ledger) Claims() []Claim { return append([]Claim(nil), l.rows...) }

// Missing returns the IDs of want that the ledger lacks.
func (l *Ledger) Missing(want []string) []string {
	var out []string
	for _, id := range want {
		if _, ok := l.Get(id); !ok {
			out = append(out, id)
		}
	}
	return out
}

// Format renders a number as the CSV and the table show it: up to six
// significant digits, "" for NaN (no figure).
func Format(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// cell renders a number in a Markdown table: "-" for no figure.
func cell(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return Format(x)
}

// WriteCSV writes the ledger to w as claims.csv.
func (l *Ledger) WriteCSV(w io.Writer) error {
	return csvtab.Write(w, Header, len(l.rows), func(i int) []string {
		c := l.rows[i]
		return []string{c.ID, Format(c.Paper), Format(c.Measured), c.Unit, c.Note}
	})
}

// WriteFile writes the ledger to path (temp + rename, mode 0644).
func (l *Ledger) WriteFile(path string) error {
	var b bytes.Buffer
	if err := l.WriteCSV(&b); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	if err := atomicfile.WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	return nil
}

// Markdown renders the ledger as a report's opening table.
func (l *Ledger) Markdown() string {
	var b strings.Builder
	b.WriteString("## Claims ledger (claims.csv)\n\nEach headline claim of the paper under a stable ID: the paper's figure, this run's (computed from its outputs), and a note (the matched point, the mechanism when the claim does not hold). The verdicts below are read from this table.\n\n| claim | paper | measured | unit | note |\n|---|---|---|---|---|\n")
	for _, c := range l.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", c.ID, cell(c.Paper), cell(c.Measured), c.Unit, strings.ReplaceAll(c.Note, "|", "/"))
	}
	b.WriteString("\n")
	return b.String()
}

// Read parses a claims.csv.
func Read(r io.Reader) (*Ledger, error) {
	num := func(s string) (float64, error) {
		if strings.TrimSpace(s) == "" {
			return math.NaN(), nil
		}
		return strconv.ParseFloat(strings.TrimSpace(s), 64)
	}
	rows, err := csvtab.Rows(r, Header, func(rec []string, col csvtab.Columns, _ int) (Claim, error) {
		c := Claim{ID: rec[col["claim"]], Unit: rec[col["unit"]], Note: rec[col["note"]]}
		var err error
		if c.Paper, err = num(rec[col["paper"]]); err != nil {
			return c, fmt.Errorf("paper: %w", err)
		}
		if c.Measured, err = num(rec[col["measured"]]); err != nil {
			return c, fmt.Errorf("measured: %w", err)
		}
		if c.ID == "" {
			return c, fmt.Errorf("empty claim ID")
		}
		return c, nil
	})
	if err != nil {
		return nil, fmt.Errorf("claims: %w", err)
	}
	l := &Ledger{}
	for _, c := range rows {
		if _, dup := l.Get(c.ID); dup {
			return nil, fmt.Errorf("claims: claim %q twice", c.ID)
		}
		l.rows = append(l.rows, c)
	}
	return l, nil
}

// ReadFile reads a claims.csv from path.
func ReadFile(path string) (*Ledger, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("claims: %w", err)
	}
	defer f.Close()
	return Read(f)
}

// Check reads path and reports an error unless it holds every ID of want
// with a finite measured value: what a reproduction's tests assert of the
// ledger it wrote.
func Check(path string, want []string) (*Ledger, error) {
	l, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	if m := l.Missing(want); len(m) > 0 {
		return l, fmt.Errorf("claims: %s lacks %s", path, strings.Join(m, ", "))
	}
	for _, id := range want {
		if v := l.Measured(id); math.IsNaN(v) || math.IsInf(v, 0) {
			return l, fmt.Errorf("claims: %s: %s measured %v, not finite", path, id, v)
		}
	}
	return l, nil
}

// Goal is how a report judges one claim's measured value: a sentence, the
// wanted relation in words, and the test.
type Goal struct {
	ID, Text, Want string
	Holds          func(measured float64) bool
}

// Holds reports whether claim g.ID is measured (finite) and meets g.
func (l *Ledger) Holds(g Goal) bool {
	m := l.Measured(g.ID)
	return !math.IsNaN(m) && !math.IsInf(m, 0) && g.Holds(m)
}

// Verdicts renders a report's verdict table, each row read from the
// ledger; a goal whose claim is missing is an error.
func (l *Ledger) Verdicts(goals []Goal) (string, error) {
	var b strings.Builder
	b.WriteString("| conclusion | claim | paper | ours | goal | holds |\n|---|---|---|---|---|---|\n")
	for _, g := range goals {
		c, ok := l.Get(g.ID)
		if !ok {
			return "", fmt.Errorf("claims: %s not measured", g.ID)
		}
		h := "no"
		if l.Holds(g) {
			h = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", g.Text, g.ID, cell(c.Paper), cell(c.Measured), g.Want, h)
	}
	return b.String(), nil
}

// Above is the goal measured > x.
func Above(id, text string, x float64) Goal {
	return Goal{ID: id, Text: text, Want: "> " + Format(x), Holds: func(m float64) bool { return m > x }}
}

// Below is the goal measured < x.
func Below(id, text string, x float64) Goal {
	return Goal{ID: id, Text: text, Want: "< " + Format(x), Holds: func(m float64) bool { return m < x }}
}

// AtLeast is the goal measured >= x.
func AtLeast(id, text string, x float64) Goal {
	return Goal{ID: id, Text: text, Want: ">= " + Format(x), Holds: func(m float64) bool { return m >= x }}
}

// AtMost is the goal measured <= x.
func AtMost(id, text string, x float64) Goal {
	return Goal{ID: id, Text: text, Want: "<= " + Format(x), Holds: func(m float64) bool { return m <= x }}
}

// Within is the goal |measured - x| <= tol.
func Within(id, text string, x, tol float64) Goal {
	return Goal{ID: id, Text: text, Want: "within " + Format(tol) + " of " + Format(x), Holds: func(m float64) bool { return math.Abs(m-x) <= tol }}
}
