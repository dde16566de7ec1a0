package main

import (
	"strings"
	"testing"
)

// TestEmptyDataRefused: --data "" is refused in every command that has
// the flag, never read as the command's default data set (issue 38 item
// 11: eval --unit gcos|fpga --data "" priced cora).
func TestEmptyDataRefused(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--unit", "gcos", "--model", "../../examples/sage3.yaml", "--data", ""},
		{"eval", "--unit", "fpga", "--model", "../../examples/sage3.yaml", "--data", " "},
		{"gcos", "eval", "--model", "../../examples/sage3.yaml", "--data", ""},
		{"fpga", "eval", "--data", ""},
	} {
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), "--data is empty") {
			t.Errorf("%v: %v", args, err)
		}
	}
}
