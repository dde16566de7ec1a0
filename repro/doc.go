// Package repro lists the reproductions of the seed papers, one package
// per seed under repro/ (repro/seed002 today), and runs them as a tour:
// All is the list 'gnnsim demo' iterates, Tour runs each quick
// reproduction into its own folder and writes an index.md that links every
// report and figure.
//
// A seed package knows nothing of this one; its entry in All adapts its
// options and summary to Options and Report. Adding a seed is adding its
// package and one entry.
//
// Left out: running reproductions in parallel (each one already uses every
// CPU it is given) and comparing reproductions with each other.
package repro
