package bench

// The row of a gcos sweep (and of 'gnnsim gcos eval'): the design's
// parameters in typed columns, sub-accelerator i's in fixed s<i>_ slots
// (accel/gcos.MaxSubs of them), so that the schema depends on nothing but
// this type.

import accel "gnnsim/accel/gcos"

// GCoSRow is one row of a gcos sweep's runs table: one design, model and
// data set (the package doc lists the columns).
type GCoSRow struct {
	PointID        int64   `parquet:"point_id" json:"point_id"`
	Config         string  `parquet:"config" json:"config"` // the design file, or "default"
	Model          string  `parquet:"model" json:"model"`   // the models: entry (--model)
	ModelName      string  `parquet:"model_name" json:"model_name"`
	Data           string  `parquet:"data" json:"data"` // the data: entry (--data)
	DataName       string  `parquet:"data_name" json:"data_name"`
	Nodes          int64   `parquet:"nodes" json:"nodes"`
	Features       int64   `parquet:"features" json:"features"`
	FeatureDensity float64 `parquet:"feature_density" json:"feature_density"` // 0: dense
	Layers         int64   `parquet:"layers" json:"layers"`
	Alloc          string  `parquet:"allocation" json:"allocation"`
	Scheme         string  `parquet:"scheme" json:"scheme"`
	Repurpose      bool    `parquet:"repurpose" json:"repurpose"`
	ShareWeights   bool    `parquet:"share_weights" json:"share_weights"`
	ClockMHz       float64 `parquet:"clock_mhz" json:"clock_mhz"`
	HBMGBps        float64 `parquet:"hbm_gb_per_s" json:"hbm_gb_per_s"`
	Subs           int64   `parquet:"subs" json:"subs"`
	PEs            int64   `parquet:"pes" json:"pes"` // all sub-accelerators

	S0PEs    int64  `parquet:"s0_pes" json:"s0_pes"`
	S0Tiling string `parquet:"s0_tiling" json:"s0_tiling"`
	S0Kernel string `parquet:"s0_kernel" json:"s0_kernel"`
	S0TileM  int64  `parquet:"s0_tile_m" json:"s0_tile_m"`
	S0TileK  int64  `parquet:"s0_tile_k" json:"s0_tile_k"`
	S0TileN  int64  `parquet:"s0_tile_n" json:"s0_tile_n"`
	S1PEs    int64  `parquet:"s1_pes" json:"s1_pes"`
	S1Tiling string `parquet:"s1_tiling" json:"s1_tiling"`
	S1Kernel string `parquet:"s1_kernel" json:"s1_kernel"`
	S1TileM  int64  `parquet:"s1_tile_m" json:"s1_tile_m"`
	S1TileK  int64  `parquet:"s1_tile_k" json:"s1_tile_k"`
	S1TileN  int64  `parquet:"s1_tile_n" json:"s1_tile_n"`
	S2PEs    int64  `parquet:"s2_pes" json:"s2_pes"`
	S2Tiling string `parquet:"s2_tiling" json:"s2_tiling"`
	S2Kernel string `parquet:"s2_kernel" json:"s2_kernel"`
	S2TileM  int64  `parquet:"s2_tile_m" json:"s2_tile_m"`
	S2TileK  int64  `parquet:"s2_tile_k" json:"s2_tile_k"`
	S2TileN  int64  `parquet:"s2_tile_n" json:"s2_tile_n"`
	S3PEs    int64  `parquet:"s3_pes" json:"s3_pes"`
	S3Tiling string `parquet:"s3_tiling" json:"s3_tiling"`
	S3Kernel string `parquet:"s3_kernel" json:"s3_kernel"`
	S3TileM  int64  `parquet:"s3_tile_m" json:"s3_tile_m"`
	S3TileK  int64  `parquet:"s3_tile_k" json:"s3_tile_k"`
	S3TileN  int64  `parquet:"s3_tile_n" json:"s3_tile_n"`
	S4PEs    int64  `parquet:"s4_pes" json:"s4_pes"`
	S4Tiling string `parquet:"s4_tiling" json:"s4_tiling"`
	S4Kernel string `parquet:"s4_kernel" json:"s4_kernel"`
	S4TileM  int64  `parquet:"s4_tile_m" json:"s4_tile_m"`
	S4TileK  int64  `parquet:"s4_tile_k" json:"s4_tile_k"`
	S4TileN  int64  `parquet:"s4_tile_n" json:"s4_tile_n"`

	Cycles    int64   `parquet:"cycles" json:"cycles"`
	LatencyPS int64   `parquet:"latency_ps" json:"latency_ps"`
	LatencyUS float64 `parquet:"latency_us" json:"latency_us"`
	// BlockLatencyPS is each block's (a model file's layer) latency.
	BlockLatencyPS []int64 `parquet:"block_latency_ps,list" json:"block_latency_ps"`
	DRAMBytes      int64   `parquet:"dram_bytes" json:"dram_bytes"`
	MACs           int64   `parquet:"macs" json:"macs"`
	DSP            int64   `parquet:"dsp" json:"dsp"`
	OnChipBytes    int64   `parquet:"on_chip_bytes" json:"on_chip_bytes"`
	Feasible       bool    `parquet:"feasible" json:"feasible"` // within the VCU128's DSPs and on-chip memory
	Over           string  `parquet:"over" json:"over"`         // the resource over budget when not feasible
}

// setSubs fills the s<i>_ columns (slots of absent sub-accelerators stay
// empty and 0).
func (r *GCoSRow) setSubs(subs []accel.Sub) {
	slots := [accel.MaxSubs]struct {
		pes, m, k, n *int64
		tiling, kern *string
	}{
		{&r.S0PEs, &r.S0TileM, &r.S0TileK, &r.S0TileN, &r.S0Tiling, &r.S0Kernel},
		{&r.S1PEs, &r.S1TileM, &r.S1TileK, &r.S1TileN, &r.S1Tiling, &r.S1Kernel},
		{&r.S2PEs, &r.S2TileM, &r.S2TileK, &r.S2TileN, &r.S2Tiling, &r.S2Kernel},
		{&r.S3PEs, &r.S3TileM, &r.S3TileK, &r.S3TileN, &r.S3Tiling, &r.S3Kernel},
		{&r.S4PEs, &r.S4TileM, &r.S4TileK, &r.S4TileN, &r.S4Tiling, &r.S4Kernel},
	}
	for i := range min(len(subs), accel.MaxSubs) {
		s, x := &subs[i], &slots[i]
		*x.pes, *x.m, *x.k, *x.n = int64(s.PEs), int64(s.TileM), int64(s.TileK), int64(s.TileN)
		*x.tiling, *x.kern = s.Tiling.String(), s.Kernel.String()
	}
}
