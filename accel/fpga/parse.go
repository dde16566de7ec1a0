package fpga

import (
	"fmt"
	"strconv"
	"strings"

	"gnnsim/workload"
)

// ParseLayers builds the layers of a design from three per-layer lists,
// layers separated by ';':
//
//	arch  "attn/aggr/act/EMBEDxHEADS"  e.g. "gcn/add/relu/8x1;gcn/add/relu/7x1"
//	tiles "t_in,t_out,t_attn,t_aggr,t_act"  e.g. "8,8,8,8,8"
//	bits  "WI.WF,AI.AF"  (weights, activations) e.g. "2.5,2.5"
//
// A tiles or bits list with one entry applies to every layer.
func ParseLayers(arch, tiles, bits string) ([]LayerDesign, error) {
	as := splitList(arch)
	if len(as) == 0 {
		return nil, fmt.Errorf("fpga: empty architecture")
	}
	ts, bs := splitList(tiles), splitList(bits)
	if len(ts) != 1 && len(ts) != len(as) {
		return nil, fmt.Errorf("fpga: %d tile specs for %d layers", len(ts), len(as))
	}
	if len(bs) != 1 && len(bs) != len(as) {
		return nil, fmt.Errorf("fpga: %d bit specs for %d layers", len(bs), len(as))
	}
	var out []LayerDesign
	for i, a := range as {
		l, err := parseArch(a)
		if err != nil {
			return nil, fmt.Errorf("fpga: layer %d: %w", i, err)
		}
		if l.T, err = parseTiles(ts[min(i, len(ts)-1)]); err != nil {
			return nil, fmt.Errorf("fpga: layer %d: %w", i, err)
		}
		if l.Bits, err = parseBits(bs[min(i, len(bs)-1)]); err != nil {
			return nil, fmt.Errorf("fpga: layer %d: %w", i, err)
		}
		if err := l.validate(); err != nil {
			return nil, fmt.Errorf("fpga: layer %d: %w", i, err)
		}
		out = append(out, l)
	}
	return out, nil
}

// splitList splits a ';'-separated list; an empty entry (a;;b) is kept, so
// that it is refused as a layer instead of silently dropped. A trailing
// ';' is allowed.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	out := strings.Split(strings.TrimSuffix(strings.TrimSpace(s), ";"), ";")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

func parseArch(s string) (LayerDesign, error) {
	var l LayerDesign
	f := strings.Split(s, "/")
	if len(f) != 4 {
		return l, fmt.Errorf("architecture %q: want attn/aggr/act/EMBEDxHEADS", s)
	}
	var err error
	if l.Attn, err = workload.ParseIn(workload.ParseAttention, f[0], Attentions); err != nil {
		return l, fmt.Errorf("fpga: %w", err)
	}
	if l.Aggr, err = workload.ParseIn(workload.ParseAggregation, f[1], Aggregations); err != nil {
		return l, fmt.Errorf("fpga: %w", err)
	}
	if l.Act, err = workload.ParseIn(workload.ParseActivation, f[2], Activations); err != nil {
		return l, fmt.Errorf("fpga: %w", err)
	}
	e, h, ok := strings.Cut(f[3], "x")
	if !ok {
		h = "1"
	}
	if l.Embed, err = strconv.Atoi(e); err != nil {
		return l, fmt.Errorf("embedding %q: not an integer", e)
	}
	if l.Heads, err = strconv.Atoi(h); err != nil {
		return l, fmt.Errorf("heads %q: not an integer", h)
	}
	if ok && l.Heads < 1 { // "8x0": written, so not the design's "0 means 1"
		return l, fmt.Errorf("heads %q: want 1..64 (leave out xH for one head)", h)
	}
	return l, nil
}

func parseTiles(s string) (Groups, error) {
	f := strings.Split(s, ",")
	if len(f) != 5 {
		return Groups{}, fmt.Errorf("tiles %q: want t_in,t_out,t_attn,t_aggr,t_act", s)
	}
	var v [5]int
	for i, x := range f {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return Groups{}, fmt.Errorf("tiles %q: %q is not an integer", s, x)
		}
		v[i] = n
	}
	return Groups{In: v[0], Out: v[1], Attn: v[2], Aggr: v[3], Act: v[4]}, nil
}

func parseBits(s string) (Precision, error) {
	w, a, ok := strings.Cut(s, ",")
	if !ok {
		return Precision{}, fmt.Errorf("bits %q: want WI.WF,AI.AF", s)
	}
	var p Precision
	var err error
	if p.W, err = parseFixed(w); err != nil {
		return p, err
	}
	p.A, err = parseFixed(a)
	return p, err
}

func parseFixed(s string) (Fixed, error) {
	i, f, ok := strings.Cut(strings.TrimSpace(s), ".")
	if !ok {
		return Fixed{}, fmt.Errorf("fixed-point format %q: want INT.FRAC", s)
	}
	a, err1 := strconv.Atoi(i)
	b, err2 := strconv.Atoi(f)
	if err1 != nil || err2 != nil {
		return Fixed{}, fmt.Errorf("fixed-point format %q: want INT.FRAC, two integers", s)
	}
	if a+b < 1 {
		return Fixed{}, fmt.Errorf("fixed-point format %q has no integer or fraction bit: want at least one", s)
	}
	return Fixed{Int: a, Frac: b}, nil
}

// SpecLayers builds the layers of a design from a GNN stack model file
// (workload.ModelSpec) and the tiles and bits lists of ParseLayers: kind
// gcn is GCN attention with add, gat GAT attention (with its heads) with
// add, sage a SAGE layer with the file's aggregation (mean or max); the
// activation is relu, tanh, sigmoid, elu or none (linear). Other kinds and
// activations have no FPGA pipeline here and are errors naming the layer.
func SpecLayers(s *workload.ModelSpec, tiles, bits string) ([]LayerDesign, error) {
	if s.Zoo != "" {
		return nil, fmt.Errorf("fpga: model %s: a zoo model has no FPGA pipeline here; give a GNN stack (layers:)", s.Name)
	}
	arch := make([]string, len(s.Layers))
	for i, l := range s.Layers {
		var attn, aggr string
		switch k := strings.ToLower(l.Kind); k {
		case "gcn", "gat":
			attn, aggr = k, "add"
		case "sage":
			attn, aggr = k, "mean"
			if l.Aggregation != "" {
				aggr = strings.ToLower(l.Aggregation)
			}
		default:
			return nil, fmt.Errorf("fpga: model %s: layers[%d]: kind %s has no FPGA pipeline (want gcn, gat or sage)", s.Name, i, l.Kind)
		}
		act := strings.ToLower(l.Activation)
		if act == "" {
			act = "none"
		}
		if _, err := workload.ParseIn(workload.ParseActivation, act, Activations); err != nil {
			return nil, fmt.Errorf("fpga: model %s: layers[%d]: activation %s has no FPGA unit (want relu, tanh, sigmoid, elu or none)", s.Name, i, act)
		}
		arch[i] = fmt.Sprintf("%s/%s/%s/%dx%d", attn, aggr, act, l.Width, l.HeadCount())
	}
	return ParseLayers(strings.Join(arch, ";"), tiles, bits)
}
