package bench

import (
	"io"
	"sync"
	"time"
)

// Stages shows the stages of one long job (a billion-edge graph's draws,
// CSR, triangles, encoding, ...) one after the other, each as its own
// Progress line with its own unit, total and ETA. A stage whose total is
// unknown (0) shows its elapsed time and no ETA. Every stage keeps printing
// while it runs (KeepAlive), so no stage works in silence, and a stage's
// ETA reaches 0 only when that stage is done. It is safe for concurrent
// use; graphs.Meter is its interface.
type Stages struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	cur   *Progress
	every time.Duration // line interval off a terminal; 0: LogInterval (tests shorten it)
}

// NewStages returns a display on w (nil: silent) whose lines start with label.
func NewStages(w io.Writer, label string) *Stages { return &Stages{w: w, label: label} }

// Stage ends the current stage and starts the next, of total units.
func (s *Stages) Stage(name, unit string, total int64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur.Done()
	s.cur = NewProgress(s.w, s.label+" "+name, unit, int(total))
	if s.every > 0 && s.cur.interval > 0 {
		s.cur.interval = s.every
	}
	s.cur.KeepAlive()
}

// Add records n more units of the current stage.
func (s *Stages) Add(n int64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	p := s.cur
	s.mu.Unlock()
	p.Add(int(n))
}

// Done ends the last stage.
func (s *Stages) Done() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur.Done()
	s.cur = nil
}
