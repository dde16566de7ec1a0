package magnas

import (
	"fmt"
	"strconv"
	"strings"

	"gnnsim/hw"
	"gnnsim/search"
	"gnnsim/soc"
	"gnnsim/workload"
)

// Arch is one architecture of the supernet: a Superblock per superblock.
type Arch []workload.Superblock

// opLetters are MaGNAS's graph-op letters (Table 2: M, E, G, S).
var opLetters = map[workload.LayerKind]string{
	workload.MRConv: "M", workload.EdgeConv: "E", workload.GIN: "G", workload.SAGE: "S",
}

// String renders the architecture as "d4M.fc1.ffn1.w320|..." per
// superblock: depth and graph op letter, fc1 and FFN switches, FFN width
// (left out when the FFN is off: "d2G.fc0.ffn0"). Equal networks have equal
// strings; it is the key of accuracy tables and of the search's caches.
func (a Arch) String() string {
	var b strings.Builder
	for i, sb := range a {
		if i > 0 {
			b.WriteByte('|')
		}
		fmt.Fprintf(&b, "d%d%s.fc%d.ffn%d", sb.Depth, opLetters[sb.Op], b2i(sb.PreFC), b2i(sb.FFN))
		if sb.FFN {
			fmt.Fprintf(&b, ".w%d", sb.FFNHidden)
		}
	}
	return b.String()
}

