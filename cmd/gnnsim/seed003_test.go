package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestReproSeed003Flags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--platform", "orin"}, "--platform"},
		{[]string{"--overlap", "1.5"}, "--overlap"},
		{[]string{"--overlap", "-1"}, "--overlap"},
		{[]string{"--overlap", "NaN"}, "--overlap"},
	} {
		cmd := reproSeed003Cmd()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(append(c.args, "--data", t.TempDir(), "--out", t.TempDir(), "--quick"))
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %s", c.args, err, c.want)
		}
	}
}
