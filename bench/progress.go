package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// LogInterval is how often a Progress whose output is not a terminal
// prints a line.
const LogInterval = 5 * time.Second

// Progress reports a long run's advance (done/total, rate, ETA). On a
// terminal it redraws one line at most every 200 ms; on anything else (CI,
// pipes, files) it prints a plain line every LogInterval and a last one when
// the run ends, so a long run in a batch job shows it is alive. Wall-clock
// time only ever reaches this display, never a result.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	live     bool // w is a terminal: redraw one line
	label    string
	unit     string
	total    int
	done     int
	start    time.Time
	lastOut  time.Time
	interval time.Duration // between lines when not live; 0: silent
	stop     chan struct{} // closes the KeepAlive ticker; nil without one
}

// NewProgress returns a display on w for total items of the given unit.
// A nil w, or GNNSIM_PROGRESS=0, gives a display that prints nothing.
func NewProgress(w io.Writer, label, unit string, total int) *Progress {
	p := &Progress{w: w, label: label, unit: unit, total: total, start: time.Now()}
	if w == nil || os.Getenv("GNNSIM_PROGRESS") == "0" {
		return p
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.live = true
	} else {
		p.interval = LogInterval
	}
	p.lastOut = p.start
	return p
}

// Add records n more finished items.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.print(time.Now(), false)
}

// print writes the state at now when it is due (always when force).
func (p *Progress) print(now time.Time, force bool) {
	switch {
	case p.live:
		if !force && now.Sub(p.lastOut) < 200*time.Millisecond && p.done < p.total {
			return
		}
		p.lastOut = now
		fmt.Fprintf(p.w, "\r%s   ", p.line(now))
	case p.interval > 0:
		if !force && now.Sub(p.lastOut) < p.interval {
			return
		}
		p.lastOut = now
		fmt.Fprintln(p.w, p.line(now))
	}
}

// KeepAlive makes the display print on its own, at its interval (each
// second on a terminal), also when no item finishes: a stage made of one
// long step, or of few, shows it is alive and how long it has run. Done
// stops it.
func (p *Progress) KeepAlive() { p.Beat() }

// Beat is KeepAlive with a stop of its own: the heartbeat of a run whose
// items take minutes each (a search, a training), so that it never sits
// silent. stop (or Done) ends it; stop returns once the ticker has gone,
// so nothing prints after it.
func (p *Progress) Beat() (stop func()) {
	if p == nil || (!p.live && p.interval == 0) {
		return func() {}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		return func() {} // already beating: the first caller's stop, or Done, ends it
	}
	every := p.interval
	if p.live {
		every = time.Second
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	p.stop = quit
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case now := <-t.C:
				p.mu.Lock()
				if now.Sub(p.lastOut) >= every {
					p.lastOut = now
					p.print(now, true)
				}
				p.mu.Unlock()
			}
		}
	}()
	return func() {
		p.mu.Lock()
		if p.stop == quit {
			close(quit)
			p.stop = nil
		}
		p.mu.Unlock()
		<-finished
	}
}

// MaxETA is the longest run a command starts without being told to
// (train --long): a budget that would take longer is refused, the ETA
// in the message.
const MaxETA = 24 * time.Hour

// etaWarmup is how long a run goes before its rate is trusted for the
// ETA check.
const etaWarmup = 3 * time.Second

// CheckETA returns an error naming the ETA when, past a short warm-up,
// the run's rate says the rest would take longer than limit; nil before
// the warm-up, or when it fits. Wall-clock time decides only whether the
// run goes on, never a result.
func (p *Progress) CheckETA(limit time.Duration, how string) error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return etaError(p.label, p.unit, p.done, p.total, time.Since(p.start), limit, how)
}

// etaError is CheckETA on given figures.
func etaError(label, unit string, done, total int, el, limit time.Duration, how string) error {
	if el < etaWarmup || done <= 0 || done >= total {
		return nil
	}
	rate := float64(done) / el.Seconds()
	eta := time.Duration(float64(total-done) / rate * float64(time.Second))
	if eta <= limit {
		return nil
	}
	return fmt.Errorf("%s: %d %s at the %.3g %s/s measured so far would take about %.0f h more (limit %.0f h): %s",
		label, total, unit, rate, unit, eta.Hours(), limit.Hours(), how)
}

// line formats the state at now: done/total, percent, rate and ETA. A
// display without a total (0: unknown, such as one long encoding step)
// shows the elapsed time and no ETA ("length unknown"). The ETA reads 0s only when the work
// is done; while some remains it is at least "<1s".
func (p *Progress) line(now time.Time) string {
	if p.total <= 0 {
		if p.unit == "" {
			return fmt.Sprintf("%s: %s elapsed, length unknown", p.label, now.Sub(p.start).Round(time.Second))
		}
		return fmt.Sprintf("%s %d %s, %s elapsed, length unknown", p.label, p.done, p.unit, now.Sub(p.start).Round(time.Second))
	}
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el
	}
	eta := "?"
	if p.done >= p.total {
		eta = "0s"
	} else if rate > 0 {
		d := time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
		if eta = d.Round(time.Second).String(); d < time.Second {
			eta = "<1s"
		}
	}
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(p.done) / float64(p.total)
	}
	return fmt.Sprintf("%s %d/%d %s (%.1f%%) %.1f %s/s ETA %s", p.label, p.done, p.total, p.unit, pct, rate, p.unit, eta)
}

// Done ends the display: the live line gets its newline, and a log
// display prints its last line with the total time.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	switch {
	case p.live:
		fmt.Fprintln(p.w)
	case p.interval > 0 && p.total <= 0:
		fmt.Fprintf(p.w, "%s done in %s\n", p.label, time.Since(p.start).Round(10*time.Millisecond))
	case p.interval > 0:
		now := time.Now()
		fmt.Fprintf(p.w, "%s; done in %s\n", p.line(now), now.Sub(p.start).Round(10*time.Millisecond))
	}
}

// Heartbeat prints on w that a step of unknown length is still running
// (its elapsed time every LogInterval, every second on a terminal) until
// the returned stop, which closes the display: for work that reports no
// items, so that it never sits silent. A nil w prints nothing.
func Heartbeat(w io.Writer, label string) (stop func()) {
	p := NewProgress(w, label, "", 0)
	halt := p.Beat()
	return func() {
		halt()
		p.Done()
	}
}

// Guard is the per-item hook of a run whose budget is refused once its
// rate is known: each call counts one item and, unless long, cancels the
// run with CheckETA's error (MaxETA; its message ends with how) when the
// rest would take longer.
func (p *Progress) Guard(cancel context.CancelCauseFunc, long bool, how string) func() {
	return func() {
		p.Add(1)
		if !long {
			if err := p.CheckETA(MaxETA, how); err != nil {
				cancel(err)
			}
		}
	}
}