// Ops renders the graph ops as in Table 2 ("S-G-S-G").
func (a Arch) Ops() string {
	parts := make([]string, len(a))
	for i, sb := range a {
		parts[i] = opLetters[sb.Op]
	}
	return strings.Join(parts, "-")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ParseArch reads the form Arch.String writes.
func ParseArch(s string) (Arch, error) {
	parts := strings.Split(strings.TrimSpace(s), "|")
	var a Arch
	for _, p := range parts {
		f := strings.Split(p, ".")
		if len(f) == 3 {
			f = append(f, "w0") // FFN off: no width
		}
		if len(f) != 4 || len(f[0]) < 3 || f[0][0] != 'd' || !strings.HasPrefix(f[1], "fc") ||
			!strings.HasPrefix(f[2], "ffn") || !strings.HasPrefix(f[3], "w") {
			return nil, fmt.Errorf("magnas: architecture %q: superblock %q is not dN<op>.fcB.ffnB[.wN]", s, p)
		}
		var sb workload.Superblock
		var err error
		if sb.Depth, err = strconv.Atoi(f[0][1 : len(f[0])-1]); err != nil {
			return nil, fmt.Errorf("magnas: architecture %q: depth: %w", s, err)
		}
		letter := f[0][len(f[0])-1:]
		for k, l := range opLetters {
			if l == letter {
				sb.Op = k
			}
		}
		if sb.Op == 0 {
			return nil, fmt.Errorf("magnas: architecture %q: graph op %q is not one of M, E, G, S", s, letter)
		}
		fc, e1 := strconv.Atoi(f[1][2:])
		ffn, e2 := strconv.Atoi(f[2][3:])
		w, e3 := strconv.Atoi(f[3][1:])
		if e1 != nil || e2 != nil || e3 != nil || fc < 0 || fc > 1 || ffn < 0 || ffn > 1 {
			return nil, fmt.Errorf("magnas: architecture %q: superblock %q has bad switches or width", s, p)
		}
		sb.PreFC, sb.FFN, sb.FFNHidden = fc == 1, ffn == 1, w
		a = append(a, sb)
	}
	return a, nil
}

// ArchSpace is the architecture space A of the supernet as a search space:
// per superblock i the genes d<i> (depth), op<i>, fc<i>, ffn<i> and w<i>
// (FFN hidden width), grouped in block i for superblock crossover. The
// width gene stays active when the FFN is off, as MaGNAS counts it (144
// choices per superblock); such architectures are then equal (Arch.String)
// and the search evaluates them once.
type ArchSpace struct {
	Net   workload.SupernetSpace
	Space *search.Space
}

// NewArchSpace returns the search space of net.
func NewArchSpace(net workload.SupernetSpace) (*ArchSpace, error) {
	var vars []search.Variable
	for i := range net.K {
		ops := make([]string, len(net.Ops))
		for j, o := range net.Ops {
			ops[j] = opLetters[o]
		}
		ints := func(xs []int) []string {
			s := make([]string, len(xs))
			for j, x := range xs {
				s[j] = strconv.Itoa(x)
			}
			return s
		}
		bools := func(xs []bool) []string {
			s := make([]string, len(xs))
			for j, x := range xs {
				s[j] = strconv.Itoa(b2i(x))
			}
			return s
		}
		vars = append(vars,
			search.Variable{Name: fmt.Sprintf("d%d", i), Choices: len(net.Depths), Labels: ints(net.Depths), Block: i},
			search.Variable{Name: fmt.Sprintf("op%d", i), Choices: len(net.Ops), Labels: ops, Block: i},
			search.Variable{Name: fmt.Sprintf("fc%d", i), Choices: len(net.PreFC), Labels: bools(net.PreFC), Block: i},
			search.Variable{Name: fmt.Sprintf("ffn%d", i), Choices: len(net.FFN), Labels: bools(net.FFN), Block: i},
			search.Variable{Name: fmt.Sprintf("w%d", i), Choices: len(net.Hidden), Labels: ints(net.Hidden), Block: i},
		)
	}
	s, err := search.NewSpace(vars...)
	if err != nil {
		return nil, fmt.Errorf("magnas: %w", err)
	}
	return &ArchSpace{Net: net, Space: s}, nil
}

// Size is |A|: the product of the genes' choices (144^4 for MaGNAS).
func (a *ArchSpace) Size() float64 { return a.Net.Size() }

// Decode returns the architecture of genome g.
func (a *ArchSpace) Decode(g []int) (Arch, error) {
	if err := a.Space.Validate(g); err != nil {
		return nil, fmt.Errorf("magnas: %w", err)
	}
	n := a.Net
	arch := make(Arch, len(n.K))
	for i := range arch {
		x := g[5*i : 5*i+5]
		arch[i] = workload.Superblock{Depth: n.Depths[x[0]], Op: n.Ops[x[1]], PreFC: n.PreFC[x[2]], FFN: n.FFN[x[3]], FFNHidden: n.Hidden[x[4]]}
	}
	return arch, nil
}

// Encode returns the genome of arch.
func (a *ArchSpace) Encode(arch Arch) ([]int, error) {
	n := a.Net
	if len(arch) != len(n.K) {
		return nil, fmt.Errorf("magnas: %d superblocks, the space has %d", len(arch), len(n.K))
	}
	idx := func(what string, i int, ok bool) error {
		if !ok {
			return fmt.Errorf("magnas: superblock %d: %s not in the space", i, what)
		}
		return nil
	}
	g := make([]int, 0, 5*len(arch))
	for i, sb := range arch {
		d, o, f, e, w := -1, -1, -1, -1, -1
		for j, x := range n.Depths {
			if x == sb.Depth {
				d = j
			}
		}
		for j, x := range n.Ops {
			if x == sb.Op {
				o = j
			}
		}
		for j, x := range n.PreFC {
			if x == sb.PreFC {
				f = j
			}
		}
		for j, x := range n.FFN {
			if x == sb.FFN {
				e = j
			}
		}
		for j, x := range n.Hidden {
			if x == sb.FFNHidden {
				w = j
			}
		}
		if !sb.FFN && w < 0 {
			w = 0 // the width gene of a skipped FFN does not matter
		}
		for _, c := range []struct {
			what string
			v    int
		}{{"depth", d}, {"graph op", o}, {"fc1", f}, {"FFN", e}, {"FFN width", w}} {
			if err := idx(c.what, i, c.v >= 0); err != nil {
				return nil, err
			}
		}
		g = append(g, d, o, f, e, w)
	}
	return g, nil
}

// Uniform returns the architecture with every superblock the same.
func Uniform(n int, sb workload.Superblock) Arch {
	a := make(Arch, n)
	for i := range a {
		a[i] = sb
	}
	return a
}

// Baseline returns MaGNAS's baseline b0-b3 as a supernet architecture: the
// largest subnet (depth 4, fc1 and FFN everywhere, the widest FFN) with one
// graph op throughout.
func Baseline(net workload.SupernetSpace, op workload.LayerKind) Arch {
	return Uniform(len(net.K), workload.Superblock{Depth: net.Depths[len(net.Depths)-1], Op: op, PreFC: true, FFN: true, FFNHidden: net.Hidden[len(net.Hidden)-1]})
}

// Granularity is what a mapping gene assigns: a block (Stem, Grapher,
// FFN, Cls, as MaGNAS maps the Xavier) or a layer.
type Granularity int

const (
	BlockWise Granularity = iota
	LayerWise
)

func (g Granularity) String() string {
	if g == LayerWise {
		return "layer-wise"
	}
	return "block-wise"
}

// Split returns m as its mapping units (segments) at granularity g.
// Block-wise: its blocks (soc.Segments at block granularity). Layer-wise:
// one segment per layer that does work other than element-wise (FC,
// convolution, k-NN, graph op), each carrying the element-wise layers
// (BN, activation, residual) that follow it, as TensorRT fuses them; and a
// layer whose kernels mix aggregation (SpMM, gather, max, edge-wise) and
// combination (GEMM) is split further into its runs of each (soc's kernel
// groups), the fused element-wise layers going with the last run. That is
// MaGNAS's layer-wise mapping on MAESTRO, which "define[s] the GIN
// operation by its low-level implementations of the aggregation and
// combination phases" (Section 5.1.5) and distributes "the aggregation and
// combination across different DSAs" (Section 5.7.2). A layer-wise mapping
// thus places the k-NN graph construction, a graph op's aggregation and
// its combination, and the fcs of one Grapher independently. Every segment
// records its block (Segment.Block).
func Split(m workload.Model, g Granularity) ([]soc.Segment, error) {
	if g != LayerWise {
		segs, err := soc.Segments(m, soc.Blocks)
		if err != nil {
			return nil, fmt.Errorf("magnas: %w", err)
		}
		return segs, nil
	}
	if len(m.Blocks) == 0 {
		return nil, fmt.Errorf("magnas: model %q has no blocks", m.Name)
	}
	var segs []soc.Segment
	for bi, b := range m.Blocks {
		if len(b.Layers) == 0 || b.In.Nodes == 0 {
			return nil, fmt.Errorf("magnas: model %s: block %d (%s) does no work", m.Name, bi, b.Name)
		}
		sizes := b.Sizes()
		start := 0
		for i := 1; i <= len(b.Layers); i++ {
			if i < len(b.Layers) && b.Layers[i].Kind.Elementwise() {
				continue
			}
			sub := workload.Block{
				Name:   fmt.Sprintf("%s/%s", b.Name, b.Layers[start].Kind),
				Kind:   b.Kind,
				In:     sizes[start],
				Layers: b.Layers[start:i],
			}
			main, err := b.Layers[start].Kernels(sizes[start])
			if err != nil {
				return nil, fmt.Errorf("magnas: model %s, %s: %w", m.Name, sub.Name, err)
			}
			all, err := sub.Kernels()
			if err != nil {
				return nil, fmt.Errorf("magnas: model %s, %s: %w", m.Name, sub.Name, err)
			}
			segs = appendLayerSegments(segs, bi, sub, main, all)
			start = i
		}
	}
	return segs, nil
}

// appendLayerSegments appends the segments of sub, a layer and its fused
// element-wise layers (kernels all, the layer's own the first len(main)):
// one segment, or one per run of aggregation or combination kernels of
// the layer, the fused kernels with the last.
func appendLayerSegments(segs []soc.Segment, bi int, sub workload.Block, main, all []workload.Kernel) []soc.Segment {
	in, out := sub.InElems(), sub.OutElems()
	var runs [][2]int
	for s := 0; s < len(main); {
		e := s + 1
		for e < len(main) && combination(main[e].Class) == combination(main[s].Class) {
			e++
		}
		runs = append(runs, [2]int{s, e})
		s = e
	}
	if len(runs) < 2 {
		return append(segs, soc.Segment{Name: sub.Name, Block: bi, Kind: sub.Kind, Work: hw.BlockWork(sub), Kernels: all,
			InElems: in, OutElems: out})
	}
	for j, r := range runs {
		part := "aggregate"
		if combination(main[r[0]].Class) {
			part = "combine"
		}
		sg := soc.Segment{Name: fmt.Sprintf("%s/%s%d", sub.Name, part, r[0]), Block: bi, Kind: sub.Kind,
			Kernels: all[r[0]:r[1]:r[1]], InElems: main[r[0]].InElems, OutElems: main[r[1]-1].OutElems}
		if j == 0 {
			sg.InElems = in
		}
		if j == len(runs)-1 {
			sg.Kernels, sg.OutElems = all[r[0]:], out
		}
		segs = append(segs, sg)
	}
	return segs
}

// combination reports whether kernels of class c are combination (dense)
// work rather than aggregation, as soc splits kernel groups.
func combination(c workload.KernelClass) bool { return c == workload.GEMM }

// MappingSpace is the inner search's genome for one model: a gene per
// mapping unit (segment) choosing among the units that can run it (so
// skipped blocks have no gene: the genome's length follows the
// architecture), optionally followed by a gene per DVFS domain (joint DVFS
// search). The genes of one block form one search.Variable block.
type MappingSpace struct {
	Table *Table
	Space *search.Space
	DVFS  bool
	p     *Platform
}

// NewMappingSpace returns the mapping space of t's model on p.
func NewMappingSpace(t *Table, p *Platform, dvfs bool) (*MappingSpace, error) {
	vars := make([]search.Variable, 0, t.Blocks()+len(p.Domains))
	for i, al := range t.Allowed {
		labels := make([]string, len(al))
		for j, u := range al {
			labels[j] = p.Units[u]
		}
		vars = append(vars, search.Variable{Name: fmt.Sprintf("m%d", i), Choices: len(al), Labels: labels, Block: t.Segments[i].Block})
	}
	if dvfs {
		for j, d := range p.Domains {
			labels := make([]string, len(d.ClocksHz))
			for k, f := range d.ClocksHz {
				labels[k] = fmt.Sprintf("%gMHz", f/1e6)
			}
			vars = append(vars, search.Variable{Name: "f_" + d.Name, Choices: len(d.ClocksHz), Labels: labels, Block: t.Blocks() + j})
		}
	}
	s, err := search.NewSpace(vars...)
	if err != nil {
		return nil, fmt.Errorf("magnas: mapping space: %w", err)
	}
	return &MappingSpace{Table: t, Space: s, DVFS: dvfs, p: p}, nil
}

// Decode writes the unit of each block into mapping (len Blocks) and
// returns the genome's setting (fixed when the genome has no DVFS genes).
func (ms *MappingSpace) Decode(g []int, mapping []int, fixed int) int {
	n := ms.Table.Blocks()
	for i := range n {
		mapping[i] = ms.Table.Allowed[i][g[i]]
	}
	if !ms.DVFS || len(ms.p.Domains) == 0 {
		return fixed
	}
	return ms.p.SettingIndex(g[n:])
}

// Encode returns the genome of mapping at setting s.
func (ms *MappingSpace) Encode(mapping []int, s int) []int {
	n := ms.Table.Blocks()
	g := make([]int, ms.Space.Len())
	for i, u := range mapping {
		for j, a := range ms.Table.Allowed[i] {
			if a == u {
				g[i] = j
			}
		}
	}
	if ms.DVFS {
		for j := len(ms.p.Domains) - 1; j >= 0; j-- {
			k := len(ms.p.Domains[j].ClocksHz)
			g[n+j] = s % k
			s /= k
		}
	}
	return g
}

// Size returns the number of mappings (times DVFS settings when searched):
// the product of the genes' choices, as a float.
func (ms *MappingSpace) Size() float64 {
	size := 1.0
	for i := range ms.Space.Len() {
		size *= float64(ms.Space.Var(i).Choices)
	}
	return size
}
