package gcos

import (
	"fmt"
	"math"

	"gnnsim/hw"
)

// Platform constants of seed 001 (G-CoS, Sec. V-A): a Xilinx VCU128 with
// 9,024 DSPs of which designs may use 4,096, 42 MB of on-chip memory and
// 460 GB/s of HBM, clocked at 330 MHz with 16-bit fixed point.
const (
	VCU128DSPs     = 9024     // Xilinx VCU128 DSP slices (seed 001, Sec. V-A)
	DSPLimit       = 4096     // the DSP cap G-CoS and its baselines share (seed 001, Sec. V-A)
	OnChipBytes    = 42 << 20 // "42MB on-chip memory" (seed 001, Sec. V-A)
	ClockHz        = 330e6    // accelerators clocked at 330 MHz (seed 001, Sec. V-A)
	HBMBytesPerSec = 460e9    // "460GB/s HBM" (seed 001, Sec. V-A)
	WordBytes      = 2        // 16-bit fixed point (seed 001, Sec. V-A)
	IndexBytes     = 4        // our assumption: 32-bit COO row and column indices
	BurstBytes     = 64       // our assumption: HBM transfers move whole 64-byte bursts
	HBMLatency     = 40       // our assumption: ~120 ns HBM access latency, in 330 MHz cycles
	MaxSubs        = 5        // sub-accelerators of the template (seed 001, Sec. IV-C and V-A)
	maxTile        = 1 << 12  // largest tile size accepted
	maxPEs         = 1 << 20  // largest PE array accepted
	maxChunks      = 8        // HBM requests per sub-accelerator and kernel
	defaultName    = "gcos"   //
	ewLanesPerPEs  = 4        // element-wise units: one lane per 4 PEs (our assumption)
	unlimitedBytes = math.MaxInt64
)

// VCU128 is the budget of every design: the DSP cap and the on-chip memory.
var VCU128 = budget(DSPLimit, OnChipBytes)

func budget(dsp, onChip int64) hw.Resources { return hw.Resources{DSP: dsp, OnChipBytes: onChip} }

// TilingMode is the order in which a sub-accelerator's temporal tiles move
// (seed 001, Fig. 5): which operand stays on chip while the others stream.
type TilingMode uint8

// The tiling modes of Table I.
const (
	WeightReuse  TilingMode = iota // B tiles (weights; features of an SpMM) stay, A streams past them
	FeatureReuse                   // A tiles (features; the adjacency of an SpMM) stay, B streams
	OutputReuse                    // C tiles stay until complete, A and B both stream
	numTilings
)

var tilingNames = [...]string{"weight", "feature", "output"}

func (m TilingMode) String() string {
	if m < numTilings {
		return tilingNames[m]
	}
	return fmt.Sprintf("TilingMode(%d)", uint8(m))
}

// KernelMode is a sub-accelerator's spatial/temporal mapping of a matrix
// product C = A x B onto its PEs (our four readings of seed 001, Fig. 4;
// doc.go lists each one's traffic, buffers and parallelism).
type KernelMode uint8

// The kernel modes of Table I.
const (
	InnerProduct KernelMode = iota // PE owns C[m][n]; static groups of rows x columns
	OuterProduct                   // nonzeros of A spread flat over PEs; partial sums merged on chip
	RowWise                        // Gustavson: rows queued to PE groups, B rows gathered per nonzero
	ColumnWise                     // PE owns a row; output columns one after another
	numKernels
)

var kernelNames = [...]string{"inner", "outer", "row", "column"}

func (m KernelMode) String() string {
	if m < numKernels {
		return kernelNames[m]
	}
	return fmt.Sprintf("KernelMode(%d)", uint8(m))
}

// Allocation is how a kernel's work is split among the sub-accelerators,
// always in proportion to their PEs (seed 001, Sec. IV-C).
type Allocation uint8

// The allocation schemes.
const (
	// ByRows splits the output rows; a sparse kernel's cut points follow
	// the rows' measured lengths, so each share holds work, not rows, in
	// proportion to PEs.
	ByRows Allocation = iota
	// ByColumns splits the output (weight) columns; every sub-accelerator
	// sees every row.
	ByColumns
)

