package accel

import (
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// hwKeyDocs gives the meaning and unit of every key of a hardware spec, by
// its YAML path. WriteHWYAML refuses a key without one, so a field added to
// HW cannot be printed undocumented.
var hwKeyDocs = map[string]string{
	"pes":                     "PE array size (PEs)",
	"pp_agg_pes":              "PEs aggregation gets under the pp dataflow (PEs; 0: half the array)",
	"register_file_bytes":     "register file per PE (bytes; informational, no timing depends on it)",
	"global_buffer_bytes":     "global buffer size (bytes)",
	"word_bytes":              "size of one matrix element (bytes)",
	"distribution_bw":         "distribution network, global buffer to PEs, whole array (words/cycle)",
	"reduction_bw":            "reduction network, PEs to global buffer, whole array (words/cycle)",
	"global_buffer_bw":        "global buffer ports, shared by both phases under pp (words/cycle)",
	"dram_bytes_per_cycle":    "DRAM bandwidth (bytes/cycle)",
	"dram_latency_cycles":     "DRAM access latency (cycles)",
	"dram_burst_bytes":        "granularity the DMA engine streams DRAM transfers at (bytes)",
	"clock_hz":                "clock frequency, only for reporting seconds (Hz)",
	"energy_pj":               "energy of one access of one word (pJ)",
	"energy_pj.mac":           "one multiply-accumulate (pJ)",
	"energy_pj.register_file": "one register file access (pJ)",
	"energy_pj.noc":           "one word over the distribution or reduction network (pJ)",
	"energy_pj.global_buffer": "one global buffer access (pJ)",
	"energy_pj.dram":          "one DRAM access (pJ)",
}

// WriteHWYAML writes h as a hardware spec in YAML that ParseHW reads back
// to h, with a comment on every key giving its meaning and unit.
func WriteHWYAML(w io.Writer, h HW) error {
	var n yaml.Node
	if err := n.Encode(h); err != nil {
		return fmt.Errorf("accel: hw yaml: %w", err)
	}
	if err := commentKeys(&n, ""); err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return fmt.Errorf("accel: hw yaml: %w", err)
	}
	return enc.Close()
}

// commentKeys attaches hwKeyDocs to the keys of mapping n (prefix: its
// path).
func commentKeys(n *yaml.Node, prefix string) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		path := prefix + k.Value
		doc, ok := hwKeyDocs[path]
		if !ok {
			return fmt.Errorf("accel: hw yaml: key %s has no documentation", path)
		}
		if v.Kind == yaml.MappingNode {
			k.LineComment = doc
			if err := commentKeys(v, path+"."); err != nil {
				return err
			}
		} else {
			v.LineComment = doc
		}
	}
	return nil
}
