package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"gnnsim/soc"
	"gnnsim/workload"
)

// scheduleStaticRecord is one network under one static schedule (a JSON
// object, a Parquet row).
type scheduleStaticRecord struct {
	Schedule  string  `json:"schedule" parquet:"schedule"`
	Model     string  `json:"model" parquet:"model"`
	Mapping   string  `json:"mapping" parquet:"mapping"`
	AloneMS   float64 `json:"alone_ms" parquet:"alone_ms"`
	LatencyMS float64 `json:"latency_ms" parquet:"latency_ms"`
	WorstMS   float64 `json:"worst_ms" parquet:"worst_ms"`
	CoRuns    int     `json:"co_runs" parquet:"co_runs"`
}

// runScheduleStatic is `gnnsim schedule --static --job-models A,B,...`:
// static concurrent schedules of the networks on two units of the SoC
// (the first two of --machines, default gpu and dla), each network split
// once between them at a block boundary, compared by their co-run
// (package soc: StaticScheduler, CoRun).
func runScheduleStatic(cmd *cobra.Command, o scheduleSoC, machines string, machinesSet bool, out string, asJSON bool) error {
	if len(o.models) < 2 {
		return fmt.Errorf("--static: --job-models names %d networks, want two or more", len(o.models))
	}
	if cmd.Flags().Changed("out") {
		if err := checkOutDir("out", out); err != nil {
			return err
		}
	}
	s, set, err := socAt(o.spec, "", o.dvfs, "")
	if err != nil {
		return err
	}
	units := []string{"gpu", "dla"}
	if machinesSet {
		units = strings.Split(machines, ",")
		if len(units) != 2 {
			return fmt.Errorf("--static: --machines names %d units, want the two a network is split between (e.g. gpu,dla)", len(units))
		}
	}
	var models []workload.Model
	for _, name := range o.models {
		m, err := zooOrFileModel(name, 0, o.graph, defaultDataDir(), o.features)
		if err != nil {
			return fmt.Errorf("--job-models %s: %w", name, err)
		}
		models = append(models, m)
	}
	ss, err := soc.NewStaticScheduler(s, set, models, strings.TrimSpace(units[0]), strings.TrimSpace(units[1]))
	if err != nil {
		return err
	}
	plans, err := ss.Plans()
	if err != nil {
		return err
	}
	var recs []scheduleStaticRecord
	names := ss.Names()
	for _, p := range plans {
		for i, sp := range p.Splits {
			recs = append(recs, scheduleStaticRecord{Schedule: p.Name, Model: names[i], Mapping: ss.FormatSplit(i, sp),
				AloneMS: float64(p.AlonePS[i]) * 1e-9, LatencyMS: p.LatencyPS[i] * 1e-9, WorstMS: p.WorstPS * 1e-9, CoRuns: p.Evaluated})
		}
	}
	if out != "" {
		if err := writeOut(cmd, filepath.Join(out, "schedule_static.parquet"), recs, nil); err != nil {
			return err
		}
	}
	w := cmd.OutOrStdout()
	if asJSON {
		return writeJSON(w, recs)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "schedule\tmodel\tmapping\talone_ms\tlatency_ms\tworst_ms\tco-runs\n")
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%d\n", r.Schedule, r.Model, r.Mapping, r.AloneMS, r.LatencyMS, r.WorstMS, r.CoRuns)
	}
	return tw.Flush()
}
