package soc

import (
	"testing"

	"gnnsim/workload"
)

// TestPipelineOneFrame: one frame through the event-driven pipeline costs
// exactly what Eq. 6-7 says, whatever the mapping and granularity.
func TestPipelineOneFrame(t *testing.T) {
	s := Default()
	for _, op := range []workload.LayerKind{workload.MRConv, workload.EdgeConv} {
		for _, g := range []Granularity{Blocks, Layers, KernelGroups} {
			e := mustEvaluator(t, s, vigS(t, op), g)
			n := len(e.Segments())
			for mi, m := range []Mapping{MapAll(g, 0, n), MapAll(g, 1, n), randomMapping(g, n, 2, 11), randomMapping(g, n, 2, 12)} {
				for _, d := range []DVFS{nil, {"gpu": 522.75, "dla": 1050, "emc": 665.6}} {
					set, err := s.Setting(d)
					if err != nil {
						t.Fatal(err)
					}
					var want Result
					if err := e.EvaluateAt(&want, m, set); err != nil {
						t.Fatal(err)
					}
					got, err := e.Pipeline(m, set, PipelineOptions{Frames: 1})
					if err != nil {
						t.Fatal(err)
					}
					if got.LatencyMaxPS != want.LatencyPS || got.MakespanPS != want.LatencyPS || got.MemoryStallPS != 0 {
						t.Errorf("%s %s mapping %d %v: pipeline %d ps (stall %d), Eq. 6-7 %d ps", op, g, mi, d, got.LatencyMaxPS, got.MemoryStallPS, want.LatencyPS)
					}
					for u := range want.BusyPS {
						if got.BusyPS[u] != want.BusyPS[u] {
							t.Errorf("%s %s mapping %d: unit %d busy %d ps in the pipeline, %d by Eq. 6-7", op, g, mi, u, got.BusyPS[u], want.BusyPS[u])
						}
					}
				}
			}
		}
	}
}

// TestPipelineBounds: with many frames, throughput never beats the busiest
// unit's time per frame; pipelining never makes frames slower than running
// them one after another; more shared-memory bandwidth never slows the run.
func TestPipelineBounds(t *testing.T) {
	s := Default()
	frames := 60
	if testing.Short() {
		frames = 20
	}
	for _, g := range []Granularity{Blocks, Layers} {
		e := mustEvaluator(t, s, vigS(t, workload.MRConv), g)
		n := len(e.Segments())
		maps := []Mapping{MapAll(g, 0, n), MapAll(g, 1, n)}
		for seed := range uint64(6) {
			maps = append(maps, randomMapping(g, n, 2, 100+seed))
		}
		for mi, m := range maps {
			for _, inflight := range []int{0, 1, 3} {
				prev := int64(-1)
				for _, emc := range s.Memory().PointsMHz {
					set, err := s.Setting(DVFS{"emc": emc})
					if err != nil {
						t.Fatal(err)
					}
					var one Result
					if err := e.EvaluateAt(&one, m, set); err != nil {
						t.Fatal(err)
					}
					r, err := e.Pipeline(m, set, PipelineOptions{Frames: frames, InFlight: inflight})
					if err != nil {
						t.Fatal(err)
					}
					var busiest int64
					for _, b := range one.BusyPS {
						busiest = max(busiest, b)
					}
					if bound := 1 / (float64(busiest) * 1e-12); r.ThroughputFPS() > bound*(1+1e-12) {
						t.Errorf("%s mapping %d: %.3f frames/s beats the busiest unit's bound %.3f", g, mi, r.ThroughputFPS(), bound)
					}
					if r.MakespanPS > int64(frames)*one.LatencyPS {
						t.Errorf("%s mapping %d: %d frames take %d ps, more than back to back (%d ps)", g, mi, frames, r.MakespanPS, int64(frames)*one.LatencyPS)
					}
					if inflight == 1 && r.MakespanPS != int64(frames)*one.LatencyPS {
						t.Errorf("%s mapping %d: one frame in flight: %d ps, want %d x %d", g, mi, r.MakespanPS, frames, one.LatencyPS)
					}
					if prev >= 0 && r.MakespanPS > prev {
						t.Errorf("%s mapping %d in-flight %d: EMC %v MHz takes %d ps, slower than the next lower clock (%d ps)", g, mi, inflight, emc, r.MakespanPS, prev)
					}
					prev = r.MakespanPS
				}
			}
		}
	}
}

