// Package sched simulates online scheduling of jobs onto a set of machines
// of any kind, as in seed 002 section 4: jobs arrive over time (package
// workload), wait in a queue, and a policy decides which job runs next, on
// which free machine, and the harness picks the mapping the machine runs it
// with. The simulation runs on the sim kernel.
//
// # What the caller supplies
//
// The harness knows nothing of hardware models or predictors. A Problem
// holds the jobs, the machines (each with the mappings it may run a job
// with: Omega dataflow configurations, SoC units' operating points,
// sub-accelerator tilings; one mapping means it is fixed, several that it
// is chosen per job), a Table of true latencies in cycles per (job,
// machine, mapping) that the caller fills (from a hardware model's runs),
// and optionally a Predictor giving predicted latencies. Predictions are
// evaluated once, when the Problem is built, and shared by every run.
//
// # Dispatch
//
// The harness is work-conserving: whenever a machine is free and a job is
// queued, something is dispatched. Dispatch happens after all arrivals and
// completions at the same cycle have been processed (the dispatch event has
// the larger sim priority value, so it runs after them), so a policy sees
// every job released and every machine freed at that cycle. At each dispatch the policy's Pick is called while a
// machine is free and a job is queued; it returns one (job, machine) pair.
//
// Seed 002 does not say how its policies pick the machine when several are
// free. Here:
//
//   - SJF-Truth and SJF-Predicted estimate each job's latency on each machine
//     (its best mapping there, truly or as predicted) and pick the (queued job,
//     free machine) pair with the smallest estimate: shortest job first
//     extended to unrelated machines. Ties go to the earlier-released job,
//     then to the lower machine index.
//   - Random, FCFS, LIFO, SJF-Nodes and SJF-Edges have no latency estimate
//     that depends on the machine; they pick their job, then a free machine
//     uniformly at random (seeded), so that no dataflow is favoured by its
//     position in the machine list. SJF-Nodes/Edges break ties in size by
//     release order.
//
// # Mappings (MISSION section 7)
//
// On a machine with several mappings the mapping follows a MappingRule:
// random (uniform over the machine's mappings), optimal (least true
// latency) or predicted (least predicted latency). SJF-Truth always takes
// the optimal mapping and SJF-Predicted the predicted best. The other
// policies, the baselines, follow the run's Options.Baselines rule (seed
// 002's scenario 1 is random, scenario 2 optimal; package repro/seed002
// holds those presets). Random mappings are drawn per (job, machine) from
// the run's seed before the run, in job order, so every policy run with the
// same seed sees the same random mapping for a given job on a given machine
// (common random numbers: differences between policies come from their
// decisions only).
//
// # Predictor inference time
//
// Options.InferenceCycles, when positive, is charged to every job of a
// policy whose Info says it is Predictive: the job becomes eligible for
// dispatch that many cycles after it arrives, the time to run the predictors
// on it (seed 002: all 24 models in parallel, 2,312 cycles at 1 GHz). The
// predictor host is not modelled as a queue: predictions of different jobs
// overlap. The charge shows up in the waiting and turnaround times.
//
// # Metrics
//
// Seed 002 defines, per job: completion time "when a job finishes", i.e. the
// finish cycle counted from the trace origin (the average completion time of
// the scheduling literature it cites, sum C_j / n); turnaround, finish minus
// arrival; execution, finish minus start. Metrics adds waiting time (start
// minus arrival), the makespan (last finish), nearest-rank percentiles of
// turnaround and each machine's utilisation (busy cycles / makespan). Its
// figures normalise each metric by the largest value over the policies
// (NormaliseByMax); RelativeTo divides by a chosen baseline instead.
//
// Writing results is the caller's: each study has its own table schema
// (seed 002's is in repro/seed002).
//
// # Earliest finish time
//
// EFT (not one of seed 002's seven) is list scheduling for unrelated
// machines: on arrival a job is assigned to the machine where it would
// finish first, given its latency there (best mapping, from the Table) and
// the work already assigned to that machine; each machine serves its own
// queue in arrival order, and a free machine with an empty queue stays idle
// (Info.Holds) rather than take a job promised to another.
//
// # Units of a SoC sharing one memory
//
// A SharedProblem schedules model inferences on the units of one SoC
// (package soc: GPU, DLA, DSAs) that run at once and share one memory. Jobs
// belong to JobClasses: a model with a mapping rule, whole (every block on
// the unit the job is dispatched to) or split (the graph blocks on a named
// unit, the rest on the dispatch unit, with the hand-offs between them).
// SoCClasses prices every class on every machine once, as the steps of one
// frame (soc.Evaluator.Steps: compute phases and transfer sides, each
// holding one unit, with its memory bytes). The Table policies see holds
// each job's contention-free latency, the sum of its steps: exactly soc's
// Eq. 6-7 evaluation of the same model and mapping.
//
// RunShared dispatches as Run does (the same Policy interface, one job per
// machine at a time), then runs each job's steps in order on the sim
// kernel. A step waits for its unit while another job's step holds it (a
// DLA job's GPU-fallback kernels wait for the GPU; units serve waiting
// steps first come, first served), and its bytes go through one
// sim.Channel, as in soc.Evaluator.Pipeline: a compute phase is delayed by
// the time its bytes wait for the channel, a transfer ends when its bytes
// have arrived. The channel arbitrates by soc.SendShared, the rule of
// soc.SoC.CoRun: bytes that wait behind another unit's stream move at the
// memory's mixed efficiency (SharedProblem.SetMixedEfficiency; gnnsim
// schedule sets the SoC's, 87 % on Xavier at 2133 MHz). Steps stay whole
// phases here (CoRun cuts them into kernels, chunks and turns), which
// keeps BenchmarkShared100k's 12.2 M events. Every step is thus at least
// as long as alone, so
// contention never makes a job faster; two memory-bound jobs on the GPU
// and the DLA each run slower than alone; with one job in the SoC at a
// time each job takes exactly its contention-free latency. Times are ps.
// Record.TrueCycles is that latency, Finish - Start what the job took.
// Every policy counts as feasible there: the Table holds profiles a
// deployment measures, not the contended times, and one mapping per
// machine makes every mapping rule the same. There is no predictor, so
// SJF-Predicted does not run.
//
// GenerateShared draws a trace (Poisson, bursty Pareto, Lomax or periodic
// frames; classes uniform; the mean gap set for a target load as in seed
// 002), ReadSharedTrace replays a CSV (job_id, arrival_ps, model);
// testdata/hetero.csv is a 2,000-job bursty trace at 80 % load of ViG-S
// (whole and split), GoogleNet, ResNet-50 and AlexNet on GPU + DLA (seed
// 27). On it EFT's mean completion is 7,809 ms against FCFS's 8,042 ms
// averaged over FCFS seeds 1-10 (ratio 0.971; EFT is lower for every seed).
//
// Left out: preemption, machine failures, transfer of inputs to the
// machines, reconfiguration time when a machine changes mapping, and any
// dependence of a job's latency on what ran before it. On a SoC: a unit
// runs one step at a time (no concurrent kernels on one unit), the memory
// serves whole requests in request order (no interleaving of two units'
// streams, no bank or row effects), a unit's bandwidth share is not
// enforced on the channel (a request holds it for bytes / peak rate), DVFS
// is fixed for the run, and a split job holds its dispatch machine while
// its offloaded steps run elsewhere.
package sched
