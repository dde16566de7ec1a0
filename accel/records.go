package accel

import (
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/internal/par"
	"gnnsim/workload"
)

// Record is one simulated run as 'gnnsim omega eval' (simulate) reports
// it: a row of its table, its JSON and its Parquet output.
type Record struct {
	Graph    string `json:"graph" parquet:"graph"`
	Nodes    int    `json:"nodes" parquet:"nodes"`
	NNZ      int64  `json:"nnz" parquet:"nnz"`
	Layer    string `json:"layer" parquet:"layer"`
	F        int    `json:"F" parquet:"F"`
	G        int    `json:"G" parquet:"G"`
	Dataflow string `json:"dataflow" parquet:"dataflow"`
	Tiling   string `json:"tiling" parquet:"tiling"`
	Tiles    string `json:"tiles" parquet:"tiles"`
	PEs      int    `json:"pes" parquet:"pes"`
	AggPEs   int    `json:"agg_pes" parquet:"agg_pes"`
	CombPEs  int    `json:"comb_pes" parquet:"comb_pes"`
	Mode     string `json:"mode" parquet:"mode"`
	Effects  string `json:"effects" parquet:"effects"`

	Cycles       int64   `json:"cycles" parquet:"cycles"`
	Seconds      float64 `json:"seconds" parquet:"seconds"`
	AggCycles    int64   `json:"agg_cycles" parquet:"agg_cycles"`
	CombCycles   int64   `json:"comb_cycles" parquet:"comb_cycles"`
	StallCycles  int64   `json:"stall_cycles" parquet:"stall_cycles"`
	PipeStalls   int64   `json:"stall_pipeline_cycles" parquet:"stall_pipeline_cycles"`
	MemStalls    int64   `json:"stall_memory_cycles" parquet:"stall_memory_cycles"`
	PortStalls   int64   `json:"stall_port_cycles" parquet:"stall_port_cycles"`
	MACs         int64   `json:"macs" parquet:"macs"`
	Utilization  float64 `json:"utilization" parquet:"utilization"`
	GBReads      int64   `json:"gb_reads" parquet:"gb_reads"`
	GBWrites     int64   `json:"gb_writes" parquet:"gb_writes"`
	GBBytes      int64   `json:"gb_bytes" parquet:"gb_bytes"`
	DRAMReads    int64   `json:"dram_reads" parquet:"dram_reads"`
	DRAMWrites   int64   `json:"dram_writes" parquet:"dram_writes"`
	DRAMBytes    int64   `json:"dram_bytes" parquet:"dram_bytes"`
	SpillBytes   int64   `json:"dram_spill_bytes" parquet:"dram_spill_bytes"`
	RefetchBytes int64   `json:"dram_refetch_bytes" parquet:"dram_refetch_bytes"`
	NoCReads     int64   `json:"noc_reads" parquet:"noc_reads"`
	NoCWrites    int64   `json:"noc_writes" parquet:"noc_writes"`
	NoCBytes     int64   `json:"noc_bytes" parquet:"noc_bytes"`
	EnergyMAC    float64 `json:"energy_mac_pj" parquet:"energy_mac_pj"`
	EnergyRF     float64 `json:"energy_rf_pj" parquet:"energy_rf_pj"`
	EnergyNoC    float64 `json:"energy_noc_pj" parquet:"energy_noc_pj"`
	EnergyGB     float64 `json:"energy_gb_pj" parquet:"energy_gb_pj"`
	EnergyDRAM   float64 `json:"energy_dram_pj" parquet:"energy_dram_pj"`
	EnergyTotal  float64 `json:"energy_total_pj" parquet:"energy_total_pj"`
	Events       uint64  `json:"events" parquet:"events"`
}

