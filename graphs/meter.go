package graphs

// Meter hears how far the long steps on one large graph have got: the
// R-MAT draws, the CSR build, validation, triangle counting, encoding and
// reading. Stage starts a stage of total units (0 when the total is not
// known in advance, as for the Parquet encoder, which reports nothing until
// it is done); Add counts units of the current stage done. A Meter must be
// safe for concurrent use (stages run on every core). It only ever shows
// progress: nothing in a result depends on it. bench.Stages is the display
// the commands use.
type Meter interface {
	Stage(name, unit string, total int64)
	Add(n int64)
}

// noMeter is the Meter of callers that pass none.
type noMeter struct{}

func (noMeter) Stage(string, string, int64) {}
func (noMeter) Add(int64)                   {}

// meterOr returns m, or a Meter that drops everything when m is nil.
func meterOr(m Meter) Meter {
	if m == nil {
		return noMeter{}
	}
	return m
}

// meterBlock is the number of items (draws, edges, entries) between two
// Add calls of a streaming pass: a few per second, cheap against the work.
const meterBlock = 1 << 22

// blockMeter batches the counts of a serial loop into Add calls of about
// meterBlock units.
type blockMeter struct {
	m       Meter
	pending int
}

func (b *blockMeter) add(n int) {
	if b.pending += n; b.pending >= meterBlock {
		b.flush()
	}
}

func (b *blockMeter) flush() {
	if b.pending > 0 {
		b.m.Add(int64(b.pending))
		b.pending = 0
	}
}
