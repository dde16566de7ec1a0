package seed002

import "gnnsim/sched"

// Scenario is one of seed 002's two scheduling experiments: a preset of
// how the baseline policies (Random, FCFS, LIFO, SJF-Nodes, SJF-Edges)
// pick a machine's tiling. SJF-Truth always runs the optimal tiling and
// SJF-Predicted the predicted best, in both.
type Scenario uint8

const (
	// Scenario1: baselines run a random tiling (seed 002, Figure 6).
	Scenario1 Scenario = 1
	// Scenario2: baselines run the optimal tiling (seed 002, Figure 7).
	Scenario2 Scenario = 2
)

// Baselines returns the mapping rule the scenario gives baselines
// (sched.Options.Baselines); 0, an invalid rule, for an unknown scenario.
func (s Scenario) Baselines() sched.MappingRule {
	switch s {
	case Scenario1:
		return sched.MappingRandom
	case Scenario2:
		return sched.MappingOptimal
	}
	return 0
}

// ScenarioOf returns the scenario whose baselines run with rule r (0 for a
// rule no scenario uses): how a run's sched.Metrics.Baselines reads back.
func ScenarioOf(r sched.MappingRule) Scenario {
	for _, s := range []Scenario{Scenario1, Scenario2} {
		if s.Baselines() == r {
			return s
		}
	}
	return 0
}
