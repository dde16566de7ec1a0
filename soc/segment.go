package soc

import (
	"fmt"
	"strings"

	"gnnsim/hw"
	"gnnsim/internal/boundedio"
	"gnnsim/workload"
)

// Granularity is what a mapping assigns to units.
type Granularity uint8

// The granularities.
const (
	// Blocks maps whole blocks (Stem, each Grapher, each FFN, Cls): MaGNAS's
	// block-wise mapping.
	Blocks Granularity = iota
	// Layers maps every layer of every block on its own.
	Layers
	// KernelGroups splits every layer further into its runs of aggregation
	// kernels (gather, max, SpMM, k-NN, top-k, edge-wise, element-wise) and
	// combination kernels (GEMM): MaGNAS's layer-wise mapping, aggregation
	// and combination separately. Every unit of such a mapping must be a
	// KernelCoster.
	KernelGroups
)

var granNames = [...]string{Blocks: "block", Layers: "layer", KernelGroups: "kernel"}

func (g Granularity) String() string {
	if int(g) < len(granNames) {
		return granNames[g]
	}
	return fmt.Sprintf("Granularity(%d)", uint8(g))
}

// ParseGranularity parses "block", "layer" or "kernel".
func ParseGranularity(s string) (Granularity, error) {
	for g, n := range granNames {
		if strings.EqualFold(s, n) || strings.EqualFold(s, n+"s") {
			return Granularity(g), nil
		}
	}
	return 0, fmt.Errorf("soc: unknown granularity %q (want block, layer or kernel)", s)
}

// Segment is one piece of a model a mapping assigns to a unit.
type Segment struct {
	Name  string
	Block int // index of the model block it belongs to
	// BlockName names that block (empty in segments a caller made: the
	// block's first segment's name up to its slash is used).
	BlockName string
	Kind      workload.BlockKind
	// Work is the block or layer; its Block.Layers is empty for a kernel
	// group, which only Kernels describes.
	Work    hw.Work
	Kernels []workload.Kernel
	// InElems and OutElems are the feature-map elements the segment reads
	// and writes: what moves through shared memory when its neighbours run
	// on other units. The residual operand a block keeps from its start is
	// not moved separately.
	InElems, OutElems int64
	// Producers lists, per kernel of Kernels, the kernels whose outputs it
	// reads, by index into Kernels (empty: it reads its block's input;
	// negative: kernels of the block's earlier segments, -1 the last kernel
	// before this segment, -2 the one before, ...); nil means each kernel
	// reads the one before it and the first the segment's input.
	Producers [][]int
}

// producers returns, per kernel of block b (sizes its layers' Sizes), the
// kernels of the block it reads: a layer's first kernel reads the last
// kernels of its input layers (Layer.Inputs, or the layer before; the
// block's input is outside), every other kernel the one before it.
func producers(b workload.Block, sizes []workload.Size) ([][]int, error) {
	var out [][]int
	last := make([]int, len(b.Layers)) // index of each layer's last kernel
	for li, l := range b.Layers {
		ks, err := l.Kernels(sizes[li])
		if err != nil {
			return nil, err
		}
		var first []int
		switch {
		case len(l.Inputs) > 0:
			for _, name := range l.Inputs {
				for j := li - 1; j >= 0; j-- {
					if b.Layers[j].Name == name {
						if last[j] >= 0 {
							first = append(first, last[j])
						}
						break
					}
				}
			}
		case li > 0 && last[li-1] >= 0:
			first = []int{last[li-1]}
		}
		last[li] = -1
		for ki := range ks {
			if ki == 0 {
				out = append(out, first)
			} else {
				out = append(out, []int{len(out) - 1})
			}
			last[li] = len(out) - 1
		}
		if len(ks) == 0 && li > 0 {
			last[li] = last[li-1]
		}
	}
	return out, nil
}

// relProducers returns prod's kernels [from, to) with their producers
// relative to kernel from (negative: kernels before from), the form of
// Segment.Producers that lets the Evaluator plan a run of consecutive
// segments of a block as one.
func relProducers(prod [][]int, from, to int) [][]int {
	out := make([][]int, to-from)
	for k := from; k < to; k++ {
		out[k-from] = make([]int, len(prod[k]))
		for j, p := range prod[k] {
			out[k-from][j] = p - from
		}
	}
	return out
}

