// Package seed004 reproduces FGNAS (seed 004): Table 3 (Cora under the 12
// hardware specifications: best accuracy of joint, random and separate
// search), Table 4 (best accuracy per data set) and Figure 3 (the searched
// samples on the usage-latency planes), written with our numbers beside the
// published ones into one results directory.
//
// Accuracy comes from the oracle the caller supplies per data set (package
// train: the network trained on the CPU and post-training quantised); the
// hardware verdicts from package accel/fpga through nas/fgnas, under
// FGNAS's published timing by default (its specifications were set for
// it).
//
// # What a full run does (FGNAS section 4.3, nothing reduced)
//
// Table 3: 12 specifications x 5 runs of each method. Joint search: 2,000
// episodes of the LSTM controller; it trains the feasible designs it
// draws. Random search: uniform distinct designs until it has trained as
// many as the joint run of the same index. Separate search: 200 episodes
// over the architecture alone (no limits, full precision), then 800 over
// group sizes and bits for its best architecture. Every trained network:
// Adam, 200 epochs, validation after each, the best epoch kept (FGNAS
// trains that way; it stops no training early). One oracle per data set
// serves every method, specification and run: an architecture is trained
// once and re-quantised per design, an answer is never computed twice.
// The architecture phase ignores the limits, so run k's serves all 12
// specifications: 5 phases, 1,000 networks. Table 4 adds CiteSeer (its
// own 5 phases and 5 runs per method); PubMed has no features for most
// nodes in the shared data, so it is left out and the report says why.
//
// The phases run side by side, their batches evaluated concurrently, and
// beside them the (specification, model, run) searches, 4 x Workers at a
// time (a search mostly waits for its own trainings); a search's hardware
// phase waits for its run's architecture phase. The oracle trains at most
// Workers networks at once. The specifications of a data set and model
// share separate search's screen (fgnas.ScreenCache: run k draws the same
// hardware under each), and networks the oracle's memory bound evicts
// keep their parameters, so a later design of theirs is re-quantised, not
// retrained.
//
// # Cost (measured on the shared 2-core host)
//
// gnnsim repro seed004 --datasets cora --workers 2, i.e. Table 3 in full.
// Nearly all of it is separate search's five architecture phases: 1,000
// unconstrained networks of FGNAS's space (the median about 2 CPU-seconds,
// a 64-wide 16-head GAT tens of seconds). Everything else, the 60 joint,
// random and hardware-phase searches (120,000 joint episodes at 1.7 ms of
// LSTM, 5 us per hardware verdict, 350 trained designs) and the
// feasibility table, takes 140-180 s. --quick takes 8 s. Every run below
// wrote byte-identical samples, tables and report.
//
//	trainer kernels                         wall      phases   rest
//	Go loops and gonum's SSE2               41.8 min  2,354 s  153 s  (again: 43.0 min)
//	+ AVX2 axpy, Adam, dense rows           29.5 min  1,626 s  138 s  (3,490 CPU-s, 197 %)
//	+ AVX2 dots and sparse rows             34.1 min  1,850 s  178 s  (again: 37.6 min, 2,081 s, 155 s)
//	+ AVX2 dots                             35.6 min  1,962 s  174 s  (4,095 CPU-s; same day as below)
//	+ branch-free selections, vector exp,   25.8 min  1,406 s  142 s  (3,042 CPU-s, 197 %;
//	  two-row dense products, transposed                          again: 23.8 min, 1,294 s,
//	  narrow gradients, Max kernel (as is)                        135 s, 2,809 CPU-s)
//
// With both cost models (this round) the searches after the phases
// train many more designs (gnnsim's model makes 0.1-2.9 % of designs
// feasible): on a quiet host, 46 min 15 s (phases 1,237 s, searches
// 1,490 s, 1.46 of 2 cores busy); with the kept-column gradient kernels
// and 4 searches per worker, 30 min 29 s (phases 1,084 s, searches
// 732 s, user 3,551 s), with byte-identical tables. The searches then
// spent about 600 of their CPU-seconds outside training (measured at 20
// epochs a network): the LSTM controller (now on package vec's AVX2
// kernels), separate search's screen pricing the
// same hardware draws under each of the 12 specifications (now shared:
// fgnas.ScreenCache), and about 150 retrainings of networks the oracle's
// memory bound had evicted (now parked). With those, on the same host
// the next day: 30 min 58 s (phases 1,320 s, then searches 524 s instead
// of 732; user 3,605 s), and with the phases beside the searches 30 min
// 32 s (phases done at 1,148 s, everything at 1,815 s; user 3,512 s, 1.94
// of 2 cores), tables byte-identical each time. The phases' training (the
// same work in every run) took 1,084 to 1,320 s from one run to the next,
// which left the full Table 3 at the 30-minute target. Then three more
// changes, each keeping every bit: the trainer sums a row's picked rows
// in registers (vec.GatherAxpyAVX2, in the sparse first layer and the
// neighbour sums), the LSTM controller's gates take exp and tanh four
// lanes at a time (vec.ExpMapAVX2), and a design is priced without
// allocating (fgnas.Pricer). The full Table 3 then took 24 min 22 s
// (phases done at 975 s, everything at 1,451 s; user 2,847 s, 1.97 of 2
// cores, peak RSS 4.5 GB), and again right after 24 min 39 s (phases
// 1,001 s, everything 1,467 s; user 2,872 s), its six files byte-identical
// to the 30 min 32 s run's both times.
//
// The host's speed varies from run to run by 10-20 % (the "rest" column
// runs nearly the same code in every row; the 29.5-minute run came on a
// faster day than the 35.6-minute one). The last three runs came on the
// same day, one after the other: the code as it is takes 27-33 % less
// time than the version before it, and the full Table 3 runs within the
// 30-minute target with 4-6 minutes to spare. The work is the paper's
// protocol: 200 epochs, validation after each, no early stop.
//
// Before this code trained only the rows each pass reads (package train)
// and ran the architecture phases side by side, the same 20 architecture-
// phase networks took 147 s to train instead of 64-74 s, and the shared
// phase ran one training at a time: about 1.5 hours without separate
// search and over 10 hours with it (estimated, not run).
//
// # Two cost models
//
// Every search runs under both FPGA cost models (Options.Models): the
// FGNAS authors' own (fpga.FGNASCode, equal to their code on every row of
// ../shared/fgnas-reference) and ours (fpga.Gnnsim, with Options.Timing;
// the published linear stage by default), with the same seeds. The
// feasibility table judges 100,000 uniform designs per data set under
// theirs with the paper's every-limit rule, theirs with their code's
// any-resource rule, and ours. The full run's searches therefore cost
// about twice the "rest" above (estimated 5-7 min; the architecture
// phases are shared): the full Table 3 then took 26 min 01 s on 2 quiet
// cores (peak RSS 4.5 GB), the run whose figures are below.
//
// # Claims ledger
//
// Every run writes claims.csv and the same table at the top of report.md
// (package repro/claims): per cost model, Table 3's best test accuracy
// of joint search minus random's and minus separate's, mean over the
// specifications where both trained a feasible design (paper: the same
// means over the same specifications of its Table 3: 3.0 and 2.6 points
// over the quick run's two, 1.7 and 1.1 over all 12), and on how
// many specifications joint search trained one (paper: all). The quick
// run (seed 1, 'gnnsim repro seed004 --quick', 6 s):
//
//	claim                                        paper  quick run
//	table3_fgnas-code_joint_minus_random_pt      3.0    - (0 of 2 specifications with designs)
//	table3_fgnas-code_joint_minus_separate_pt    2.6    - (0 of 2)
//	table3_fgnas-code_specs_joint_found          2      0
//	table3_gnnsim_joint_minus_random_pt          3.0    -0.1 (1 of 2: the loosest)
//	table3_gnnsim_joint_minus_separate_pt        2.6    42.6 (1 of 2; separate trains a drawn architecture)
//	table3_gnnsim_specs_joint_found              2      1
//
// The full Table 3 (seed 1, 'gnnsim repro seed004 --datasets cora
// --workers 2': 26 min 01 s on 2 quiet cores, peak RSS 4.5 GB): test
// accuracy of each run's best-by-validation design, mean +- sd over the
// 5 runs (over those that trained a feasible design, when not all), with
// FGNAS's published joint / random / separate accuracies beside:
//
//	claim                                        paper  full run
//	table3_fgnas-code_joint_minus_random_pt      1.7    2.7
//	table3_fgnas-code_joint_minus_separate_pt    1.125  10.7
//	table3_fgnas-code_specs_joint_found          12     1
//	table3_gnnsim_joint_minus_random_pt          1.7    0.3
//	table3_gnnsim_joint_minus_separate_pt        1.125  -1.3
//	table3_gnnsim_specs_joint_found              12     12
//
//	latency LUT/FF  DSP  model       joint               random              separate            paper j/r/s
//	0.8ms   10000   10   fgnas-code  none feasible       none feasible       none feasible       66.2 / 61.8 / 62.6
//	0.8ms   10000   10   gnnsim      39.0 ± 20.1% (4/5)  36.9 ± 24.3% (4/5)  38.1 ± 22.3%        66.2 / 61.8 / 62.6
//	0.8ms   10000   100  fgnas-code  none feasible       none feasible       none feasible       62.9 / 60.0 / 63.8
//	0.8ms   10000   100  gnnsim      32.9 ± 19.4%        53.9 ± 20.2%        56.1 ± 18.1%        62.9 / 60.0 / 63.8
//	0.8ms   100000  10   fgnas-code  none feasible       none feasible       none feasible       67.8 / 62.9 / 64.6
//	0.8ms   100000  10   gnnsim      63.2 ± 14.2%        57.4 ± 20.9%        49.7 ± 26.2%        67.8 / 62.9 / 64.6
//	0.8ms   100000  100  fgnas-code  none feasible       none feasible       none feasible       68.7 / 64.0 / 68.5
//	0.8ms   100000  100  gnnsim      69.3 ± 6.2%         67.4 ± 13.8%        58.6 ± 27.6%        68.7 / 64.0 / 68.5
//	0.9ms   10000   10   fgnas-code  none feasible       none feasible       none feasible       68.1 / 68.0 / 66.0
//	0.9ms   10000   10   gnnsim      47.8 ± 24.5%        47.0 ± 24.6%        37.0 ± 22.5%        68.1 / 68.0 / 66.0
//	0.9ms   10000   100  fgnas-code  none feasible       none feasible       none feasible       69.2 / 68.9 / 69.0
//	0.9ms   10000   100  gnnsim      50.6 ± 26.0% (4/5)  53.0 ± 10.9% (4/5)  53.7 ± 21.7%        69.2 / 68.9 / 69.0
//	0.9ms   100000  10   fgnas-code  none feasible       none feasible       10.4% (1/5)         68.8 / 69.0 / 68.0
//	0.9ms   100000  10   gnnsim      57.5 ± 15.0%        53.7 ± 15.8%        45.6 ± 27.9%        68.8 / 69.0 / 68.0
//	0.9ms   100000  100  fgnas-code  none feasible       none feasible       10.4% (1/5)         70.2 / 69.5 / 69.6
//	0.9ms   100000  100  gnnsim      77.1 ± 5.8%         76.6 ± 3.2%         49.6 ± 31.9%        70.2 / 69.5 / 69.6
//	1ms     10000   10   fgnas-code  none feasible       none feasible       none feasible       68.1 / 67.8 / 66.0
//	1ms     10000   10   gnnsim      63.0 ± 12.6%        60.8 ± 10.5%        37.0 ± 22.5%        68.1 / 67.8 / 66.0
//	1ms     10000   100  fgnas-code  none feasible       none feasible       none feasible       70.1 / 69.0 / 69.9
//	1ms     10000   100  gnnsim      54.4 ± 18.5%        52.8 ± 14.9%        48.0 ± 23.6%        70.1 / 69.0 / 69.9
//	1ms     100000  10   fgnas-code  none feasible       none feasible       10.4% (1/5)         68.8 / 69.2 / 69.0
//	1ms     100000  10   gnnsim      60.6 ± 12.1%        56.8 ± 11.0%        53.9 ± 31.1%        68.8 / 69.2 / 69.0
//	1ms     100000  100  fgnas-code  21.1% (1/5)         18.4% (1/5)         10.4% (1/5)         71.5 / 69.9 / 69.9
//	1ms     100000  100  gnnsim      79.5 ± 2.6%         75.9 ± 3.4%         49.6 ± 31.9%        71.5 / 69.9 / 69.9
//
// Under our model (gnnsim) joint search finds a design on all 12
// specifications but beats random by only 0.3 points on average (the
// paper: 1.7) and loses to separate by 1.3 (the paper: +1.1); under the
// authors' model only the loosest specification has a feasible design for
// joint search, on one run of five (the feasibility finding below).
//
// # Findings (seed 1; --quick: Cora, 2 runs, 300 joint, 5 + 150 separate)
//
// Under the authors' model no Table 3 specification is more than 0.004 %
// feasible (100,000 uniform designs): 0 designs at 0.8 ms / 10k / 10
// (0.001 % with their code's any-resource rule), 0.001-0.004 % at 100k
// LUT, 0 at 10k LUT; CiteSeer at 1 ms / 100k / 100 0.005 %, PubMed at
// 7 ms / 100k / 1,000 0.012 %. Latency rules (99.99 % of designs break
// 1 ms: their activation is quadratic in ceil(G/t_act) and every edge pass
// walks 2E + N), and 99.6 % break 10k LUTs (a truncator of ~230 LUTs per
// accumulator lane). The paper's 66.2 % at 0.8 ms / 10k / 10 cannot come
// from uniform sampling of the committed model; a controller that starts
// uniform draws a feasible design there about once in 10^5-10^6 episodes,
// and in our runs joint, random and separate search train none under it
// at any quick specification (separate's trainings are its unconstrained
// architecture phase). The train-until mode (--train-until N, their
// --gpu-eps) keeps searching until N designs were trained, within
// --max-episodes: with --train-until 3 --max-episodes 3000, under their
// model every run stops at the cap with nothing trained, while under ours
// joint and random search each train 3 designs a run at 0.8 ms / 10k / 10
// (test 14.4 % and 32.4 ± 27.4 %, 20 epochs a network; 53 s wall).
//
// Under ours (heads as parallel copies) 0.115 % of designs meet 0.8 ms /
// 10k / 10 and 2.94 % meet 1 ms / 100k / 100 (0.13-2.1 % in between). At
// the loosest, joint search's mean best test accuracy over 2 quick runs is
// 44.5 ± 17.7 % and random search's 40.8 ± 23.1 % (17 trained designs
// each, 20 epochs a network). Separate search now finds feasible designs
// wherever the share exceeds 0.1 %: its hardware-unaware architecture
// phase prefers wide multi-head networks with no feasible hardware, so the
// screen (ScreenDraws, 2,000 by default) takes the best architecture with
// >= 1 % feasible hardware draws or a uniformly drawn one, and trains
// until it has a design; at quick's 5 architecture episodes that is a
// drawn one, whose quantised network reaches only 13-14 % (one class).
package seed004
