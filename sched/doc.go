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
// Left out: preemption, machine failures, transfer of inputs to the
// machines, reconfiguration time when a machine changes mapping, and any
// dependence of a job's latency on what ran before it.
package sched
