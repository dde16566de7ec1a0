// Package bench runs reproducible benchmark sweeps and writes their results
// as Parquet: graphs x layer kinds x feature sizes x configurations x
// hardware, from a YAML spec (see testdata/example.yaml and
// testdata/layers.yaml) or from a preset (seed 002's Graphlaxy
// Small/Medium/Large sets, and the real data sets). Seed reproductions
// that build on sweeps live in repro/.
//
// The table of hardware kinds (kinds.go) is also where the command line's
// per-kind commands come from: a kind's Command ('gnnsim KIND eval',
// 'gnnsim eval --unit KIND'), its Validate against a reference set and its
// Spec files (command.go and the kinds' *cmd.go files). The options are
// declared through Flags, which cmd/gnnsim implements with its
// range-checked flags; cobra stays in cmd/gnnsim.
//
// # Determinism, sharding, resumption
//
// A sweep's graphs are numbered in spec order (graph id) and cut into
// chunks of chunk_graphs consecutive graphs. Each chunk is simulated
// independently and written as two part files under
// DIR/parts/<spec hash>/ (graphs-NNNNNN.parquet, then runs-NNNNNN.parquet;
// temp file + rename, the graphs part last as the "chunk done" mark).
// Because a chunk's content depends only on the spec and the chunk index,
// the final tables, assembled in chunk order, are byte-identical whatever
// the number of workers, the sharding, or interruptions:
//
//   - shard i of n owns the chunks c with c mod n == i (--shard i/n, or
//     Slurm's SLURM_ARRAY_TASK_ID/_COUNT/_MIN, or Kubernetes'
//     JOB_COMPLETION_INDEX with GNNSIM_SHARD_COUNT);
//   - a rerun skips finished chunks, so a sweep killed by SIGINT or SIGKILL
//     loses only the chunks in flight, and a finished file is never
//     rewritten in place;
//   - when all chunks are present (an unsharded run, the last shard to
//     finish in a shared directory, or Merge over shard directories) the
//     final DIR/graphs.parquet and DIR/runs.parquet are written.
//
// Every file carries the normalized spec (gnnsim.spec), its hash
// (gnnsim.spec_hash), the seed (gnnsim.seed) and the gnnsim version
// (gnnsim.version) as key-value metadata. DIR/spec.yaml and DIR/sweep.json
// record the same for merge.
//
// # Tables
//
// graphs.parquet is a graph-set file of package graphs (one row per graph,
// id = graph id; columns id, name, source, num_nodes, num_edges, self_loops,
// label, has_label, attr_dim, nnz, density, nx_density, clustering,
// triangles, deg_q1..deg_q7, mean_degree, max_degree, and the lists row_ptr,
// col, node_attr; see the graphs package doc).
//
// runs.parquet of the built-in unit kind (omega, the accelerator of package
// accel) has one row per (graph, layer kind, F, G, hardware,
// configuration), in graph id order, then layer, sizes, hardware and
// configuration order (seq-a..h,
// sp-a..h, pp-a..h for the 24 named configurations):
//
//	graph_id, graph_name, dataset     graph id (joins graphs.id), name, data set label
//	f, g                               input and output feature sizes
//	hardware, pes, mode                hardware point name, PE count, omega | extended
//	config, inter, tiling              "sp-c", "sp", "c" (or the custom tiling text)
//	t_va, t_n, t_fa, t_vc, t_gc, t_fc  resolved tile sizes
//	agg_pes, comb_pes                  PEs of each phase (split only in pp)
//	cycles                             layer latency in cycles
//	agg_cycles, comb_cycles            per-phase cycles on their own PEs
//	stall_cycles                       all stall cycles, the sum of the next three
//	stall_pipeline_cycles, stall_memory_cycles, stall_port_cycles  (see accel.Stalls)
//	macs, utilization                  multiply-accumulates; MACs / (PEs x cycles)
//	gb_reads, gb_writes, gb_bytes      global-buffer traffic (words, words, bytes)
//	dram_reads, dram_writes, dram_bytes
//	noc_reads, noc_writes, noc_bytes
//	energy_{mac,rf,noc,gb,dram,total}_pj  energy by component in pJ
//
// A spec whose layers: key names kinds other than GCN (layers: [gcn, gin,
// sage, gat]) gets a first column layer (LayerRunRow); without layers:, or
// with [gcn], the table is as above (RunRow), byte for byte what sweeps
// wrote before the key existed, and the spec's hash is unchanged.
//
// All columns are plain INT64, DOUBLE, BOOLEAN or STRING (zstd, row groups
// of at most 64 Ki rows): DuckDB, pandas, polars and Spark read them as
// they are.
//
// # FPGA design sweeps (unit: fpga)
//
// A spec with unit: fpga sweeps FGNAS's FPGA pipeline (package accel/fpga,
// seed 004) over the design grid of its fpga: block (testdata/fpga.yaml):
// every architecture (archs:, as fpga eval's --arch, then the GNN stacks
// of models:, model files of gcn and gat layers, each built as its exact
// architecture) with every group-size
// setting (tiles:, as --tiles) and every number format (bits:, as --bits),
// on one Planetoid data set (data: cora | citeseer | pubmed), priced by one
// cost model (model: gnnsim | fgnas-code) against FGNAS's limits
// (latency_ms, lut, dsp). Its units of work are design points, not graphs:
// the spec has no graphs (nor sizes, layers, hardware); point p is
// architecture a (archs, then models) x tiles[t] x bits[b] with
// p = (a*len(tiles) + t)*len(bits) + b; the points
// are cut into chunks of chunk_points (default 4096) and chunked, sharded,
// resumed and merged exactly as graphs are (the runs part alone marks a
// chunk done, and no graphs.parquet is written). runs.parquet has one row
// per point, in point order; the genes of layer i (at most four layers)
// are the l<i>_ columns, empty or 0 past the last layer:
//
//	point_id                           design point (0-based)
//	data, cost_model                   data set; gnnsim | fgnas-code
//	model                              the models: entry the design was built from, empty for an archs: entry
//	arch, tiles, bits                  the grid entries, as written in the spec (a model's as its arch)
//	layers                             GNN layers of the design
//	l{0,1,2,3}_{attn,aggr,act}         operators (text, as in arch)
//	l{0,1,2,3}_{embed,heads}           output width per head, heads
//	l{0,1,2,3}_{t_in,t_out,t_attn,t_aggr,t_act}  group sizes
//	l{0,1,2,3}_{w_int,w_frac,a_int,a_frac}  integer and fraction bits of weights, activations
//	cycles                             the timing judged, at 100 MHz: summed_cycles (FGNAS), or pipelined_cycles with pipelined: true
//	summed_cycles, pipelined_cycles    every stage in turn; event-driven overlap on node blocks (0 unless pipelined: true)
//	latency_ps                         cycles in ps
//	macs, dram_bytes                   multiply-accumulates; off-chip bytes (gnnsim model)
//	lut, ff, dsp, bram18               resources of the design
//	feasible                           BOOLEAN: within every limit (the cost model's rule)
//	over                               the first limit broken, empty when feasible
//
// A row equals what gnnsim fpga eval --json prints for the same design and
// options. DuckDB reads the table with its types, e.g. the fastest
// feasible design per architecture:
//
//	SELECT arch, min(latency_ps) / 1e9 AS best_ms, count(*) FILTER (WHERE feasible) AS feasible
//	FROM 'results/fpga-example/runs.parquet' GROUP BY arch ORDER BY best_ms;
//
// # SoC sweeps (unit: soc)
//
// A spec with unit: soc sweeps zoo models mapped onto the units of a
// heterogeneous SoC (package soc, MaGNAS Eq. 6-7; default the Jetson AGX
// Xavier's GPU and DLA) over the grid of its soc: block
// (testdata/soc.yaml). Its keys:
//
//   - models: zoo model names (gnnsim models); model files are not taken
//     on the soc path yet.
//   - graph_ops: the ViGs' Grapher op, mr (default), edge, gin or sage;
//     the CNNs take only mr.
//   - mappings: presets all-UNIT (every segment on UNIT: all-gpu,
//     all-dla) and graphers-on-UNIT (every segment of a Grapher block on
//     UNIT, at block, layer or kernel granularity alike, the rest on the
//     SoC's first unit, the GPU; a CNN has no Grapher, so it is all on
//     the first unit); {random: {count: N, seed: S}}, N mappings drawn
//     from a PCG seeded with S and the model's name, each segment on a
//     unit drawn uniformly among those that run it (so every mapping is
//     valid); or a mapping as soc eval --mapping takes it (one unit, or
//     one unit per segment: gnnsim models show NAME lists the segments).
//   - dvfs: per clock domain (gpu, dla, emc, cpu or a spec file's unit),
//     a list of operating points in MHz, each a point of the domain's
//     table, or all for the table (written out as its list in the
//     normalised spec, so merge needs no SoC file). A domain left out
//     runs at its highest point.
//   - power_modes: power modes of the SoC (gnnsim soc units: MAXN, 10W,
//     an ID), each crossed with the dvfs grid, whose clocks must then be
//     within every mode's caps (a domain left out runs at the mode's
//     highest point).
//   - spec, precision, granularity: soc eval's --spec (a SoC spec file),
//     --precision (fp16, the default, or fp32) and --granularity (block,
//     default, layer or kernel).
//
// Point p is models[m] x graph_ops[o] x setting s x mappings[k] with
// p = ((m*len(graph_ops) + o)*settings + s)*mappings + k, a random entry
// counting as its count of mappings; setting s is power_modes (or none)
// x the dvfs grid, whose domains go in name order, the last varying
// fastest. Mappings vary fastest, so the points of one setting are
// consecutive and the SoC's costs are tabulated once per setting and
// chunk. Points are chunked (chunk_points), sharded, resumed and merged
// as fpga's are. runs.parquet has one row per point, in point order; the
// names are soc eval --json's where it has them:
//
//	point_id                           design point (0-based)
//	model, graph_op                    model (vig-s; vig-s-gin for another op), Grapher op (mrconv, gin, ...; none for a CNN)
//	soc, granularity, segments         SoC name; block | layer | kernel; segments the mapping assigns
//	mapping_name                       the entry: all-gpu, graphers-on-dla, random/SEED/I, or the mapping as written
//	mapping                            the mapping as soc eval prints it: a unit per segment, comma-separated
//	gpu_segments, dla_segments         segments mapped on the GPU, on the DLA (0 without such a unit)
//	transitions                        changes of unit between consecutive segments
//	power_mode                         the power mode's name, empty without power_modes
//	dvfs                               every domain's clock, as soc eval --dvfs reads it (cpu=...,dla=...,emc=...,gpu=...)
//	gpu_hz, dla_hz, emc_hz, cpu_hz     DOUBLE clocks in Hz (0 without such a domain)
//	latency_ms, energy_mj, power_w     one frame: latency, energy (CPU and memory included), average power
//	transfer_ms, dram_bytes            time moving feature maps between units; off-chip bytes
//	platform_mj                        the CPU's and the memory's part of energy_mj
//	gpu_busy_ms, dla_busy_ms           time each unit holds work (0 without such a unit)
//	units                              LIST of STRING: the SoC's units, in order
//	unit_segments, unit_hz, busy_ms    LISTs per unit (INT64, DOUBLE, DOUBLE): segments, clock, busy time
//
// A row equals what gnnsim soc eval --json (and gnnsim eval --unit soc
// --json) prints for the row's model, --graph-op, --mapping, --dvfs and
// --power-mode. DuckDB reads the table with its types, e.g. the mean
// latency per mapping and its best latency at 10 W or less, then the five
// lowest-energy settings of graphers-on-dla:
//
//	SELECT mapping_name, avg(latency_ms) AS mean_ms, min(latency_ms) FILTER (WHERE power_w <= 10) AS best_10w_ms
//	FROM 'results/soc-example/runs.parquet' GROUP BY 1 ORDER BY 2;
//	SELECT gpu_hz / 1e6 AS gpu_mhz, emc_hz / 1e6 AS emc_mhz, energy_mj, list_sum(busy_ms) AS busy
//	FROM 'results/soc-example/runs.parquet' WHERE mapping_name = 'graphers-on-dla' ORDER BY energy_mj LIMIT 5;
//
// (Both checked with DuckDB 1.5.6, which reads the lists as VARCHAR[],
// BIGINT[] and DOUBLE[].)
//
// Left out: measured per-block tables (soc eval --table) and pipelined
// frames (--frames): a row is one frame's Eq. 6-7 cost.
//
// # Standalone DSA sweeps (unit: dsa)
//
// A spec with unit: dsa runs every layer of a zoo model (models:) on one
// MAESTRO-priced DSA (soc.DSA on soc.DSAMemory, package soc/maestro) over
// the grid of its dsa: block (testdata/dsa.yaml): dataflows: (MAESTRO
// built-ins or .m files, read when the sweep is planned) x pes: x
// l2_bytes:, with l1_bytes, noc_bw, noc_hops, hop_latency, word_bytes,
// clock_mhz, static_w and granularity shared. Point p is models[m] x
// dataflows[d] x pes[e] x l2_bytes[l] with
// p = ((m*len(dataflows) + d)*len(pes) + e)*len(l2_bytes) + l, chunked,
// sharded, resumed and merged as fpga points are. A point whose
// double-buffered tiles exceed the L1 or L2, or whose dataflow's clusters
// exceed the PEs, is a row with fits false, not an error. runs.parquet has one row per point:
//
//	point_id                           design point (0-based)
//	model, dataflow                    the grid entries, as written in the spec
//	pes, l1_bytes, l2_bytes            PEs; L1 per PE and L2 in bytes (0: unconstrained)
//	noc_bw, clock_mhz                  NoC elements per cycle; clock (DOUBLE)
//	granularity, segments              the model's segmentation (one unit: only segments changes)
//	fits                               BOOLEAN: every kernel maps onto the PEs and its tiles fit the buffers
//	refused                            the capacity or mapping error when not fits, else empty
//	cycles                             the latency at the DSA clock
//	latency_ps, latency_ms             one inference
//	energy_pj, energy_mj, power_w      energy (MAESTRO's MAC and buffer energies, leakage, DRAM) and its average power
//	dram_bytes                         bytes through the shared memory
//
// A row equals what gnnsim eval --unit dsa --json prints for the same
// point. DuckDB, e.g. the fastest fitting dataflow per model and PE count:
//
//	SELECT model, pes, arg_min(dataflow, latency_ps) AS best, min(latency_ms) AS ms
//	FROM 'results/dsa-example/runs.parquet' WHERE fits GROUP BY model, pes ORDER BY model, pes;
//
// # Unit kinds
//
// The spec's unit: key names the kind of hardware swept (default omega).
// A UnitKind supplies the table schema and an Evaluator that turns one
// graph into rows; the runner supplies everything else (graphs, chunks,
// shards, resumption, merge), so a kind registered with RegisterUnit is
// swept exactly like omega. UnitSweep makes a kind of any hw.Unit
// (hw.LayerWork per graph, layer kind and size; one CostRow per unit with
// time_ps, cycles, energy_pj, dram_bytes, macs). A kind with Points set
// (fpga, soc, dsa) sweeps design points instead of graphs. The model: key
// (a whole model instead of layers) is accepted only by a kind registered
// with Models set; none is built in, and the error says so (soc and dsa
// name their models in their own blocks).
//
// Relative paths in a spec file (graphs' path:, hardware file:, model
// files, G-CoS design files, data and data_dir:, soc spec:, .m dataflows)
// are taken from the spec file's folder, as Docker Compose, Timeloop and
// Slurm batch files take theirs (Spec.Path), so a spec means the same from
// any working directory and on every shard. A value naming no file there is
// taken as written: a zoo model or data-set name, or (as before) a path from
// the working directory. Outputs record every value as written.
//
// ResolveData is the one meaning of every command's --data: a path (file,
// folder, Planetoid prefix) or a name looked up under the data directory
// (the Planetoid sets and Reddit, the RealSets, a SuiteSparse matrix by
// file name), checked against what the command reads (DataNeed).
//
// Left out: per-run wall-clock times (they would break byte-identity) and
// automatic retries of failed chunks (rerun the command).
//
// # G-CoS design sweeps (unit: gcos)
//
// A spec with unit: gcos prices fixed designs of the G-CoS template
// (package accel/gcos, seed 001) running GNN stacks of any depth on data
// sets (testdata/gcos.yaml). Its gcos: block has configs: (each entry a
// design file, file:, or the built-in default, with an optional grid over
// its parameters: subs, pes, tiling, kernel, tile_m, tile_k, tile_n,
// allocation, hbm_gb_per_s, clock_mhz, each list overriding every
// sub-accelerator's value, the cross product in that order with the last
// varying fastest), models: (model files of gcn, gin, sage and gat
// layers), data: (cora, citeseer, pubmed, reddit by name, as
// nas/gcos.Datasets prices them, or a graph path) and data_dir: (where the
// named sets' files are; empty: their published sizes, whatever is on
// disk). Point p is design c x models[m] x data[d] with
// p = (c*len(models) + m)*len(data) + d; points are chunked, sharded,
// resumed and merged as fpga's are. runs.parquet has one row per point;
// sub-accelerator i's parameters are the s<i>_ columns, empty or 0 past
// the last:
//
//	point_id                           design point (0-based)
//	config                             the configs: entry's file, or default
//	model, model_name                  the models: entry; the model's name
//	data, data_name                    the data: entry; the data set's name
//	nodes, features, feature_density   the data set (density 0: dense features)
//	layers                             blocks of the model (a layer with its activation)
//	allocation, scheme                 rows | columns; parallel | hybrid
//	repurpose, share_weights           BOOLEAN: the buffer options
//	clock_mhz, hbm_gb_per_s            DOUBLE: the platform
//	subs, pes                          sub-accelerators; their PEs together
//	s{0,1,2,3,4}_{pes,tile_m,tile_k,tile_n}  PEs and tile sizes of sub-accelerator i
//	s{0,1,2,3,4}_{tiling,kernel}       its tiling and kernel modes (text)
//	cycles, latency_ps, latency_us     one inference at the design's clock
//	block_latency_ps                   LIST of INT64: each block's latency
//	dram_bytes, macs                   HBM traffic; multiply-accumulates (package workload's count)
//	dsp, on_chip_bytes                 resources of the design
//	feasible                           BOOLEAN: within the VCU128's 4,096 DSPs and 42 MB
//	over                               the resource over budget, empty when feasible
//
// A row equals what gnnsim gcos eval --json (and eval --unit gcos --json)
// prints for the same design, model and data set (the config and model
// columns hold the text given). DuckDB reads it with its types, e.g. the
// fastest feasible design per model and data set:
//
//	SELECT model_name, data_name, min(latency_us) AS best_us
//	FROM 'results/gcos-example/runs.parquet' WHERE feasible GROUP BY ALL ORDER BY ALL;
package bench
