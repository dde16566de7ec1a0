// Package par runs the iterations of an index loop on several goroutines
// without letting goroutine timing into the result.
//
// gnnsim's parallel work is embarrassingly parallel: graph i of a set,
// candidate i of a search batch, model c of a predictor, chunk k of a sweep.
// Each iteration writes only its own slot, so the results are the same for
// any number of workers; the one thing scheduling could still change is
// which error is reported when several iterations fail. For settles that the
// way a serial loop would, with the error of the lowest failing index, and
// this package exists so that every parallel loop of gnnsim gets that rule
// (and its early stop) from one place instead of re-deriving it.
//
// Left out: iterations that feed each other, results gathered in completion
// order, and per-iteration cancellation (check a context inside f; see
// bench.Plan.Run). Loops that want every failure reported rather than the
// first (bench's schedule seeds) record errors per index and return nil
// from f.
package par
