package sim

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func mustChannel(t testing.TB, bw float64, lat, burst int64) Channel {
	t.Helper()
	c, err := NewChannel(bw, lat, burst)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewChannelBadParameters(t *testing.T) {
	for _, tc := range []struct {
		bw         float64
		lat, burst int64
		want       string
	}{
		{0, 0, 64, "bytes per cycle"},
		{-1, 0, 64, "bytes per cycle"},
		{math.NaN(), 0, 64, "bytes per cycle"},
		{math.Inf(1), 0, 64, "bytes per cycle"},
		{64, -1, 64, "latency"},
		{64, 0, 0, "burst"},
		{64, 0, -64, "burst"},
	} {
		if _, err := NewChannel(tc.bw, tc.lat, tc.burst); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewChannel(%v, %d, %d) = %v, want error about %s", tc.bw, tc.lat, tc.burst, err, tc.want)
		}
	}
}

// TestChannelRequest checks single requests on an idle channel: the
// sending time is ceil(bytes / rate), the first burst arrives after its own
// sending time plus the latency, the last byte after the whole.
func TestChannelRequest(t *testing.T) {
	for _, tc := range []struct {
		name       string
		bw         float64
		lat, burst int64
		now, b     int64
		want       Transfer
	}{
		{"one burst", 64, 100, 64, 0, 64, Transfer{0, 1, 101, 101, 64}},
		{"many bursts", 64, 100, 64, 10, 6400, Transfer{10, 110, 111, 210, 6400}},
		{"partial burst", 64, 0, 64, 0, 65, Transfer{0, 2, 1, 2, 65}},
		{"fractional rate", 2.5, 7, 10, 0, 11, Transfer{0, 5, 11, 12, 11}},
		{"burst larger than transfer", 8, 3, 1 << 20, 0, 100, Transfer{0, 13, 16, 16, 100}},
		{"no latency", 1, 0, 4, 5, 10, Transfer{5, 15, 9, 15, 10}},
	} {
		c := mustChannel(t, tc.bw, tc.lat, tc.burst)
		if got := c.Request(tc.now, tc.b); got != tc.want {
			t.Errorf("%s: Request(%d, %d) = %+v, want %+v", tc.name, tc.now, tc.b, got, tc.want)
		}
		if c.Free() != tc.want.Done || c.Bytes() != tc.b || c.Requests() != 1 || c.BusyCycles() != tc.want.Done-tc.want.Grant {
			t.Errorf("%s: free %d, bytes %d, requests %d, busy %d", tc.name, c.Free(), c.Bytes(), c.Requests(), c.BusyCycles())
		}
	}
}

// TestChannelFIFO checks that requests are served one at a time in request
// order, whatever their request times, and never before they are made.
func TestChannelFIFO(t *testing.T) {
	c := mustChannel(t, 10, 5, 10)
	reqs := []struct{ now, b, grant, done int64 }{
		{0, 100, 0, 10},     // idle channel: at once
		{0, 50, 10, 15},     // waits for the first
		{3, 10, 15, 16},     // and for the second
		{40, 20, 40, 42},    // channel idle again: at its request time
		{41, 1000, 42, 142}, // right behind
		{0, 10, 142, 143},   // an older time does not jump the queue
	}
	for i, r := range reqs {
		tr := c.Request(r.now, r.b)
		if tr.Grant != r.grant || tr.Done != r.done || tr.Last != r.done+5 {
			t.Errorf("request %d: %+v, want grant %d, done %d", i, tr, r.grant, r.done)
		}
	}
}

// TestChannelThroughputBound feeds random requests and checks that no
// schedule beats the rate (the channel is never faster than bytes/rate
// over any prefix), that it is work-conserving (it idles only when nothing
// is requested), and that grants are in order.
func TestChannelThroughputBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, bw := range []float64{0.5, 1, 7.3, 64} {
		c := mustChannel(t, bw, 20, 64)
		var now, prevDone, sent int64
		var busy int64
		for i := range 2000 {
			now += rng.Int64N(30)
			b := 1 + rng.Int64N(5000)
			tr := c.Request(now, b)
			sent += b
			busy += c.Cycles(b)
			if tr.Grant < now || tr.Grant < prevDone {
				t.Fatalf("bw %v request %d: granted at %d, requested at %d, channel free at %d", bw, i, tr.Grant, now, prevDone)
			}
			if tr.Grant > max(now, prevDone) {
				t.Fatalf("bw %v request %d: idles from %d to %d", bw, i, max(now, prevDone), tr.Grant)
			}
			if float64(tr.Done) < float64(sent)/bw-float64(i+1) {
				t.Fatalf("bw %v: %d bytes sent by cycle %d, faster than the rate", bw, sent, tr.Done)
			}
			if tr.First > tr.Last || tr.Done > tr.Last {
				t.Fatalf("bw %v request %d: %+v", bw, i, tr)
			}
			prevDone = tr.Done
		}
		if c.BusyCycles() != busy || c.Bytes() != sent {
			t.Errorf("bw %v: busy %d (want %d), bytes %d (want %d)", bw, c.BusyCycles(), busy, c.Bytes(), sent)
		}
	}
}