func (a Allocation) String() string {
	switch a {
	case ByRows:
		return "rows"
	case ByColumns:
		return "columns"
	}
	return fmt.Sprintf("Allocation(%d)", uint8(a))
}

// Scheme is how the sub-accelerators share a layer.
type Scheme uint8

// The schemes: G-CoS's and the HyGCN-like baseline's.
const (
	// Parallel is G-CoS: every sub-accelerator takes its share of every
	// kernel; kernels run one after another.
	Parallel Scheme = iota
	// Hybrid is HyGCN's: Subs[0] is the aggregation engine (SpMM over the
	// adjacency, attention, max), Subs[1] the combination engine (GEMM, a
	// sparse input's X x W, element-wise work); an aggregation and the
	// combination after it run as an inter-engine pipeline in row blocks,
	// the aggregated rows passing on chip.
	Hybrid
)

// Sub is one sub-accelerator: a PE array of DSPs with its own feature,
// index, weight and output buffers (each sized by the tiles, double
// buffered), a tiling mode and a kernel mode.
type Sub struct {
	PEs    int // DSP slices, one 16-bit MAC per cycle each
	Tiling TilingMode
	Kernel KernelMode
	// TileM, TileK and TileN are the temporal tile sizes (seed 001, Fig. 5):
	// rows of A and C, the reduction depth, columns of B and C. TileN also
	// bounds the columns a PE group computes side by side.
	TileM, TileK, TileN int
	// Rebalance models AWB-GCN's runtime workload rebalancing: row work is
	// moved between PEs until they run at Utilization of perfect balance,
	// or at the static round-robin mapping's utilisation if that is
	// better (column-wise kernel).
	Rebalance bool
	// Utilization is the PE utilisation rebalancing reaches, in (0, 1]; 0
	// means 1 (perfect balance).
	Utilization float64
	// Disperse models HyGCN's aggregation engine on sparse kernels: the
	// vertex-disperse mode (a vertex's feature elements spread over all
	// lanes in SIMD16 groups, free cores take further vertices: no vertex
	// waits for another, no lane idles while work remains) and the interval-shard partition (destination intervals
	// that fill one half of the ping-pong output buffer, each reading the
	// source features once, partial sums on chip). HyGCN, Sec. 4.3.
	Disperse bool
	// CSC stores the sparse operand by columns, a value and one index an
	// entry plus a pointer a column, where the template's default is COO
	// (a value and two indices an entry, IndexBytes each). AWB-GCN's
	// format: "AWB-GCN (Geng et al., 2020) | CSC | Two TDQs for different
	// sparsity" (a survey of FPGA-based GCN accelerators, PeerJ Computer
	// Science 8:e1166, 2022, Table 4).
	CSC bool
}

// Buffer sizes in bytes: double-buffered tiles.
func (s Sub) featureBytes() int64 { return 2 * int64(s.TileM) * int64(s.TileK) * WordBytes }
func (s Sub) indexBytes() int64 {
	return 2 * int64(s.TileM) * int64(s.TileK) * s.indices() * IndexBytes
}
func (s Sub) weightBytes() int64 { return 2 * int64(s.TileK) * int64(s.TileN) * WordBytes }
func (s Sub) outputBytes() int64 { return 2 * int64(s.TileM) * int64(s.TileN) * WordBytes }

// indices is the number of indices a sparse entry carries (CSC: its row;
// COO: its row and column).
func (s Sub) indices() int64 {
	if s.CSC {
		return 1
	}
	return 2
}

// sparseBytes is the off-chip size of a sparse operand's nnz entries over
// cols columns in the sub-accelerator's format.
func (s Sub) sparseBytes(nnz float64, cols int64) float64 {
	b := nnz * float64(WordBytes+s.indices()*IndexBytes)
	if s.CSC {
		b += float64(cols+1) * IndexBytes // column pointers
	}
	return b
}

// BufferBytes is the on-chip memory of the sub-accelerator's four buffers.
func (s Sub) BufferBytes() int64 {
	return s.featureBytes() + s.indexBytes() + s.weightBytes() + s.outputBytes()
}

