package fgnas

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gnnsim/accel/fpga"
	"gnnsim/hw"
	"gnnsim/workload"
)

// standIn is a cheap deterministic accuracy: wider and multi-head networks
// do better, constant attention and sigmoid worse, and few bits hurt. It
// exercises the search, not any claim about GNNs.
func standIn(a Arch, b Bits) (val, test float64, err error) {
	v := 0.55
	for i, l := range a {
		v += 0.02 * math.Log2(float64(l.Embed)) / float64(len(a))
		v += 0.01 * math.Log2(float64(l.Heads))
		if l.Attn == workload.AttConstant {
			v -= 0.03
		}
		if l.Act == workload.ActSigmoid {
			v -= 0.04
		}
		if b != nil {
			bits := b[i].A.Frac + b[i].W.Frac
			v -= 0.15 * math.Exp(-float64(bits)/2)
			if b[i].A.Int == 1 {
				v -= 0.02
			}
		}
	}
	return v, v - 0.01, nil
}

func coraProblem(t testing.TB, lim Limits) *Problem {
	sp, err := NewSpace(2, Cora.Classes)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Space: sp, Data: Cora, Limits: lim, Oracle: standIn}
}

func TestDecode(t *testing.T) {
	p := coraProblem(t, Limits{})
	sp := p.Space.Joint()
	if sp.Len() != 27 {
		t.Fatalf("joint space has %d decisions, want 13 + 14", sp.Len())
	}
	r := newTestRand(1)
	for range 200 {
		g := sp.Sample(r)
		c, s, err := p.Hardware(g)
		if err != nil {
			t.Fatal(err)
		}
		if c.Arch[1].Embed != Cora.Classes || len(c.Bits) != 2 || s.LatencyMS <= 0 {
			t.Fatalf("decoded %+v, %+v", c, s)
		}
	}
	archSp, _ := p.Space.Part(Architecture)
	hwSp, _ := p.Space.Part(Hardware)
	if archSp.Len()+hwSp.Len() != sp.Len() || archSp.Len() != 9 {
		t.Fatalf("parts %d + %d", archSp.Len(), hwSp.Len())
	}
}