// TestChannelProduced checks streams whose data are produced over a window:
// they cannot start before their first burst is made nor end before one
// burst after production ends, and are channel-bound otherwise.
func TestChannelProduced(t *testing.T) {
	for _, tc := range []struct {
		name           string
		now, b, p0, p1 int64
		busyUntil      int64 // a previous transfer holds the channel until then
		want           Transfer
	}{
		// 6400 B at 64 B/cycle = 100 cycles; produced over [0, 1000]: the
		// first burst is made at 10 and the last leaves one burst time after
		// production ends.
		{"producer-bound", 0, 6400, 0, 1000, 0, Transfer{0, 1001, 31, 1021, 6400}},
		// Produced over [0, 10]: the first burst is ready at cycle 1
		// (10*64/6400 rounded up), channel-bound after that.
		{"channel-bound", 0, 6400, 0, 10, 0, Transfer{0, 101, 22, 121, 6400}},
		// Channel busy until 500: the stream waits for it.
		{"queued", 0, 6400, 0, 10, 500, Transfer{500, 600, 521, 620, 6400}},
		// Production ended long ago: like a plain request.
		{"already produced", 50, 640, 0, 10, 0, Transfer{50, 60, 71, 80, 640}},
	} {
		c := mustChannel(t, 64, 20, 64)
		if tc.busyUntil > 0 {
			c.Request(0, int64(float64(tc.busyUntil)*64))
		}
		if got := c.RequestProduced(tc.now, tc.b, tc.p0, tc.p1); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestChannelConsume checks a consumer of a streamed transfer: it starts on
// the first burst and ends no earlier than the last arrival plus the work
// of the last burst.
func TestChannelConsume(t *testing.T) {
	c := mustChannel(t, 64, 100, 64)
	for _, tc := range []struct {
		name               string
		tr                 Transfer
		ready, dur         int64
		wantStart, wantEnd int64
	}{
		{"no data", Transfer{}, 7, 30, 7, 37},
		// 6400 B granted at 0: first burst at 101, last byte at 200; 1000
		// cycles of work: compute-bound.
		{"compute-bound", c.Request(0, 6400), 0, 1000, 101, 1101},
	} {
		s, e := c.Consume(tc.tr, tc.ready, tc.dur)
		if s != tc.wantStart || e != tc.wantEnd {
			t.Errorf("%s: consume = [%d, %d], want [%d, %d]", tc.name, s, e, tc.wantStart, tc.wantEnd)
		}
	}
	c.Reset()
	// 64 kB: last byte at 1000 + 100; 100 cycles of work over 1000 bursts:
	// the last burst's share (1 cycle) runs after it arrives.
	tr := c.Request(0, 64000)
	if s, e := c.Consume(tr, 0, 100); s != 101 || e != 1101 {
		t.Errorf("data-bound: consume = [%d, %d], want [101, 1101]", s, e)
	}
	if s, e := c.Consume(tr, 5000, 100); s != 5000 || e != 5100 {
		t.Errorf("late consumer: [%d, %d], want [5000, 5100]", s, e)
	}
}

func TestChannelZeroAndNegative(t *testing.T) {
	c := mustChannel(t, 1, 10, 4)
	c.Request(0, 100)
	before := c
	if tr := c.Request(5, 0); tr != (Transfer{5, 5, 5, 5, 0}) || c != before {
		t.Errorf("zero-byte request: %+v, channel changed: %v", tr, c != before)
	}
	if tr := c.RequestProduced(5, 0, 0, 50); tr != (Transfer{5, 5, 5, 5, 0}) || c != before {
		t.Errorf("zero-byte stream: %+v", tr)
	}
	defer func() {
		if recover() == nil {
			t.Error("negative request did not panic")
		}
	}()
	c.Request(0, -1)
}

// TestChannelHugeValues checks that times saturate rather than wrap.
func TestChannelHugeValues(t *testing.T) {
	c := mustChannel(t, 1e-3, math.MaxInt64/2, 1<<40)
	tr := c.Request(math.MaxInt64-10, math.MaxInt64)
	if tr.Grant != math.MaxInt64-10 || tr.Done != math.MaxInt64 || tr.First != math.MaxInt64 || tr.Last != math.MaxInt64 {
		t.Errorf("huge request: %+v", tr)
	}
	if tr := c.Request(0, 1); tr.Grant != math.MaxInt64 || tr.Done != math.MaxInt64 {
		t.Errorf("request behind a saturated channel: %+v", tr)
	}
	if c.Cycles(math.MaxInt64) != math.MaxInt64 || c.Bytes() != math.MaxInt64 {
		t.Errorf("cycles %d, bytes %d", c.Cycles(math.MaxInt64), c.Bytes())
	}
	d := mustChannel(t, 1, 0, 64)
	tr = d.RequestProduced(0, math.MaxInt64, 0, math.MaxInt64)
	if tr.Done != math.MaxInt64 || tr.Grant != 0 {
		t.Errorf("huge stream: %+v", tr)
	}
	if s, e := d.Consume(tr, 0, math.MaxInt64); e != math.MaxInt64 || s > e {
		t.Errorf("huge consume: [%d, %d]", s, e)
	}
}

// BenchmarkChannel measures a request and a consumption on a busy channel:
// the per-transfer cost of a model's DRAM.
func BenchmarkChannel(b *testing.B) {
	c := mustChannel(b, 64, 100, 64)
	sizes := benchDelays()
	mask := len(sizes) - 1
	var now, sink int64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		now += sizes[i&mask] >> 3
		tr := c.Request(now, 64*sizes[i&mask]+1)
		_, e := c.Consume(tr, now, sizes[(i+1)&mask])
		st := c.RequestProduced(now, 32*sizes[(i+2)&mask]+1, now, e)
		sink += st.Done
	}
	_ = sink
}