// Config is a design of the template.
type Config struct {
	Name   string
	Subs   []Sub
	Alloc  Allocation
	Scheme Scheme
	// Repurpose lets the feature, weight and output buffers of all
	// sub-accelerators hold intermediate results: a kernel's output that
	// fits in them never goes off chip, nor comes back.
	Repurpose bool
	// ShareWeights interconnects the weight buffers: a B operand every
	// sub-accelerator needs (row allocation) is fetched once and broadcast.
	ShareWeights bool

	// Platform; zero values take the VCU128 constants above.
	ClockHz        float64
	HBMBytesPerSec float64
	HBMLatency     int64 // cycles; negative means none
	Budget         hw.Resources
}

func (c *Config) defaults() {
	if c.ClockHz == 0 {
		c.ClockHz = ClockHz
	}
	if c.HBMBytesPerSec == 0 {
		c.HBMBytesPerSec = HBMBytesPerSec
	}
	if c.HBMLatency == 0 {
		c.HBMLatency = HBMLatency
	} else if c.HBMLatency < 0 {
		c.HBMLatency = 0
	}
	if c.Budget == (hw.Resources{}) {
		c.Budget = VCU128
	}
	if c.Name == "" {
		c.Name = defaultName
	}
}

// Validate reports the first problem with the design: no sub-accelerators
// or more than MaxSubs, a PE array or tile out of range, an unknown mode,
// different modes while buffers are re-purposed or shared, a Hybrid design
// without exactly two engines, a non-positive clock or bandwidth. Being
// over budget is not an error: such a design is infeasible (hw.Feasible).
func (c Config) Validate() error {
	if len(c.Subs) == 0 || len(c.Subs) > MaxSubs {
		return fmt.Errorf("gcos: %d sub-accelerators, want 1..%d", len(c.Subs), MaxSubs)
	}
	if c.Scheme == Hybrid && len(c.Subs) != 2 {
		return fmt.Errorf("gcos: a hybrid design has 2 engines, not %d", len(c.Subs))
	}
	if c.Scheme > Hybrid {
		return fmt.Errorf("gcos: unknown scheme %d", c.Scheme)
	}
	if c.Alloc > ByColumns {
		return fmt.Errorf("gcos: unknown allocation %d", c.Alloc)
	}
	for i, s := range c.Subs {
		switch {
		case s.PEs < 1 || s.PEs > maxPEs:
			return fmt.Errorf("gcos: sub-accelerator %d: %d PEs, want 1..%d", i, s.PEs, maxPEs)
		case s.Tiling >= numTilings:
			return fmt.Errorf("gcos: sub-accelerator %d: unknown tiling mode %d", i, s.Tiling)
		case s.Kernel >= numKernels:
			return fmt.Errorf("gcos: sub-accelerator %d: unknown kernel mode %d", i, s.Kernel)
		case !(s.Utilization >= 0 && s.Utilization <= 1):
			return fmt.Errorf("gcos: sub-accelerator %d: utilisation %v, want (0, 1] (0 for perfect balance)", i, s.Utilization)
		}
		for _, t := range [...]int{s.TileM, s.TileK, s.TileN} {
			if t < 1 || t > maxTile {
				return fmt.Errorf("gcos: sub-accelerator %d: tile size %d, want 1..%d", i, t, maxTile)
			}
		}
		if (c.Repurpose || c.ShareWeights) && (s.Tiling != c.Subs[0].Tiling || s.Kernel != c.Subs[0].Kernel) {
			return fmt.Errorf("gcos: sub-accelerator %d: re-purposed or shared buffers need one tiling and kernel mode for all", i)
		}
	}
	for _, x := range [...]struct {
		name string
		v    float64
	}{{"clock", c.ClockHz}, {"HBM bandwidth", c.HBMBytesPerSec}} {
		if !(x.v >= 0) || math.IsInf(x.v, 0) {
			return fmt.Errorf("gcos: %s %v", x.name, x.v)
		}
	}
	return nil
}