// SimulateGraph runs layer on g under every (inter, tiling) configuration
// and returns the records in that order. The configurations run on every
// core, each goroutine with its own Prepared (a Prepared is not safe
// for concurrent use; they share the graph): on a graph of 10^8 edges a run
// takes about a second. Every record goes to its own slot and par.For
// reports the error of the first failing configuration, so the output is
// the serial loop's. done, when not nil, is called after each
// configuration (from any goroutine).
func SimulateGraph(g *graphs.Graph, layer workload.Layer, inters []dataflow.Inter, tilings []dataflow.Tiling,
	hw HW, opts Options, done func()) ([]Record, error) {
	p, err := Prepare(g, layer)
	if err != nil {
		return nil, err
	}
	recs := make([]Record, len(inters)*len(tilings))
	free := make(chan *Prepared, runtime.GOMAXPROCS(0))
	free <- p
	err = par.For(len(recs), 0, func(i int) error {
		var q *Prepared
		select {
		case q = <-free:
		default:
			var err error
			if q, err = Prepare(g, layer); err != nil {
				return err
			}
		}
		defer func() { free <- q }()
		c, err := tilings[i%len(tilings)].Config(inters[i/len(tilings)], q.Dims(), hw.PEs, hw.PPAggPEs)
		if err != nil {
			return err
		}
		r, err := q.Run(c, hw, opts)
		if err != nil {
			return err
		}
		recs[i] = NewRecord(g, q, layer, r, hw)
		if done != nil {
			done()
		}
		return nil
	})
	return recs, err
}

// NewRecord reports run r of layer on g (prepared as p) on hw.
func NewRecord(g *graphs.Graph, p *Prepared, layer workload.Layer, r Result, hw HW) Record {
	c := r.Config
	return Record{
		Graph: g.Name, Nodes: g.NumNodes(), NNZ: p.NNZ(), Layer: layer.Kind.String(), F: layer.F, G: layer.G,
		Dataflow: c.Inter.String(), Tiling: c.Tiling, Tiles: c.Tiles.String(),
		PEs: c.PEs, AggPEs: c.AggPEs, CombPEs: c.CombPEs, Mode: r.Mode.String(), Effects: r.Effect.String(),
		Cycles: r.Cycles, Seconds: r.Seconds(hw.ClockHz), AggCycles: r.AggCycles, CombCycles: r.CombCycles,
		StallCycles: r.StallCycles, PipeStalls: r.Stalls.Pipeline, MemStalls: r.Stalls.Memory, PortStalls: r.Stalls.Ports,
		MACs: r.MACs, Utilization: r.Utilization,
		GBReads: r.GB.Reads, GBWrites: r.GB.Writes, GBBytes: r.GB.Bytes,
		DRAMReads: r.DRAM.Reads, DRAMWrites: r.DRAM.Writes, DRAMBytes: r.DRAM.Bytes,
		SpillBytes: r.SpillBytes, RefetchBytes: r.RefetchBytes,
		NoCReads: r.NoC.Reads, NoCWrites: r.NoC.Writes, NoCBytes: r.NoC.Bytes,
		EnergyMAC: r.Energy.MAC, EnergyRF: r.Energy.RF, EnergyNoC: r.Energy.NoC, EnergyGB: r.Energy.GB,
		EnergyDRAM: r.Energy.DRAM, EnergyTotal: r.Energy.Total(), Events: r.Events,
	}
}

// WriteRecordTable prints records as a right-aligned table.
func WriteRecordTable(w io.Writer, recs []Record) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "graph\tV\tnnz\tconfig\tcycles\tagg\tcomb\tstalls\tutil%\tMACs\tGB acc\tDRAM B\tNoC acc\tenergy nJ\ttiles\t")
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s-%s\t%d\t%d\t%d\t%d\t%.1f\t%d\t%d\t%d\t%d\t%.1f\t%s\t\n",
			r.Graph, r.Nodes, r.NNZ, r.Dataflow, r.Tiling, r.Cycles, r.AggCycles, r.CombCycles, r.StallCycles,
			100*r.Utilization, r.MACs, r.GBReads+r.GBWrites, r.DRAMBytes, r.NoCReads+r.NoCWrites, r.EnergyTotal/1000, r.Tiles)
	}
	return tw.Flush()
}
