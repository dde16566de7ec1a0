package soc

import (
	"fmt"

	"gnnsim/sim"
)

// Step is one piece of a frame's run under a mapping, as Pipeline streams
// it: a compute phase on a unit, or one unit's side of a transfer through
// the shared memory. A frame's steps run one after another; their PS sum
// to EvaluateAt's LatencyPS.
type Step struct {
	Unit int   // index into SoC.Units: the unit the step holds
	PS   int64 // the step's time when nothing else uses the memory
	// Bytes is the step's shared-memory traffic: a compute phase's DRAM
	// bytes, requested when it starts, or a transfer's feature map,
	// requested DelayPS (the hand-off) after it starts.
	Bytes    int64
	Transfer bool
	DelayPS  int64
}

// Steps returns the steps of one frame of the model under m at set, in
// order: what Pipeline streams, for a caller that runs frames of several
// models against one memory (package sched). A step's PS is at least the
// time the memory channel (MemoryChannel at set) needs for its Bytes, and
// a transfer's at least its DelayPS plus the channel's latency and that
// time, so a frame alone never waits for the channel.
func (e *Evaluator) Steps(m Mapping, set Setting) ([]Step, error) {
	st, err := e.steps(m, set)
	if err != nil {
		return nil, err
	}
	out := make([]Step, len(st))
	for i, s := range st {
		out[i] = Step{Unit: s.unit, PS: s.ps, Bytes: s.bytes, Transfer: s.xfer, DelayPS: s.delayPS}
	}
	return out, nil
}

// MemoryChannel returns the shared memory at set as an idle sim.Channel
// with time in ps: its bandwidth in bytes per ps, latency and burst, the
// channel Pipeline contends on.
func (s *SoC) MemoryChannel(set Setting) (sim.Channel, error) {
	env := s.env(set)
	ch, err := sim.NewChannel(env.BytesPerSec*1e-12, env.LatencyPS, s.mem.BurstBytes)
	if err != nil {
		return sim.Channel{}, fmt.Errorf("soc: memory channel: %w", err)
	}
	return ch, nil
}
