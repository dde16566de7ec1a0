// Package claims is the ledger of a reproduction: one row per headline
// claim of its paper, under a stable ID, with the paper's figure beside the
// one this run measured. A reproduction writes it as claims.csv (columns
// claim, paper, measured, unit, note) and renders the same table at the top
// of its report.md, and reads every verdict of the report from it, so the
// two can never disagree.
//
// The ledger holds numbers only. The paper's value is typed in by the seed
// package with the table or figure it comes from in a comment; the measured
// value must be computed from the run's own outputs. Which goals apply to a
// measured value (direction, magnitude) is the reader's: a ledger states
// figures and, in its note, the mechanism when a claim does not hold.
//
// Left out: comparing ledgers across runs, and any tolerance: a verdict is
// the seed package's, stated in its own words.
package claims
