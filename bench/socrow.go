package bench

// The row of a soc sweep: one (model, graph op, DVFS setting or power
// mode, mapping) point, with the fields of 'gnnsim soc eval --json' as
// typed columns. The clocks of the built-in SoCs' domains (gpu, dla, emc,
// cpu) have a float column each; the lists hold every unit of the SoC in
// its order, whatever the spec file names them, so the schema depends on
// nothing but this type.

// SocRow is one row of a soc sweep's runs table (see the package doc for
// the columns).
type SocRow struct {
	PointID     int64  `parquet:"point_id"`
	Model       string `parquet:"model"`
	GraphOp     string `parquet:"graph_op"`
	SoC         string `parquet:"soc"`
	Granularity string `parquet:"granularity"`
	Segments    int64  `parquet:"segments"`
	MappingName string `parquet:"mapping_name"`
	Mapping     string `parquet:"mapping"`
	GPUSegments int64  `parquet:"gpu_segments"`
	DLASegments int64  `parquet:"dla_segments"`
	Transitions int64  `parquet:"transitions"`
	PowerMode   string `parquet:"power_mode"`
	DVFS        string `parquet:"dvfs"`

	GPUHz float64 `parquet:"gpu_hz"`
	DLAHz float64 `parquet:"dla_hz"`
	EMCHz float64 `parquet:"emc_hz"`
	CPUHz float64 `parquet:"cpu_hz"`

	LatencyMS  float64 `parquet:"latency_ms"`
	EnergyMJ   float64 `parquet:"energy_mj"`
	PowerW     float64 `parquet:"power_w"`
	TransferMS float64 `parquet:"transfer_ms"`
	DRAMBytes  int64   `parquet:"dram_bytes"`
	PlatformMJ float64 `parquet:"platform_mj"`
	GPUBusyMS  float64 `parquet:"gpu_busy_ms"`
	DLABusyMS  float64 `parquet:"dla_busy_ms"`

	// Per unit of the SoC, in its order (soc units).
	Units        []string  `parquet:"units,list"`
	UnitSegments []int64   `parquet:"unit_segments,list"`
	UnitHz       []float64 `parquet:"unit_hz,list"`
	BusyMS       []float64 `parquet:"busy_ms,list"`
}