// Segments splits m at granularity g. Every block and layer is validated.
func Segments(m workload.Model, g Granularity) ([]Segment, error) {
	if len(m.Blocks) == 0 {
		return nil, fmt.Errorf("soc: model %q has no blocks", m.Name)
	}
	var segs []Segment
	for bi, b := range m.Blocks {
		ks, err := b.Kernels()
		if err != nil {
			return nil, fmt.Errorf("soc: model %s: %w", m.Name, err)
		}
		if len(b.Layers) == 0 || b.In.Nodes == 0 {
			return nil, fmt.Errorf("soc: model %s: block %d (%s) does no work", m.Name, bi, b.Name)
		}
		name := b.Name
		if name == "" {
			name = fmt.Sprintf("%s%d", b.Kind, bi)
		}
		sizes := b.Sizes()
		prod, err := producers(b, sizes)
		if err != nil {
			return nil, fmt.Errorf("soc: model %s, block %s: %w", m.Name, name, err)
		}
		if g == Blocks {
			segs = append(segs, Segment{Name: name, Block: bi, BlockName: name, Kind: b.Kind, Work: hw.BlockWork(b), Kernels: ks,
				InElems: b.InElems(), OutElems: b.OutElems(), Producers: prod})
			continue
		}
		off := 0 // the block's kernels before layer li
		for li, l := range b.Layers {
			lk, err := l.Kernels(sizes[li])
			if err != nil {
				return nil, fmt.Errorf("soc: model %s, block %s, layer %d: %w", m.Name, name, li, err)
			}
			lname := fmt.Sprintf("%s/%d:%s", name, li, l.Kind)
			if l.Name != "" {
				lname = l.Name
			}
			in := sizes[li].Nodes * int64(l.F)
			out := l.Out(sizes[li]).Nodes * int64(l.OutWidth())
			if g == Layers {
				w := hw.BlockWork(workload.Block{Name: lname, Kind: b.Kind, In: sizes[li], Layers: []workload.Layer{l}})
				segs = append(segs, Segment{Name: lname, Block: bi, BlockName: name, Kind: b.Kind, Work: w, Kernels: lk, InElems: in, OutElems: out,
					Producers: relProducers(prod, off, off+len(lk))})
				off += len(lk)
				continue
			}
			for start := 0; start < len(lk); {
				end := start + 1
				for end < len(lk) && combination(lk[end].Class) == combination(lk[start].Class) {
					end++
				}
				part := "aggregate"
				if combination(lk[start].Class) {
					part = "combine"
				}
				s := Segment{Name: lname + "/" + part, Block: bi, BlockName: name, Kind: b.Kind, Kernels: lk[start:end:end],
					InElems: lk[start].InElems, OutElems: lk[end-1].OutElems, Producers: relProducers(prod, off+start, off+end)}
				if start == 0 {
					s.InElems = in
				}
				if end == len(lk) {
					s.OutElems = out
				}
				if len(lk) > 1 {
					s.Name += fmt.Sprintf("%d", start)
				}
				segs = append(segs, s)
				start = end
			}
			off += len(lk)
		}
	}
	return segs, nil
}

// combination reports whether kernels of class c are combination (dense)
// work rather than aggregation.
func combination(c workload.KernelClass) bool { return c == workload.GEMM }

// Mapping assigns each segment of a model, at a granularity, to a unit: an
// index into the SoC's Units.
type Mapping struct {
	Granularity Granularity
	Units       []int
}

// MapAll returns the mapping of n segments to one unit.
func MapAll(g Granularity, unit, n int) Mapping {
	m := Mapping{Granularity: g, Units: make([]int, n)}
	for i := range m.Units {
		m.Units[i] = unit
	}
	return m
}

// ParseMapping parses a mapping of n segments: one unit name ("gpu": every
// segment on it), or a comma-, space- or newline-separated list of n unit
// names or unique prefixes ("G,G,D,..."). Text after '#' on a line is a
// comment.
func (s *SoC) ParseMapping(text string, g Granularity, n int) (Mapping, error) {
	var toks []string
	for line := range strings.SplitSeq(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		toks = append(toks, strings.FieldsFunc(line, func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == ';'
		})...)
	}
	if len(toks) == 0 {
		return Mapping{}, fmt.Errorf("soc: empty mapping")
	}
	if len(toks) == 1 && n != 1 {
		u, err := s.UnitIndex(toks[0])
		if err != nil {
			return Mapping{}, err
		}
		return MapAll(g, u, n), nil
	}
	if len(toks) != n {
		return Mapping{}, fmt.Errorf("soc: mapping names %d units for %d segments (%s granularity)", len(toks), n, g)
	}
	m := Mapping{Granularity: g, Units: make([]int, n)}
	for i, t := range toks {
		u, err := s.UnitIndex(t)
		if err != nil {
			return Mapping{}, fmt.Errorf("soc: mapping entry %d: %w", i, err)
		}
		m.Units[i] = u
	}
	return m, nil
}

// LoadMapping reads a mapping file; see ParseMapping.
func (s *SoC) LoadMapping(path string, g Granularity, n int) (Mapping, error) {
	data, err := boundedio.ReadFile(path, boundedio.Mapping)
	if err != nil {
		return Mapping{}, fmt.Errorf("soc: %w", err)
	}
	m, err := s.ParseMapping(string(data), g, n)
	if err != nil {
		return Mapping{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Format returns the mapping as ParseMapping reads it.
func (s *SoC) FormatMapping(m Mapping) string {
	parts := make([]string, len(m.Units))
	for i, u := range m.Units {
		if u >= 0 && u < len(s.names) {
			parts[i] = s.names[u]
		} else {
			parts[i] = fmt.Sprintf("?%d", u)
		}
	}
	return strings.Join(parts, ",")
}
