package bench

import (
	"gnnsim/accel"
	"gnnsim/dataflow"
)

// RunRow is one row of the runs table: one graph, feature sizes, hardware
// point and configuration. Column names are documented in doc.go.
type RunRow struct {
	GraphID   int64  `parquet:"graph_id"`
	GraphName string `parquet:"graph_name"`
	Dataset   string `parquet:"dataset"`
	F         int64  `parquet:"f"`
	G         int64  `parquet:"g"`
	Hardware  string `parquet:"hardware"`
	PEs       int64  `parquet:"pes"`
	Mode      string `parquet:"mode"`

	Config string `parquet:"config"` // e.g. "sp-c"
	Inter  string `parquet:"inter"`  // seq | sp | pp
	Tiling string `parquet:"tiling"` // a..h or the custom spec
	TVa    int64  `parquet:"t_va"`
	TN     int64  `parquet:"t_n"`
	TFa    int64  `parquet:"t_fa"`
	TVc    int64  `parquet:"t_vc"`
	TGc    int64  `parquet:"t_gc"`
	TFc    int64  `parquet:"t_fc"`
	AggPEs int64  `parquet:"agg_pes"`
	CmbPEs int64  `parquet:"comb_pes"`

	Cycles        int64   `parquet:"cycles"`
	AggCycles     int64   `parquet:"agg_cycles"`
	CombCycles    int64   `parquet:"comb_cycles"`
	StallCycles   int64   `parquet:"stall_cycles"`
	StallPipeline int64   `parquet:"stall_pipeline_cycles"`
	StallMemory   int64   `parquet:"stall_memory_cycles"`
	StallPorts    int64   `parquet:"stall_port_cycles"`
	MACs          int64   `parquet:"macs"`
	Utilization   float64 `parquet:"utilization"`

	GBReads    int64 `parquet:"gb_reads"`
	GBWrites   int64 `parquet:"gb_writes"`
	GBBytes    int64 `parquet:"gb_bytes"`
	DRAMReads  int64 `parquet:"dram_reads"`
	DRAMWrites int64 `parquet:"dram_writes"`
	DRAMBytes  int64 `parquet:"dram_bytes"`
	NoCReads   int64 `parquet:"noc_reads"`
	NoCWrites  int64 `parquet:"noc_writes"`
	NoCBytes   int64 `parquet:"noc_bytes"`

	EnergyMAC   float64 `parquet:"energy_mac_pj"`
	EnergyRF    float64 `parquet:"energy_rf_pj"`
	EnergyNoC   float64 `parquet:"energy_noc_pj"`
	EnergyGB    float64 `parquet:"energy_gb_pj"`
	EnergyDRAM  float64 `parquet:"energy_dram_pj"`
	EnergyTotal float64 `parquet:"energy_total_pj"`
}

// LayerRunRow is a RunRow with the layer kind it ran (gcn, gin, sage,
// gat): the row of a sweep whose spec names layers.
type LayerRunRow struct {
	Layer string `parquet:"layer"`
	RunRow
}

func newRunRow(r *accel.Result, c *dataflow.Config) RunRow {
	t := c.Tiles
	return RunRow{
		Config: c.Name(), Inter: c.Inter.String(), Tiling: c.Tiling,
		TVa: int64(t.Va), TN: int64(t.N), TFa: int64(t.Fa), TVc: int64(t.Vc), TGc: int64(t.Gc), TFc: int64(t.Fc),
		AggPEs: int64(c.AggPEs), CmbPEs: int64(c.CombPEs),
		Mode:   r.Mode.String(),
		Cycles: r.Cycles, AggCycles: r.AggCycles, CombCycles: r.CombCycles,
		StallCycles: r.StallCycles, StallPipeline: r.Stalls.Pipeline, StallMemory: r.Stalls.Memory, StallPorts: r.Stalls.Ports,
		MACs: r.MACs, Utilization: r.Utilization,
		GBReads: r.GB.Reads, GBWrites: r.GB.Writes, GBBytes: r.GB.Bytes,
		DRAMReads: r.DRAM.Reads, DRAMWrites: r.DRAM.Writes, DRAMBytes: r.DRAM.Bytes,
		NoCReads: r.NoC.Reads, NoCWrites: r.NoC.Writes, NoCBytes: r.NoC.Bytes,
		EnergyMAC: r.Energy.MAC, EnergyRF: r.Energy.RF, EnergyNoC: r.Energy.NoC, EnergyGB: r.Energy.GB,
		EnergyDRAM: r.Energy.DRAM, EnergyTotal: r.Energy.Total(),
	}
}
