package bench

import (
	"fmt"
	"io"
	"strings"

	"gnnsim/soc"
	"gnnsim/workload"
)

// SocCoRun is 'gnnsim soc corun': networks looping at once on a SoC.
type SocCoRun struct {
	// Runs are MODEL:MAPPING arguments, one per network.
	Runs                             []string
	Spec, DVFS, PowerMode, Precision string
	// GraphOp is a zoo ViG's graph op; Data, DataDir and Features the
	// graph and input width of a model file's GNN stack.
	GraphOp, Data, DataDir         string
	Features, MinFrames, MaxFrames int
}

// socCorunRecord is soc corun's Parquet row: its name is the schema's root
// name in the files --out wrote before the row moved to package soc.
type socCorunRecord soc.CoRunRecord

// Check refuses a co-run without runs or with fewer frames allowed than
// needed.
func (c *SocCoRun) Check() error {
	if len(c.Runs) == 0 {
		return fmt.Errorf("--run: give at least one MODEL:MAPPING")
	}
	if c.MaxFrames < c.MinFrames {
		return fmt.Errorf("--max-frames %d is below --min-frames %d", c.MaxFrames, c.MinFrames)
	}
	return nil
}

// Run co-runs the networks until every run's mean latency is steady; the
// Result's text is the per-run report, its JSON and rows the records.
func (c *SocCoRun) Run() (*Result, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	op, err := workload.ParseViGOp(c.GraphOp)
	if err != nil {
		return nil, fmt.Errorf("--graph-op: %w", err)
	}
	s, set, err := SoCAt(c.Spec, c.Precision, c.DVFS, c.PowerMode)
	if err != nil {
		return nil, err
	}
	var runs []soc.CoRunner
	var names, mappings []string
	for _, arg := range c.Runs {
		i := strings.LastIndex(arg, ":")
		if i <= 0 || i == len(arg)-1 {
			return nil, fmt.Errorf("--run %q: want MODEL:MAPPING (e.g. googlenet:gpu, resnet50:gpu>dla@60)", arg)
		}
		name, mapping := arg[:i], arg[i+1:]
		model, err := ZooOrFileModel(name, op, c.Data, c.DataDir, c.Features)
		if err != nil {
			return nil, fmt.Errorf("--run %q: %w", arg, err)
		}
		r, err := s.NewCoRunner(model, mapping)
		if err != nil {
			return nil, fmt.Errorf("--run %q: %w", arg, err)
		}
		runs = append(runs, r)
		names, mappings = append(names, model.Name), append(mappings, mapping)
	}
	res, err := s.CoRun(runs, set, soc.CoRunOptions{MinFrames: c.MinFrames, MaxFrames: c.MaxFrames})
	if err != nil {
		return nil, err
	}
	recs := soc.CoRunRecords(s, set, res, names, mappings)
	rows := make([]socCorunRecord, len(recs))
	for i, r := range recs {
		rows[i] = socCorunRecord(r)
	}
	return RowsResult(rows, recs, func(w io.Writer) error { return soc.WriteCoRun(w, s, set, res, recs) }), nil
}

// SoCAt returns the SoC of a spec file (in precision) and the setting of
// the --dvfs text, within power mode powerMode's caps when one is named.
func SoCAt(spec, precision, dvfs, powerMode string) (*soc.SoC, soc.Setting, error) {
	s, err := LoadSoC("", spec, "", precision)
	if err != nil {
		return nil, soc.Setting{}, err
	}
	d, err := soc.ParseDVFS(dvfs)
	if err != nil {
		return nil, soc.Setting{}, fmt.Errorf("--dvfs: %w", err)
	}
	set, _, err := SoCSetting(s, dvfs, d, powerMode)
	if err != nil {
		return nil, soc.Setting{}, err
	}
	return s, set, nil
}

// ZooOrFileModel resolves a model argument: a zoo name (a ViG with graph
// op op), or a model file (a GNN stack on the graph of data).
func ZooOrFileModel(name string, op workload.LayerKind, data, dataDir string, features int) (workload.Model, error) {
	spec, err := workload.ResolveModelSpec(name)
	if err != nil {
		return workload.Model{}, err
	}
	if spec.NeedsGraph() {
		return StackOnData(spec, name, data, dataDir, features)
	}
	zoo := spec.Zoo
	if zoo == "" {
		zoo = name
	}
	return workload.LookupModel(zoo, op)
}
