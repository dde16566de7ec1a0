// Package vec holds the AVX2 vector kernels that more than one package
// runs: axpy and dots in the order of gonum's DotUnitary, and a four-lane
// math.Exp with the functions built on it (two sigmoids, ELU, tanh). The
// trainer (package train) and the LSTM controller (package search) use
// them in place of gonum's floats.AddScaled and floats.Dot, whose
// assembly is SSE2 (two float64 per instruction), and of math.Exp and
// math.Tanh, which are scalar: no reachable library has AVX2 forms.
//
// Each kernel gives the bits of the code it replaces. Axpy and dots
// multiply and add separately (no FMA), element by element and in gonum's
// order of summation. The exp (exp_amd64.s) is math.Exp's own FMA method
// (math/exp_amd64.s) on four lanes, so it needs FMA as well (HasExpAVX2);
// inputs outside its range go to math.Exp. Its tanh is math.Tanh's Go
// code (math/tanh.go) on four lanes, every branch computed and each lane
// taking its own. So a caller gets the same bits with or without them;
// callers check HasAVX2 or HasExpAVX2 and keep gonum's kernels, math's
// functions or Go loops as the other path. Off amd64, or with the purego
// build tag, both are false and the kernels panic if called.
package vec
