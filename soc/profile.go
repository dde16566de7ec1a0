package soc

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Profiles are the built-in SoC specs by name, in the order the CLI lists
// them: "default" (DefaultSpec, the Jetson AGX Xavier as NVIDIA's
// benchmarks and the held-out per-layer profiles run it) and "magnas"
// (MaGNASSpec, the Xavier as MaGNAS measured it: FP32 GPU engines and its
// harness's per-frame host work, the profile MaGNAS Tables 2 and 3
// calibrate).
var Profiles = []string{"default", "magnas"}

// ProfileSpec returns the built-in spec of a profile name.
func ProfileSpec(name string) (Spec, error) {
	switch strings.ToLower(name) {
	case "", "default":
		return DefaultSpec(), nil
	case "magnas":
		return MaGNASSpec(), nil
	}
	return Spec{}, fmt.Errorf("soc: unknown profile %q (want one of %s)", name, strings.Join(Profiles, ", "))
}

// MaGNASSpecYAML returns MaGNASSpec as a spec file that --spec reads
// (ParseSpec gives MaGNASSpec back): every constant with its source in its
// section's sources: map, as in DefaultSpecYAML, without the default
// file's comments. Its header says how it differs from the default.
func MaGNASSpecYAML() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The Jetson AGX Xavier as MaGNAS (seed 000) measured it: soc.MaGNASSpec.\n"+
		"# The built-in spec ('gnnsim soc spec default') with the GPU in %s (its\n"+
		"# precisions: entry applied: TensorRT builds FP32 engines unless FP16 is\n"+
		"# requested) and cpu.frame_cycles = cpu.magnas_frame_cycles (the per-frame\n"+
		"# host work of MaGNAS's harness); every other constant is the default's.\n"+
		"# 'gnnsim soc eval --profile magnas' evaluates the same spec.\n", MaGNASPrecision)
	body, err := specYAML(MaGNASSpec())
	if err != nil {
		return nil, fmt.Errorf("soc: MaGNAS spec: %w", err)
	}
	b.Write(body)
	return b.Bytes(), nil
}

// specYAML encodes s as a spec file, empty maps and lists left out.
func specYAML(s Spec) ([]byte, error) {
	var doc yaml.Node
	if err := doc.Encode(s); err != nil {
		return nil, err
	}
	pruneEmpty(&doc)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pruneEmpty drops the keys whose value is an empty map or list (a nil
// map or slice encodes as {} or [], which would parse back as an empty,
// not a nil, one).
func pruneEmpty(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if v := n.Content[i+1]; (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && len(v.Content) == 0 {
				continue
			}
			kept = append(kept, n.Content[i], n.Content[i+1])
		}
		n.Content = kept
	}
	for _, c := range n.Content {
		pruneEmpty(c)
	}
}