func TestPipelineOverlaps(t *testing.T) {
	s := Default()
	e := mustEvaluator(t, s, vigS(t, workload.GIN), Blocks)
	n := len(e.Segments())
	m := MapAll(Blocks, 0, n)
	for i := n / 2; i < n; i++ {
		m.Units[i] = 1 // first half on the GPU, second on the DLA
	}
	set, _ := s.Setting(nil)
	var one Result
	if err := e.EvaluateAt(&one, m, set); err != nil {
		t.Fatal(err)
	}
	r, err := e.Pipeline(m, set, PipelineOptions{Frames: 50})
	if err != nil {
		t.Fatal(err)
	}
	seq := 1 / one.LatencyMS() * 1e3
	if r.ThroughputFPS() < 1.2*seq {
		t.Errorf("two-stage pipeline: %.2f frames/s, sequential %.2f: units do not overlap", r.ThroughputFPS(), seq)
	}
	t.Logf("GPU|DLA halves: %.2f fps pipelined vs %.2f sequential; p50 %.2f ms, p99 %.2f ms; util %.2f / %.2f; stall %.3f ms",
		r.ThroughputFPS(), seq, float64(r.LatencyP50PS)*1e-9, float64(r.LatencyP99PS)*1e-9, r.Utilization[0], r.Utilization[1], float64(r.MemoryStallPS)*1e-9)
}

// TestPipelineSparseArrivals: frames arriving further apart than a frame
// takes never meet, so each costs exactly what one frame alone costs and
// nothing waits for the memory, whatever the frames in flight (issue 38
// item 5: every frame took (in_flight-1) intervals more).
func TestPipelineSparseArrivals(t *testing.T) {
	s := Default()
	e := mustEvaluator(t, s, vigS(t, workload.MRConv), Blocks)
	n := len(e.Segments())
	half := MapAll(Blocks, 0, n)
	for i := n / 2; i < n; i++ {
		half.Units[i] = 1
	}
	set, _ := s.Setting(nil)
	for mi, m := range []Mapping{MapAll(Blocks, 0, n), MapAll(Blocks, 1, n), half, randomMapping(Blocks, n, 2, 5)} {
		var one Result
		if err := e.EvaluateAt(&one, m, set); err != nil {
			t.Fatal(err)
		}
		for _, inflight := range []int{0, 1, 2, 4} {
			for _, gap := range []int64{one.LatencyPS, 2 * one.LatencyPS, 1_000_000_000_000} {
				r, err := e.Pipeline(m, set, PipelineOptions{Frames: 5, InFlight: inflight, IntervalPS: gap})
				if err != nil {
					t.Fatal(err)
				}
				if r.LatencyMaxPS != one.LatencyPS || r.LatencyP50PS != one.LatencyPS || r.MemoryStallPS != 0 {
					t.Errorf("mapping %d, %d in flight, %d ps apart: latency p50 %d max %d ps (stall %d), alone %d ps",
						mi, inflight, gap, r.LatencyP50PS, r.LatencyMaxPS, r.MemoryStallPS, one.LatencyPS)
				}
				if want := 4*gap + one.LatencyPS; r.MakespanPS != want {
					t.Errorf("mapping %d, %d in flight, %d ps apart: makespan %d ps, want %d", mi, inflight, gap, r.MakespanPS, want)
				}
			}
		}
	}
}
