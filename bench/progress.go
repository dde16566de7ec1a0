package bench

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// Progress reports a long run's advance (done/total, rate, ETA) on a
// terminal, redrawing one line at most every 200 ms. When its output is not
// a terminal (CI, pipes, files) it prints nothing: the final summary of the
// command is the record. Wall-clock time only ever reaches this display,
// never a result.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	live    bool
	label   string
	unit    string
	total   int
	done    int
	start   time.Time
	lastOut time.Time
}

// NewProgress returns a display on w for total items of the given unit.
// It is live only when w is a terminal (and GNNSIM_PROGRESS is not "0").
func NewProgress(w io.Writer, label, unit string, total int) *Progress {
	live := false
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && os.Getenv("GNNSIM_PROGRESS") != "0" {
		live = true
	}
	return &Progress{w: w, live: live, label: label, unit: unit, total: total, start: time.Now()}
}

// Add records n more finished items.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if !p.live {
		return
	}
	now := time.Now()
	if now.Sub(p.lastOut) < 200*time.Millisecond && p.done < p.total {
		return
	}
	p.lastOut = now
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second).String()
	}
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(p.done) / float64(p.total)
	}
	fmt.Fprintf(p.w, "\r%s %d/%d %s (%.1f%%) %.0f %s/s ETA %s   ", p.label, p.done, p.total, p.unit, pct, rate, p.unit, eta)
}

// Done ends the live line.
func (p *Progress) Done() {
	if p == nil || !p.live {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w)
}
