package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gnnsim/repro/seed002"
	"gnnsim/soc"
	"gnnsim/workload"
)

// scheduleStaticRecord is schedule --static's Parquet row: its name is
// the schema's root name in the files --out wrote before the row moved to
// package soc.
type scheduleStaticRecord soc.StaticRecord

// runScheduleStatic is `gnnsim schedule --static --job-models A,B,...`:
// static concurrent schedules of the networks on two units of the SoC
// (the first two of --machines, default gpu and dla), each network split
// once between them at a block boundary, compared by their co-run
// (package soc: StaticScheduler, CoRun).
func runScheduleStatic(cmd *cobra.Command, o *scheduleFlags) error {
	if len(o.jobModels) < 2 {
		return fmt.Errorf("--static: --job-models names %d networks, want two or more", len(o.jobModels))
	}
	s, set, err := socAt(o.spec, "", o.dvfs, "")
	if err != nil {
		return err
	}
	units := []string{"gpu", "dla"}
	if cmd.Flags().Changed("machines") {
		units = strings.Split(o.machines, ",")
		if len(units) != 2 {
			return fmt.Errorf("--static: --machines names %d units, want the two a network is split between (e.g. gpu,dla)", len(units))
		}
	}
	var models []workload.Model
	for _, name := range o.jobModels {
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
	recs, err := ss.StaticRecords()
	if err != nil {
		return err
	}
	if o.out != "" {
		rows := make([]scheduleStaticRecord, len(recs))
		for i, r := range recs {
			rows[i] = scheduleStaticRecord(r)
		}
		// --out names a folder, made as the other paths make it.
		undo, err := seed002.MakeOutDir(o.out)
		if err != nil {
			return err
		}
		if err := writeOut(cmd, filepath.Join(o.out, "schedule_static.parquet"), rows, nil); err != nil {
			undo()
			return err
		}
	}
	if o.asJSON {
		return writeJSON(cmd.OutOrStdout(), recs)
	}
	return soc.WriteStaticTable(cmd.OutOrStdout(), recs)
}
