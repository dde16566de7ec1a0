package main

import (
	"gnnsim/accel/fpgaref"
	"gnnsim/accel/omegaref"
)

// omegaValidateRow and fgnasValidateRow are the Parquet rows of validate
// omega --out and fpga validate fgnas --out: their names are the schemas'
// root names in the files written before the rows moved to omegaref and
// fpgaref.
type (
	omegaValidateRow omegaref.LongRow
	fgnasValidateRow fpgaref.LongRow
)

func omegaValidateRows(runs []omegaref.RunResult) []omegaValidateRow {
	rows := omegaref.LongRows(runs)
	out := make([]omegaValidateRow, len(rows))
	for i, r := range rows {
		out[i] = omegaValidateRow(r)
	}
	return out
}

func fgnasValidateRows(rs []fpgaref.Result) []fgnasValidateRow {
	rows := fpgaref.LongRows(rs)
	out := make([]fgnasValidateRow, len(rows))
	for i, r := range rows {
		out[i] = fgnasValidateRow(r)
	}
	return out
}
