package hadas

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/nas/magnas"
	"gnnsim/soc"
	"gnnsim/workload"
)

// dataDir returns the shipped curves' folder (GNNSIM_DATA/hadas, else the
// shared data beside the worktree) or skips.
func dataDir(tb testing.TB) string {
	tb.Helper()
	d := os.Getenv("GNNSIM_DATA")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared", "data")
	}
	d = filepath.Join(d, "hadas")
	if _, err := os.Stat(d); err != nil {
		tb.Skipf("HADAS curves %s absent (set GNNSIM_DATA): %v", d, err)
	}
	return d
}

func xavierGPU(tb testing.TB) Target {
	tb.Helper()
	p, err := magnas.SoCPlatform("xavier-gpu", soc.Default(), magnas.XavierGPUDomains(), magnas.XavierCPU)
	if err != nil {
		tb.Fatal(err)
	}
	return Target{P: p, Unit: 0}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

func TestScoreHandComputed(t *testing.T) {
	for _, c := range []struct {
		name        string
		n, e, l     []float64
		gamma, want float64
		wantCov     float64
	}{
		{"one exit", []float64{0.4}, []float64{0.5}, []float64{0.6}, 1, 0.4 * 0.5 * 0.6, 0.4},
		{"one exit gamma 3", []float64{0.4}, []float64{0.5}, []float64{0.6}, 3, 0.4 * 0.5 * 0.6, 0.4},
		// score_1 = 0.3*0.4*0.5 = 0.06; dissim_2 = 1-0.3 = 0.7; score_2 = 0.5*0.8*0.9*0.7 = 0.252
		{"two exits gamma 1", []float64{0.3, 0.5}, []float64{0.4, 0.8}, []float64{0.5, 0.9}, 1, (0.06 + 0.252) / 2, (0.3 + 0.5*0.7) / 2},
		// gamma 0 removes the term: score_2 = 0.36
		{"two exits gamma 0", []float64{0.3, 0.5}, []float64{0.4, 0.8}, []float64{0.5, 0.9}, 0, (0.06 + 0.36) / 2, 0.4},
		// gamma 2: score_2 = 0.36*0.49 = 0.1764
		{"two exits gamma 2", []float64{0.3, 0.5}, []float64{0.4, 0.8}, []float64{0.5, 0.9}, 2, (0.06 + 0.1764) / 2, (0.3 + 0.5*0.49) / 2},
		// dissim uses the max of the predecessors: 1 - 0.6 for exit 3
		{"three exits", []float64{0.6, 0.1, 0.2}, []float64{1, 1, 1}, []float64{1, 1, 1}, 1, (0.6 + 0.1*0.4 + 0.2*0.4) / 3, (0.6 + 0.04 + 0.08) / 3},
		{"no exits", nil, nil, nil, 1, 0, 0},
	} {
		if got := Score(c.n, c.e, c.l, c.gamma); !near(got, c.want) {
			t.Errorf("%s: D = %v, want %v", c.name, got, c.want)
		}
		if got := Coverage(c.n, c.gamma); !near(got, c.wantCov) {
			t.Errorf("%s: coverage = %v, want %v", c.name, got, c.wantCov)
		}
	}
}

func TestFirstCorrectAndExpected(t *testing.T) {
	for _, c := range []struct {
		acc, want []float64
		covered   float64
	}{
		{[]float64{0.3, 0.8}, []float64{0.3, 0.5}, 0.8},
		{[]float64{0.5, 0.4, 0.6}, []float64{0.5, 0, 0.1}, 0.6},
		{[]float64{0.25}, []float64{0.25}, 0.25},
	} {
		n, cov := FirstCorrect(c.acc, nil)
		if len(n) != len(c.want) || !near(cov, c.covered) {
			t.Fatalf("FirstCorrect(%v) = %v, %v", c.acc, n, cov)
		}
		for i := range n {
			if !near(n[i], c.want[i]) {
				t.Errorf("FirstCorrect(%v)[%d] = %v, want %v", c.acc, i, n[i], c.want[i])
			}
		}
	}
	// Free heads: 0.3 leave at 10, 0.5 at 20, 0.2 run the whole 30.
	if got := Expected([]float64{0.3, 0.5}, []float64{10, 20}, []float64{0, 0}, 30); !near(got, 19) {
		t.Errorf("Expected = %v, want 19", got)
	}
}

// TestExpectedChargesEveryEarlierHead is a hand-computed three-exit case:
// exits whose paths (backbone to the exit plus its own head) cost 10, 20,
// 30 and whose heads alone cost 1, 2, 3, backbone 40. A sample leaving at
// exit 2 also ran head 1 (20 + 1), at exit 3 heads 1 and 2 (30 + 1 + 2);
// one reaching the end tried all three (40 + 6):
//
//	0.2*10 + 0.3*21 + 0.1*33 + 0.4*46 = 2 + 6.3 + 3.3 + 18.4 = 30.
func TestExpectedChargesEveryEarlierHead(t *testing.T) {
	n, exit, head := []float64{0.2, 0.3, 0.1}, []float64{10, 20, 30}, []float64{1, 2, 3}
	if got := Expected(n, exit, head, 40); !near(got, 30) {
		t.Errorf("Expected = %v, want 30", got)
	}
	want := []float64{10, 21, 33}
	got := PathCosts(exit, head, nil)
	for k := range want {
		if !near(got[k], want[k]) {
			t.Errorf("PathCosts[%d] = %v, want %v", k, got[k], want[k])
		}
	}
	// Eq. 6 sees the same charge: score_3 = 0.1 * 33/40 * 1 * (1 - 0.3).
	er := []float64{10.0 / 40, 21.0 / 40, 33.0 / 40}
	wantD := (0.2*er[0] + 0.3*er[1]*0.8 + 0.1*er[2]*0.7) / 3
	if d := Score(n, er, []float64{1, 1, 1}, 1); !near(d, wantD) {
		t.Errorf("D = %v, want %v", d, wantD)
	}
}

func TestAttentiveMACsMatchPublished(t *testing.T) {
	s := AttentiveNAS()
	for i, a := range Baselines() {
		b, err := s.Backbone(a, 1000)
		if err != nil {
			t.Fatal(err)
		}
		m, err := b.Model.MACs()
		if err != nil {
			t.Fatal(err)
		}
		got := float64(m) / 1e6
		if d := math.Abs(got/PublishedMFLOPs[i] - 1); d > 0.03 {
			t.Errorf("a%d: %.1f MMACs, published %.0f (%.1f %% off, want <= 3 %%)", i, got, PublishedMFLOPs[i], 100*d)
		}
		g, err := s.Encode(a)
		if err != nil {
			t.Fatalf("a%d outside the space: %v", i, err)
		}
		if back, _ := s.Decode(g); back != a {
			t.Errorf("a%d: decode(encode) = %v", i, back)
		}
	}
	if sz := s.Size(); sz < 2.94e11 {
		t.Errorf("space size %.3g, Table II says more than 2.94e11", sz)
	}
}

func randomArch(r *rand.Rand, s AttentiveSpace) Arch {
	sp, _ := s.searchSpace()
	a, _ := s.Decode(sp.Sample(r))
	return a
}

// Every exit path is cheaper than the whole backbone at the same setting,
// and with every tried head charged the expected cost lies between the
// cheapest exit path and the backbone plus every chosen head (the cost of
// a sample no exit classifies). Unlike with heads left out, early exits
// can raise the expected cost above the static backbone's when they
// classify little: that is what the charge is for.
func TestEarlyExitCostBounds(t *testing.T) {
	tg := xavierGPU(t)
	s := AttentiveNAS()
	r := rand.New(rand.NewPCG(1, 2))
	archs := Baselines()
	for range 8 {
		archs = append(archs, randomArch(r, s))
	}
	for _, a := range archs {
		b, err := s.Backbone(a, 100)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCosts(tg, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range []int{tg.P.MaxN(), tg.P.MinN(), tg.P.NumSettings() / 2} {
			sc, err := c.At(set)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range sc.ExitPJ {
				if e >= sc.FullPJ || sc.ExitPS[i] >= sc.FullPS {
					t.Errorf("%s at %s: exit %d costs %v pJ / %v ps, backbone %v / %v", a, tg.P.SettingName(set), b.Positions()[i], e, sc.ExitPS[i], sc.FullPJ, sc.FullPS)
				}
			}
			for range 20 {
				var acc, ex, hd []float64
				heads := 0.0
				for i := range sc.ExitPJ {
					if r.IntN(3) == 0 {
						acc = append(acc, r.Float64())
						ex = append(ex, sc.ExitPJ[i])
						hd = append(hd, sc.HeadPJ[i])
						heads += sc.HeadPJ[i]
						if !(sc.HeadPJ[i] > 0 && sc.HeadPJ[i] < sc.ExitPJ[i]) {
							t.Fatalf("%s: head %d costs %v pJ, path %v", a, i, sc.HeadPJ[i], sc.ExitPJ[i])
						}
					}
				}
				if len(ex) == 0 {
					continue
				}
				n, _ := FirstCorrect(acc, nil)
				got := Expected(n, ex, hd, sc.FullPJ)
				if got > (sc.FullPJ+heads)*(1+1e-12) || got < ex[0]*(1-1e-12) {
					t.Fatalf("%s: expected energy %v outside [%v, %v]", a, got, ex[0], sc.FullPJ+heads)
				}
			}
		}
	}
}

func curvesFor(t *testing.T, dataset string) (map[string]*Curve, []*Backbone) {
	dir := dataDir(t)
	s := AttentiveNAS()
	m := map[string]*Curve{}
	var bs []*Backbone
	for i, a := range Baselines()[:6] {
		c, err := LoadCurve(dir, dataset, "a"+string(rune('0'+i)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Backbone(a, 100)
		if err != nil {
			t.Fatal(err)
		}
		if want := b.Blocks() - FirstExit + 1; len(c.Top1) != want {
			t.Fatalf("a%d: %d exits in the curve, %d positions %d-%d", i, len(c.Top1), want, FirstExit, b.Blocks())
		}
		m[b.Arch] = c
		bs = append(bs, b)
	}
	return m, bs
}

func TestShippedCurvesFitTheBackbones(t *testing.T) {
	for _, ds := range Datasets {
		curvesFor(t, ds)
	}
}

func engineFor(t *testing.T, a Arch, acc Accuracy, cfg InnerConfig) *Engine {
	t.Helper()
	s := Searcher{Space: AttentiveNAS(), Target: xavierGPU(t), Acc: acc, Classes: 100}
	e, err := s.Prepare(a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestDVFSNeverWorseThanMaxN(t *testing.T) {
	curves, _ := curvesFor(t, "cifar-100")
	acc := &Measured{Name: "cifar-100", Curves: curves}
	cfg := InnerConfig{PopSize: 30, Generations: 20, Gamma: 1, DVFS: true}
	for _, a := range []Arch{Baselines()[0], Baselines()[5]} {
		e := engineFor(t, a, acc, cfg)
		res, err := e.Run(context.Background(), 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Front {
			g, err := e.Genome(p.Exits, e.Ref)
			if err != nil {
				t.Fatal(err)
			}
			q, _ := e.PointOf(g)
			if p.EnergyRatio > q.EnergyRatio*(1+1e-12) || p.Coverage != q.Coverage {
				t.Errorf("%s exits %v at %s: energy %.4f, MaxN %.4f", a, p.Exits, e.C.T.P.SettingName(p.Setting), p.EnergyRatio, q.EnergyRatio)
			}
			if p.EnergyRatio > 1 {
				t.Errorf("front point above the static energy: %v", p.EnergyRatio)
			}
		}
	}
}

// exitGaps runs the IOE on e over seeds and returns the mean exit gap over
// the front points with at least two exits, and the mean gap of the
// two-exit points alone (0 if none), checking that every exit is at an
// allowed position.
func exitGaps(t *testing.T, e *Engine, seeds int) (all, two float64) {
	t.Helper()
	allowed := e.B.Positions()
	var sum, sum2 float64
	var n, n2 int
	for seed := range seeds {
		res, err := e.Run(context.Background(), uint64(seed+1))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Front {
			for _, x := range p.Exits {
				if !slices.Contains(allowed, x) {
					t.Fatalf("exit at position %d, allowed %v", x, allowed)
				}
			}
			switch {
			case len(p.Exits) == 2:
				sum2 += p.MeanGap()
				n2++
				fallthrough
			case len(p.Exits) > 2:
				sum += p.MeanGap()
				n++
			}
		}
	}
	if n > 0 {
		all = sum / float64(n)
	}
	if n2 > 0 {
		two = sum2 / float64(n2)
	}
	return all, two
}

// TestDissimilaritySpreadsExits measures HADAS's finding that the
// dissimilarity term (gamma > 0) spreads the exits apart. It is a finding
// about searches over measured curves and platform costs, not a property
// of the score (TestScoreHandComputed checks that), so the gaps are logged,
// not asserted. Measured on soc's calibrated Xavier (CIFAR-100 curves,
// nested correctness, every tried head charged, 40 x 25 at MaxN, 5 seeds),
// mean gap over front points with >= 2 exits, gamma 0 / 0.5 / 1: a0 4.78 /
// 5.07 / 4.52, a5 5.71 / 5.53 / 4.69; two-exit points a0 5.50 / 5.57 /
// 4.86, a5 7.00 / 6.11 / 4.82. Why it is not a spreading: Eq. 7 scores an
// exit by 1 - max(N_1..N_{k-1}), the accuracy its predecessors already
// take, not by its distance from them; gamma >= 1 narrows the two-exit
// gaps. The search's own invariants (exits at allowed positions) stay
// asserted in exitGaps.
func TestDissimilaritySpreadsExits(t *testing.T) {
	if testing.Short() {
		t.Skip("5 seeds x 3 gammas x 2 backbones")
	}
	curves, _ := curvesFor(t, "cifar-100")
	acc := &Measured{Name: "cifar-100", Curves: curves}
	for _, i := range []int{0, 5} {
		a := Baselines()[i]
		cfg := InnerConfig{PopSize: 40, Generations: 25, DVFS: false}
		g0, two0 := exitGaps(t, engineFor(t, a, acc, cfg), 5)
		for _, gamma := range []float64{0.5, 1} {
			cfg.Gamma = gamma
			g, two := exitGaps(t, engineFor(t, a, acc, cfg), 5)
			t.Logf("a%d: mean exit gap gamma 0: %.2f, gamma %g: %.2f (two-exit points: %.2f, %.2f)", i, g0, gamma, g, two0, two)
			if !(g > g0) {
				t.Logf("a%d: finding not reproduced at gamma %g: mean exit gap %.2f not larger than at gamma 0 (%.2f)", i, gamma, g, g0)
			}
		}
	}
}

// proxyFor returns the shipped curves of dataset, their backbones and the
// proxy fitted on them.
func proxyFor(t *testing.T, dataset string) (map[string]*Curve, []*Backbone, *Proxy) {
	t.Helper()
	curves, bs := curvesFor(t, dataset)
	var cs []*Curve
	for _, b := range bs {
		cs = append(cs, curves[b.Arch])
	}
	px, err := NewProxy(dataset, bs, cs)
	if err != nil {
		t.Fatal(err)
	}
	return curves, bs, px
}

func TestProxyAndViG(t *testing.T) {
	curves, bs, px := proxyFor(t, "cifar-100")
	// On its own calibration backbones the proxy stays near the measure.
	for _, b := range bs {
		c, err := px.Curve(b)
		if err != nil {
			t.Fatal(err)
		}
		m := curves[b.Arch]
		if d := math.Abs(c.Final() - m.Final()); d > 0.03 {
			t.Errorf("%s: proxy final %.3f, measured %.3f", b.Arch, c.Final(), m.Final())
		}
		for i := 1; i < len(c.Top1); i++ {
			if c.Top1[i] < c.Top1[i-1] {
				t.Errorf("proxy curve decreases: %v", c.Top1)
			}
		}
	}
	v, err := ViGBackbone(magnasArch(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if v.Blocks() != 12 {
		t.Errorf("ViG backbone: %d blocks, want 12", v.Blocks())
	}
	c, err := NewCosts(xavierGPU(t), v)
	if err != nil {
		t.Fatal(err)
	}
	vc, err := px.Curve(v)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(c, vc, InnerConfig{PopSize: 20, Generations: 5, Gamma: 1, DVFS: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if best := res.Best(); !(best.EnergyRatio < 1) {
		t.Errorf("ViG: best expected energy ratio %v, want < 1", best.EnergyRatio)
	}
}

func TestReadCurveCSVErrors(t *testing.T) {
	for _, in := range []string{
		"", "Exit,Loss\nExit_1,3\n", "Exit,TOP1_Acc\n", "Exit,TOP1_Acc\nExit_2,50\n",
		"Exit,TOP1_Acc\nExit_1,NaN\n", "Exit,TOP1_Acc\nExit_1,101\n", "Exit,TOP1_Acc\nExit_1\n",
	} {
		if _, err := ReadCurveCSV(strings.NewReader(in), "bad"); err == nil {
			t.Errorf("ReadCurveCSV(%q) accepted", in)
		}
	}
	c, err := ReadCurveCSV(strings.NewReader("Exit,TOP1_Acc,TOP5_Acc\nExit_1,25,50\nExit_2,40.5,70\n"), "ok")
	if err != nil || len(c.Top1) != 2 || c.Final() != 0.405 {
		t.Fatalf("ReadCurveCSV: %v, %v", c, err)
	}
}

func FuzzReadCurveCSV(f *testing.F) {
	f.Add("Exit,TOP1_Acc\nExit_1,25\nExit_2,30\n")
	f.Add("Exit,TOP1_Acc,TOP5_Acc,Loss\nExit_1,25.4,53.8,3.2\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ReadCurveCSV(strings.NewReader(s), "fuzz")
		if err != nil {
			return
		}
		for _, a := range c.Top1 {
			if !(a >= 0 && a <= 1) {
				t.Fatalf("accuracy %v out of [0, 1]", a)
			}
		}
	})
}

func TestNestedSearchSmall(t *testing.T) {
	curves, _, px := proxyFor(t, "cifar-100")
	s := &Searcher{Space: AttentiveNAS(), Target: xavierGPU(t), Acc: &Measured{Name: "cifar-100", Curves: curves, Fallback: px}, Classes: 100}
	cfg := Config{OuterPop: 6, OuterGen: 2, Inner: InnerConfig{PopSize: 10, Generations: 3, Gamma: 1, DVFS: true}, Seed: 3, Workers: 2}
	run := func() *Result {
		res, err := s.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	if len(a.Candidates) == 0 || len(a.Candidates) != len(b.Candidates) {
		t.Fatalf("candidates %d vs %d", len(a.Candidates), len(b.Candidates))
	}
	front := 0
	for i := range a.Candidates {
		ca, cb := a.Candidates[i], b.Candidates[i]
		if ca.Arch != cb.Arch || ca.Inner.Best().EnergyPJ != cb.Inner.Best().EnergyPJ {
			t.Fatalf("candidate %d differs between runs", i)
		}
		if ca.OnFront {
			front++
		}
		if ca.Inner.Best().EnergyPJ > ca.EnergyPJ {
			t.Errorf("%s: dynamic energy %v above static %v", ca.Arch, ca.Inner.Best().EnergyPJ, ca.EnergyPJ)
		}
	}
	if front == 0 {
		t.Error("no candidate on the outer front")
	}
	if a.InnerEvaluations == 0 {
		t.Error("no inner evaluations counted")
	}
}

func magnasArch() []workload.Superblock {
	sb := workload.Superblock{Depth: 3, Op: workload.GIN, PreFC: true, FFN: true, FFNHidden: 320}
	return []workload.Superblock{sb, sb, sb, sb}
}

// TestProxyAllZeroCurves: curves whose every exit is 0 % (valid input: an
// untrained network) fit a proxy whose curves are finite (they were 0/0 =
// NaN, reported as "objective 0 is NaN" by the search; issue 28).
func TestProxyAllZeroCurves(t *testing.T) {
	curves, bs := curvesFor(t, "cifar-100")
	var cs []*Curve
	for _, b := range bs {
		c := *curves[b.Arch]
		c.Top1 = make([]float64, len(c.Top1))
		cs = append(cs, &c)
	}
	px, err := NewProxy("zero", bs, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		c, err := px.Curve(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range c.Top1 {
			if math.IsNaN(a) || math.IsInf(a, 0) || a != 0 {
				t.Fatalf("%s: proxy curve %v, want all 0", b.Arch, c.Top1)
			}
		}
	}
}
