package bench

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

var progressLine = regexp.MustCompile(`^sweep (\d+)/10 graphs \(\d+\.\d%\) \d+\.\d graphs/s ETA \S+(; done in \S+)?$`)

// TestProgressNotTerminal checks that a display on a non-terminal prints
// plain lines (no carriage returns) at its interval and a last one at Done.
func TestProgressNotTerminal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		interval time.Duration
		minLines int
	}{
		{"every add", time.Nanosecond, 11},
		{"only the end", time.Hour, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GNNSIM_PROGRESS", "")
			var buf bytes.Buffer
			p := NewProgress(&buf, "sweep", "graphs", 10)
			if p.live {
				t.Fatal("a buffer is not a terminal")
			}
			p.interval = tc.interval
			for range 10 {
				time.Sleep(time.Microsecond)
				p.Add(1)
			}
			p.Done()
			out := buf.String()
			if strings.Contains(out, "\r") {
				t.Errorf("carriage return in non-terminal output %q", out)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) < tc.minLines {
				t.Errorf("%d lines, want at least %d:\n%s", len(lines), tc.minLines, out)
			}
			for _, l := range lines {
				if !progressLine.MatchString(l) {
					t.Errorf("line %q does not match %s", l, progressLine)
				}
			}
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "sweep 10/10") || !strings.Contains(last, "done in") {
				t.Errorf("last line %q", last)
			}
		})
	}
	t.Run("silent", func(t *testing.T) {
		t.Setenv("GNNSIM_PROGRESS", "0")
		var buf bytes.Buffer
		p := NewProgress(&buf, "sweep", "graphs", 10)
		p.Add(10)
		p.Done()
		NewProgress(nil, "sweep", "graphs", 1).Done()
		if buf.Len() != 0 {
			t.Errorf("GNNSIM_PROGRESS=0 printed %q", buf.String())
		}
	})
}
