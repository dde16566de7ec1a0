// Package fgnas is FGNAS's co-search (seed 004): a GNN architecture, its
// FPGA pipeline (package accel/fpga) and its per-layer fixed-point formats
// searched jointly by a REINFORCE controller under resource and latency
// limits, against random search and separate (architecture, then
// hardware) search.
//
//	sp, _ := fgnas.NewSpace(2, fgnas.Cora.Classes)
//	p := &fgnas.Problem{Space: sp, Data: fgnas.Cora, Limits: fgnas.Limits{LatencyMS: 0.8, LUT: 10000, DSP: 10}, Oracle: oracle}
//	joint, _ := p.Joint(ctx, 0, seed)            // 2,000 episodes
//	random, _ := p.Random(ctx, joint.Trained, seed)
//	separate, _ := p.Separate(ctx, 0, 0, seed)   // 200 + 800 episodes (SeparateArch, SeparateHardware)
//
// # Space (FGNAS Table 1, two layers)
//
// Per layer: embedding 4, 8, 12, 16, 32, 64 (the last layer's width is the
// class count, as in GraphNAS, so it has no embedding decision); attention
// constant / gcn / gat; aggregation add / max / mean; heads 1-16;
// activation relu / tanh / sigmoid / elu; group sizes t_in, t_out, t_act
// 1-5 and t_attn, t_aggr 1, 2, 4, 8; integer bits 1-3 and fraction bits 0-6
// of activations and weights. 27 decisions in all.
//
// # Controller (section 3.2)
//
// search.Reinforce with the LSTM policy (hidden 100, embedding 10), m = 5
// episodes per update, an EMA baseline with decay 0.9, no discount, SGD at
// a constant 0.1. Reward (Eq. 5): 0 when the FPGA model says the design
// breaks a limit (no training), else the validation accuracy of the
// network trained and post-training quantised to the design's formats.
// Accuracy comes from an Oracle: FromTrain adapts package train's oracle
// (each architecture trained once on the CPU, re-quantised per design,
// answers cached by genome); the search never asks twice in a run.
//
// # Baselines (section 4.2)
//
// Random search draws uniform distinct designs until as many were trained
// as the joint search trained (FGNAS's equal-budget rule). Separate search
// runs the controller over the architecture alone (no hardware limits,
// full precision) for 200 episodes, then over group sizes and bits for the
// best architecture for 800 episodes; its best design comes from the
// second phase. The phases are also separate calls (SeparateArch,
// SeparateHardware): the first ignores the limits, so one architecture
// search serves every specification, as a hardware-unaware search would.
//
// # Cost models and the authors' run modes
//
// Problem.Timing selects the FPGA cost model: ours (fpga.Gnnsim, the
// default) or the FGNAS authors' own (fpga.FGNASCode, with their code's
// any-resource rule behind AnyResource). Problem.TrainUntil is their
// "train until N designs were trained" mode (--gpu-eps): joint search
// and separate search's hardware phase run past their episodes until N
// distinct designs were trained, checked after each batch, within
// MaxEpisodes (RunResult.Capped says when the cap came first).
//
// Problem.ScreenDraws departs from FGNAS's separate search on purpose:
// its architecture phase ignores the hardware, so at a tight
// specification its best architectures may have no feasible hardware at
// all (under ours at 0.8 ms / 10k / 10, none of 30 a phase drew had one
// feasible design in 2,000 uniform hardware draws), and its hardware
// phase then trains nothing. With the screen, the hardware phase takes
// the best-ranked architecture with >= 1 % feasible hardware draws, else
// the first of up to 200 uniformly drawn ones that has, and runs until it
// has trained a design. 0 keeps FGNAS's protocol.
//
// Problem.Hardware prices one genome's design; a Pricer (Problem.NewPricer,
// one per goroutine) does the same without allocating, for loops over many
// designs (the searches, the screen, seed004's feasibility table).
//
// What is left out: FGNAS's GPU timings (search effort is reported as
// trained samples and episodes, not hours), and parameter sharing.
package fgnas