// A Pricer prices as a new unit does (decode, fpga.New, Design.Block,
// Assess) under either model, without allocating; Problem.Hardware's
// candidates are the caller's; bad genomes are errors, and a Pricer works
// on after one.
func TestPricer(t *testing.T) {
	for _, m := range []fpga.Model{fpga.Gnnsim, fpga.FGNASCode} {
		p := coraProblem(t, Limits{LatencyMS: 0.8, LUT: 10000, DSP: 10})
		p.Timing.Model = m
		sp := p.Space.Joint()
		pr := p.NewPricer()
		r := newTestRand(2)
		first := sp.Sample(r)
		keep, _, err := p.Hardware(first)
		if err != nil {
			t.Fatal(err)
		}
		var merged []int
		for range 300 {
			g := sp.Sample(r)
			want, err := p.Space.Decode(g, p.Data)
			if err != nil {
				t.Fatal(err)
			}
			opt := p.Timing
			opt.Budget = p.Limits.Budget()
			u, err := fpga.New(want.Design, opt)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := u.Assess(hw.BlockWork(want.Design.Block(p.Data.Size, p.Data.Features)))
			if err != nil {
				t.Fatal(err)
			}
			wantS := Sample{Genome: g, LatencyMS: float64(rep.Cost.TimePS) * 1e-9, Cycles: rep.Cost.Cycles, Use: rep.Resources, Feasible: rep.Feasible, Over: rep.Over}
			for name, price := range map[string]func([]int) (Candidate, Sample, error){"problem": p.Hardware, "pricer": pr.Hardware} {
				c, s, err := price(g)
				if err != nil || !reflect.DeepEqual(c, want) || !reflect.DeepEqual(s, wantS) {
					t.Fatalf("%s %s: %+v %+v (%v), want %+v %+v", m, name, c, s, err, want, wantS)
				}
			}
			// Merging the parts back gives the genome, into a reused buffer too.
			hwPart, archPart := part(p, g, Hardware), part(p, g, Architecture)
			merged = p.Space.AppendMerge(merged[:0], Hardware, hwPart, g)
			if !slices.Equal(merged, g) || !slices.Equal(p.Space.Merge(Architecture, archPart, g), g) {
				t.Fatalf("merge of %v gives %v", g, merged)
			}
		}
		if again, _ := p.Space.Decode(first, p.Data); !reflect.DeepEqual(keep, again) {
			t.Fatalf("%s: Problem.Hardware's candidate changed under later calls: %+v, want %+v", m, keep, again)
		}
		if n := testing.AllocsPerRun(100, func() {
			if _, _, err := pr.Hardware(first); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: Pricer.Hardware: %v allocations per design", m, n)
		}
		for name, g := range map[string][]int{"short": first[:5], "long": append(slices.Clone(first), 0), "out of range": withGene(first, 0, 99), "negative": withGene(first, 3, -1)} {
			for _, price := range []func([]int) (Candidate, Sample, error){p.Hardware, pr.Hardware} {
				if _, _, err := price(g); err == nil || !strings.HasPrefix(err.Error(), "fgnas: ") {
					t.Errorf("%s: %s genome: error %v", m, name, err)
				}
			}
		}
		if _, s, err := pr.Hardware(first); err != nil || s.Cycles <= 0 {
			t.Errorf("%s: pricer after errors: %+v, %v", m, s, err)
		}
	}
}

// part returns the genes of g that belong to part q.
func part(p *Problem, g []int, q Part) []int {
	var out []int
	for i, d := range p.Space.defs {
		if d.part == q {
			out = append(out, g[i])
		}
	}
	return out
}

func withGene(g []int, i, v int) []int {
	out := slices.Clone(g)
	out[i] = v
	return out
}

func TestSearchesRun(t *testing.T) {
	p := coraProblem(t, Limits{LatencyMS: 0.8, LUT: 10000, DSP: 10})
	ctx := context.Background()
	j, err := p.Joint(ctx, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Random(ctx, j.Trained, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Separate(ctx, 40, 160, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Trained != j.Trained {
		t.Errorf("random trained %d, joint %d", r.Trained, j.Trained)
	}
	for _, res := range []*RunResult{j, r, s} {
		t.Logf("%s: %d samples, %d trained, best val %.4f test %.4f", res.Method, len(res.Samples), res.Trained, res.BestVal(), res.BestTest())
		if res.Best >= 0 && !res.Samples[res.Best].Feasible {
			t.Errorf("%s: best sample is infeasible", res.Method)
		}
	}
}

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

// BenchmarkHardware: decode a genome, build its FPGA unit, price it on Cora
// and judge it: the per-episode hardware cost of every search, under each
// cost model (Table 3 runs both).
func BenchmarkHardware(b *testing.B) {
	for _, m := range []fpga.Model{fpga.Gnnsim, fpga.FGNASCode} {
		b.Run(m.String(), func(b *testing.B) {
			p := coraProblem(b, Limits{LatencyMS: 0.8, LUT: 10000, DSP: 10})
			p.Timing.Model = m
			r := newTestRand(1)
			gs := make([][]int, 64)
			for i := range gs {
				gs[i] = p.Space.Joint().Sample(r)
			}
			b.Run("problem", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, _, err := p.Hardware(gs[i%len(gs)]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
			// What the searches and the feasibility table run.
			b.Run("pricer", func(b *testing.B) {
				pr := p.NewPricer()
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, _, err := pr.Hardware(gs[i%len(gs)]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		})
	}
}

// The adapter keeps the layers, writes the last layer's width as the
// classes and maps FGNAS's activations onto train's.
func TestTrainArch(t *testing.T) {
	a := Arch{{Embed: 16, Heads: 4, Attn: workload.AttGAT, Aggr: workload.AggMax, Act: workload.ActELU}, {Embed: 7, Heads: 2, Attn: workload.AttGCN, Aggr: workload.AggMean, Act: workload.ActSigmoid}}
	ta := TrainArch(a)
	if err := ta.Validate(7); err != nil {
		t.Fatal(err)
	}
	if got, want := ta.String(), "gat:16x4:max:elu/gcn:0x2:mean:sigmoid"; got != want {
		t.Errorf("train arch %q, want %q", got, want)
	}
	tb := TrainBits(Bits{{W: fpga.Fixed{Int: 1, Frac: 4}, A: fpga.Fixed{Int: 3, Frac: 2}}})
	if len(tb) != 1 || tb[0].W.Int != 1 || tb[0].W.Frac != 4 || tb[0].A.Int != 3 || tb[0].A.Frac != 2 {
		t.Errorf("bits %+v", tb)
	}
	if TrainBits(nil) != nil {
		t.Error("nil bits are float")
	}
}

// Separate search is its two phases; the architecture phase ignores the
// limits, so one serves every specification.
func TestSeparatePhases(t *testing.T) {
	ctx := context.Background()
	tight := coraProblem(t, Limits{LatencyMS: 0.8, LUT: 10000, DSP: 10})
	loose := coraProblem(t, Limits{LatencyMS: 1, LUT: 100000, DSP: 100})
	whole, err := loose.Separate(ctx, 30, 60, 4)
	if err != nil {
		t.Fatal(err)
	}
	a, err := tight.SeparateArch(ctx, 30, 4)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := loose.SeparateHardware(ctx, a, 60, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, parts) {
		t.Errorf("Separate: %d samples, %d trained, best %d; phases: %d samples, %d trained, best %d",
			len(whole.Samples), whole.Trained, whole.Best, len(parts.Samples), parts.Trained, parts.Best)
	}
}

// Train-until mode (the authors' --gpu-eps): joint search runs past its
// episodes until it has trained the designs asked for, within its cap, and
// says when the cap stopped it first.
func TestTrainUntil(t *testing.T) {
	p := coraProblem(t, Limits{}) // every design feasible
	fixed, err := p.Joint(context.Background(), 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := fixed.Trained + 5
	p.TrainUntil, p.MaxEpisodes = want, 20000
	until, err := p.Joint(context.Background(), 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	if until.Trained < want || until.Capped {
		t.Errorf("train until %d: trained %d (capped %v); the fixed run trained %d", want, until.Trained, until.Capped, fixed.Trained)
	}
	// An empty specification: the cap ends the run, and says so.
	q := coraProblem(t, Limits{LatencyMS: 1e-6})
	q.TrainUntil, q.MaxEpisodes = 1, 40
	empty, err := q.Joint(context.Background(), 10, 7)
	if err != nil {
		t.Fatal(err)
	}
	if empty.Trained != 0 || !empty.Capped || empty.Episodes > 40 {
		t.Errorf("empty specification: trained %d, capped %v, %d designs", empty.Trained, empty.Capped, empty.Episodes)
	}
}

// With the architecture screen, separate search's hardware phase searches
// an architecture that has feasible hardware and trains a design, where
// FGNAS's protocol (the best architecture) may find none.
func TestSeparateScreen(t *testing.T) {
	for _, model := range []fpga.Model{fpga.Gnnsim, fpga.FGNASCode} {
		// Specifications with feasible designs (ours: ~3 % of uniform
		// designs; theirs: a latency bound 7x looser): the screen starts from the
		// first phase's architectures and falls back to uniform ones.
		lim := Limits{LatencyMS: 1, LUT: 100000, DSP: 100}
		if model == fpga.FGNASCode {
			lim = Limits{LatencyMS: 7, LUT: 100000, DSP: 1000}
		}
		p := coraProblem(t, lim)
		p.Timing = fpga.Options{Model: model}
		a, err := p.SeparateArch(context.Background(), 30, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Ranked) == 0 || !reflect.DeepEqual(a.Ranked[0], a.Best) {
			t.Fatalf("%s: ranking %d architectures, best %v", model, len(a.Ranked), a.Best)
		}
		p.ScreenDraws = 2000
		r, err := p.SeparateHardware(context.Background(), a, 100, 4)
		if err != nil {
			t.Fatal(err)
		}
		if r.Best < 0 {
			t.Errorf("%s %s: separate search with the screen found no feasible design (architecture rank %d, capped %v)", model, lim, r.ArchRank, r.Capped)
		}
		t.Logf("%s %s: architecture rank %d, %d trained, best val %.3f", model, lim, r.ArchRank, r.Trained, r.BestVal())
	}
}

// A screen cache shared by specifications changes no result: separate
// search's hardware phase under each of Table 3's limits ranks and
// searches the same architecture, with the same samples, as without it,
// whichever specification priced a draw first; and a problem of another
// model cannot use the cache.
func TestScreenCache(t *testing.T) {
	ctx := context.Background()
	base := coraProblem(t, Limits{})
	a, err := base.SeparateArch(ctx, 30, 3)
	if err != nil {
		t.Fatal(err)
	}
	limits := []Limits{{LatencyMS: 1, LUT: 100000, DSP: 100}, {LatencyMS: 0.8, LUT: 10000, DSP: 10}, {LatencyMS: 0.9, LUT: 100000, DSP: 10}}
	cache := NewScreenCache()
	for _, lim := range limits {
		plain := coraProblem(t, lim)
		plain.ScreenDraws = 500
		want, err := plain.SeparateHardware(ctx, a, 40, 4)
		if err != nil {
			t.Fatal(err)
		}
		cached := coraProblem(t, lim)
		cached.ScreenDraws, cached.Screens = 500, cache
		got, err := cached.SeparateHardware(ctx, a, 40, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with the cache rank %d, %d samples, best %d; without rank %d, %d samples, best %d",
				lim, got.ArchRank, len(got.Samples), got.Best, want.ArchRank, len(want.Samples), want.Best)
		}
	}
	other := coraProblem(t, limits[0])
	other.ScreenDraws, other.Screens = 500, cache
	other.Timing = fpga.Options{Model: fpga.FGNASCode}
	if _, err := other.SeparateHardware(ctx, a, 40, 4); err == nil {
		t.Error("a cache of gnnsim's model served the authors' model")
	}
}

// TestLimitsBudgetKeepsTinyBounds: a positive latency limit stays a limit
// however small (issue 38 item 8: 1e-12 ms truncated to 0 ps, no limit).
func TestLimitsBudgetKeepsTinyBounds(t *testing.T) {
	for _, tc := range []struct {
		ms   float64
		want int64
	}{{0, 0}, {1e-15, 1}, {1e-12, 1}, {0.8, 800_000_000}} {
		if got := (Limits{LatencyMS: tc.ms}).Budget().LatencyPS; got != tc.want {
			t.Errorf("%g ms: budget %d ps, want %d", tc.ms, got, tc.want)
		}
	}
}
