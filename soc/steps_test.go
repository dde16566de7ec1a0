package soc

import (
	"math/rand/v2"
	"testing"

	"gnnsim/workload"
)

// TestStepsSumToEvaluate: a frame's steps, at any granularity, mapping and
// memory clock, add up to EvaluateAt's latency, and each step leaves the
// memory channel free by its end when it runs alone.
func TestStepsSumToEvaluate(t *testing.T) {
	s := Default()
	r := rand.New(rand.NewPCG(3, 4))
	for _, g := range []Granularity{Blocks, Layers} {
		e := mustEvaluator(t, s, vigS(t, workload.GIN), g)
		n := len(e.Segments())
		for trial := range 6 {
			mp := MapAll(g, trial%2, n)
			if trial >= 2 {
				for i := range mp.Units {
					mp.Units[i] = r.IntN(2)
				}
			}
			emc := s.Memory().PointsMHz[r.IntN(len(s.Memory().PointsMHz))]
			set, err := s.Setting(DVFS{"emc": emc})
			if err != nil {
				t.Fatal(err)
			}
			steps, err := e.Steps(mp, set)
			if err != nil {
				t.Fatal(err)
			}
			ch, err := s.MemoryChannel(set)
			if err != nil {
				t.Fatal(err)
			}
			var want Result
			if err := e.EvaluateAt(&want, mp, set); err != nil {
				t.Fatal(err)
			}
			var sum, now int64
			for k, st := range steps {
				sum += st.PS
				if st.Bytes == 0 {
					now += st.PS
					continue
				}
				tr := ch.Request(now+st.DelayPS, st.Bytes)
				if tr.Grant != now+st.DelayPS || (st.Transfer && tr.Last > now+st.PS) || (!st.Transfer && tr.Done > now+st.PS) {
					t.Fatalf("%s trial %d step %d (%+v): channel %+v outlasts the step from %d", g, trial, k, st, tr, now)
				}
				now += st.PS
			}
			if sum != want.LatencyPS {
				t.Errorf("%s trial %d at emc %v: steps sum to %d ps, EvaluateAt %d ps", g, trial, emc, sum, want.LatencyPS)
			}
		}
	}
}
