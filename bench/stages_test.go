package bench

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the KeepAlive / Beat goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStagesKeepAlive checks that a stage prints while no unit finishes
// (KeepAlive), that a stage of unknown length shows its elapsed time and
// no ETA, and that an ETA reads 0s only on a finished stage.
func TestStagesKeepAlive(t *testing.T) {
	t.Setenv("GNNSIM_PROGRESS", "")
	var buf syncBuffer
	s := NewStages(&buf, "gen")
	s.every = 5 * time.Millisecond
	s.Stage("draws", "draws", 10)
	s.Add(9)
	// One unit left: KeepAlive prints on its own. Wait for two such lines
	// (a deadline, not a fixed sleep: a loaded machine may be slow).
	for deadline := time.Now().Add(10 * time.Second); strings.Count(buf.String(), "gen draws 9/10") < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	s.Add(1)
	s.Stage("encode", "", 0)
	s.Done()
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	alive := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "gen draws 9/10") {
			alive++
			if strings.Contains(l, "ETA 0s") {
				t.Errorf("ETA 0s with work left: %q", l)
			}
		}
	}
	if alive < 2 {
		t.Errorf("%d lines while the stage waited, want at least 2:\n%s", alive, out)
	}
	if !strings.Contains(out, "gen draws 10/10 draws (100.0%)") || !strings.Contains(out, "ETA 0s; done in") {
		t.Errorf("no finished draws line:\n%s", out)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "gen encode done in ") {
		t.Errorf("last line %q, want the encode stage's end", last)
	}
}

// TestProgressETANeverZero checks the ETA of an unfinished display.
func TestProgressETANeverZero(t *testing.T) {
	p := &Progress{label: "x", unit: "u", total: 1000, done: 999, start: time.Now().Add(-time.Second)}
	if l := p.line(time.Now()); !strings.Contains(l, "ETA <1s") {
		t.Errorf("line %q, want ETA <1s", l)
	}
	p.done = 1000
	if l := p.line(time.Now()); !strings.Contains(l, "ETA 0s") {
		t.Errorf("line %q, want ETA 0s", l)
	}
}
