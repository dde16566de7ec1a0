package sched

import (
	"fmt"
	"strings"

	"gnnsim/soc"
	"gnnsim/workload"
)

// SoCModel is a model to run as jobs on a SoC's units, with its mapping
// rule: whole (Offload empty: every block on the machine the job is
// dispatched to) or split (the graph blocks, ViG's Graphers and a GNN's
// layers, on the unit named Offload, every other block on the machine:
// "graph ops on the DLA, the rest on the GPU" is a split on dla
// dispatched to the GPU). A split dispatched to its Offload unit is whole.
type SoCModel struct {
	Model   workload.Model
	Offload string
}

// Name returns the class name of m: the model's, with "/split:UNIT" for a
// split.
func (m SoCModel) Name() string {
	if m.Offload == "" {
		return m.Model.Name
	}
	return m.Model.Name + "/split:" + m.Offload
}

// SoCClasses prices every model on every machine (units of s named in
// machines) at set once, at block granularity, and returns the job
// classes, in models' order, with the unit index of every machine. An
// unknown unit name is an error listing the SoC's units.
func SoCClasses(s *soc.SoC, set soc.Setting, machines []string, models []SoCModel) ([]JobClass, []int, error) {
	if len(machines) == 0 {
		return nil, nil, fmt.Errorf("sched: no machines (the SoC's units: %s)", strings.Join(s.Units(), ", "))
	}
	units := make([]int, len(machines))
	for i, name := range machines {
		u, err := unitIndex(s, name)
		if err != nil {
			return nil, nil, err
		}
		for _, v := range units[:i] {
			if v == u {
				return nil, nil, fmt.Errorf("sched: unit %s listed twice", s.Units()[u])
			}
		}
		units[i] = u
	}
	classes := make([]JobClass, len(models))
	for c, sm := range models {
		e, err := soc.NewEvaluator(s, sm.Model, soc.Blocks)
		if err != nil {
			return nil, nil, fmt.Errorf("sched: model %s: %w", sm.Model.Name, err)
		}
		off := -1
		if sm.Offload != "" {
			if off, err = unitIndex(s, sm.Offload); err != nil {
				return nil, nil, fmt.Errorf("sched: model %s split: %w", sm.Model.Name, err)
			}
		}
		segs := e.Segments()
		cl := JobClass{Name: sm.Name(), Steps: make([][]soc.Step, len(machines))}
		if len(sm.Model.Blocks) > 0 {
			in := sm.Model.Blocks[0].In
			cl.Nodes, cl.Edges = in.Nodes, in.NNZ
		}
		for i, u := range units {
			mp := soc.MapAll(soc.Blocks, u, len(segs))
			if off >= 0 {
				for k, sg := range segs {
					if sg.Kind == workload.Grapher || sg.Kind == workload.GNNLayer {
						mp.Units[k] = off
					}
				}
			}
			steps, err := e.Steps(mp, set)
			if err != nil {
				return nil, nil, fmt.Errorf("sched: model %s on %s: %w", cl.Name, machines[i], err)
			}
			cl.Steps[i] = steps
		}
		classes[c] = cl
	}
	return classes, units, nil
}

// unitIndex resolves a unit name exactly (case ignored): a scheduler's
// machine list names units in full.
func unitIndex(s *soc.SoC, name string) (int, error) {
	for i, n := range s.Units() {
		if strings.EqualFold(n, strings.TrimSpace(name)) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("sched: unknown unit %q (the SoC %s has units %s)", name, s.Name(), strings.Join(s.Units(), ", "))
}
