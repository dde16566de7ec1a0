// Package vec holds the AVX2 vector kernels that more than one package
// runs: axpy and dots in the order of gonum's DotUnitary. The trainer
// (package train) and the LSTM controller (package search) use them in
// place of gonum's floats.AddScaled and floats.Dot, whose assembly is SSE2
// (two float64 per instruction): no reachable library has AVX2 forms.
//
// Each kernel multiplies and adds separately (no FMA), element by element
// and in gonum's order of summation, so a caller gets the same bits with
// or without them; callers check HasAVX2 and keep gonum's kernels (or Go
// loops) as the other path. Off amd64, or with the purego build tag,
// HasAVX2 is false and the kernels panic if called.
package vec
