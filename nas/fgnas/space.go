package fgnas

import (
	"fmt"
	"slices"
	"strings"

	"gnnsim/accel/fpga"
	"gnnsim/graphs"
	"gnnsim/hw"
	"gnnsim/search"
	"gnnsim/workload"
)

// Dataset is what the hardware model needs of a node-classification graph.
type Dataset struct {
	Name       string
	Size       workload.Size // nodes and adjacency entries (no self-loops)
	Features   int
	FeatureNNZ int64 // non-zeros of the feature matrix, streamed by layer 1
	Classes    int
}

// The Planetoid graphs (Yang et al. 2016) with their standard statistics
// (as PyTorch Geometric reports them: adjacency entries counted in both
// directions). Cora's feature non-zeros are in MISSION section 12;
// CiteSeer's and PubMed's are the counts of the full Planetoid feature
// matrices (PubMed's allx is not in ../shared/data, so it cannot be
// recounted here).
var (
	Cora     = Dataset{Name: "cora", Size: workload.Size{Nodes: 2708, NNZ: 10556}, Features: 1433, FeatureNNZ: 49216, Classes: 7}
	CiteSeer = Dataset{Name: "citeseer", Size: workload.Size{Nodes: 3327, NNZ: 9104}, Features: 3703, FeatureNNZ: 105165, Classes: 6}
	PubMed   = Dataset{Name: "pubmed", Size: workload.Size{Nodes: 19717, NNZ: 88648}, Features: 500, FeatureNNZ: 988031, Classes: 3}
)

// DatasetByName returns one of Cora, CiteSeer, PubMed.
func DatasetByName(name string) (Dataset, error) {
	for _, d := range []Dataset{Cora, CiteSeer, PubMed} {
		if strings.EqualFold(d.Name, name) {
			return d, nil
		}
	}
	return Dataset{}, fmt.Errorf("fgnas: unknown dataset %q (want cora, citeseer or pubmed)", name)
}

// DatasetOf returns the statistics of a node-classification set read from
// disk: its nodes and adjacency entries (both directions, no self-loops,
// as Cora, CiteSeer and PubMed count them), feature width and non-zeros
// (as stored), and classes.
func DatasetOf(p *graphs.Planetoid) (Dataset, error) {
	if p == nil || p.Graph == nil || p.Features == nil {
		return Dataset{}, fmt.Errorf("fgnas: no data set")
	}
	d := Dataset{Name: p.Name, Size: hw.SizeOf(p.Graph), Features: p.NumFeatures(), FeatureNNZ: int64(p.Features.NNZ()), Classes: p.NumClasses}
	if d.Size.Nodes < 1 || d.Features < 1 || d.Classes < 1 {
		return Dataset{}, fmt.Errorf("fgnas: data set %s: %d nodes, %d features, %d classes", d.Name, d.Size.Nodes, d.Features, d.Classes)
	}
	return d, nil
}

// LayerArch is the architecture of one layer (FGNAS Table 1).
type LayerArch struct {
	Embed, Heads int
	Attn         workload.Attention
	Aggr         workload.Aggregation
	Act          workload.Activation
}

// Arch is a network: its layers in order. The last layer's Embed is the
// class count.
type Arch []LayerArch

// Bits are the per-layer fixed-point formats; nil means full precision.
type Bits []fpga.Precision

// The layer choices of FGNAS Table 1, in its order (a genome indexes
// them): the workload vocabulary's names.
var (
	attnChoices = []workload.Attention{workload.AttConstant, workload.AttGCN, workload.AttGAT}
	aggrChoices = []workload.Aggregation{workload.AggAdd, workload.AggMean, workload.AggMax}
	actChoices  = []workload.Activation{workload.ActReLU, workload.ActTanh, workload.ActSigmoid, workload.ActELU}
)

// ActChoice is the index of activation a among an activation gene's
// choices (-1 if it is none of them).
func ActChoice(a workload.Activation) int { return slices.Index(actChoices, a) }

func vocabLabels[T fmt.Stringer](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// Oracle returns the validation and test accuracy (fractions) of arch
// trained and quantised to bits (nil: not quantised). Package train
// supplies the real one; it must be a pure function of its arguments and,
// for parallel searches, safe for concurrent use.
type Oracle func(a Arch, b Bits) (val, test float64, err error)

// The value lists of FGNAS Table 1.
var (
	embedChoices = []int{4, 8, 12, 16, 32, 64}
	headChoices  = []int{1, 2, 4, 8, 16}
	linChoices   = []int{1, 2, 3, 4, 5} // t_in, t_out, t_act
	powChoices   = []int{1, 2, 4, 8}    // t_attn, t_aggr
	intChoices   = []int{1, 2, 3}
	fracChoices  = []int{0, 1, 2, 3, 4, 5, 6}
)

// Part says which decisions a variable belongs to.
type Part uint8

// The parts of the joint space.
const (
	Architecture Part = iota
	Hardware          // group sizes and bit widths
)

type varDef struct {
	name    string
	part    Part
	choices []int
	labels  []string
}

// Space is the joint space of FGNAS Table 1 for a network of Layers
// layers: per layer the embedding (not for the last layer, whose width is
// the class count), attention, aggregation, heads and activation; the five
// group sizes; the integer and fraction bits of activations and weights.
type Space struct {
	Layers, Classes int
	defs            []varDef
	joint           *search.Space
}

// NewSpace returns the joint space of a layers-deep network for classes
// classes.
func NewSpace(layers, classes int) (*Space, error) {
	if layers < 1 || layers > 8 {
		return nil, fmt.Errorf("fgnas: %d layers, want 1..8", layers)
	}
	if classes < 1 || classes > workload.MaxFeatures {
		return nil, fmt.Errorf("fgnas: %d classes", classes)
	}
	s := &Space{Layers: layers, Classes: classes}
	for l := range layers {
		p := fmt.Sprintf("l%d.", l)
		if l < layers-1 {
			s.defs = append(s.defs, varDef{name: p + "embed", choices: embedChoices})
		}
		s.defs = append(s.defs,
			varDef{name: p + "attn", labels: vocabLabels(attnChoices)},
			varDef{name: p + "aggr", labels: vocabLabels(aggrChoices)},
			varDef{name: p + "heads", choices: headChoices},
			varDef{name: p + "act", labels: vocabLabels(actChoices)},
			varDef{name: p + "t_in", part: Hardware, choices: linChoices},
			varDef{name: p + "t_out", part: Hardware, choices: linChoices},
			varDef{name: p + "t_attn", part: Hardware, choices: powChoices},
			varDef{name: p + "t_aggr", part: Hardware, choices: powChoices},
			varDef{name: p + "t_act", part: Hardware, choices: linChoices},
			varDef{name: p + "ai", part: Hardware, choices: intChoices},
			varDef{name: p + "af", part: Hardware, choices: fracChoices},
			varDef{name: p + "wi", part: Hardware, choices: intChoices},
			varDef{name: p + "wf", part: Hardware, choices: fracChoices},
		)
	}
	var err error
	if s.joint, err = s.sub(func(Part) bool { return true }); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Space) sub(keep func(Part) bool) (*search.Space, error) {
	var vars []search.Variable
	for i, d := range s.defs {
		if !keep(d.part) {
			continue
		}
		v := search.Variable{Name: d.name, Block: i / 16}
		if d.labels != nil {
			v.Choices, v.Labels = len(d.labels), d.labels
		} else {
			v.Choices = len(d.choices)
			for _, c := range d.choices {
				v.Labels = append(v.Labels, fmt.Sprint(c))
			}
		}
		vars = append(vars, v)
	}
	return search.NewSpace(vars...)
}

// Joint returns the search space of every decision.
func (s *Space) Joint() *search.Space { return s.joint }

// Part returns the search space of one part's decisions, in the joint
// order; Merge puts a genome of it back together with the rest.
func (s *Space) Part(p Part) (*search.Space, error) {
	return s.sub(func(q Part) bool { return q == p })
}

// Merge returns the joint genome with part p's genes from g and the others
// from rest.
func (s *Space) Merge(p Part, g, rest []int) []int {
	return s.AppendMerge(make([]int, 0, len(s.defs)), p, g, rest)
}

// AppendMerge appends Merge(p, g, rest) to dst: the allocation-free form
// for loops that merge into a reused buffer.
func (s *Space) AppendMerge(dst []int, p Part, g, rest []int) []int {
	k := 0
	for i, d := range s.defs {
		if d.part == p {
			dst = append(dst, g[k])
			k++
		} else {
			dst = append(dst, rest[i])
		}
	}
	return dst
}

// Candidate is a decoded joint genome.
type Candidate struct {
	Arch   Arch
	Bits   Bits
	Design fpga.Design
}

// clone returns c with storage of its own.
func (c Candidate) clone() Candidate {
	c.Arch, c.Bits, c.Design.Layers = slices.Clone(c.Arch), slices.Clone(c.Bits), slices.Clone(c.Design.Layers)
	return c
}

// Decode returns the architecture, bit widths and FPGA design of a joint
// genome for data.
func (s *Space) Decode(g []int, data Dataset) (Candidate, error) {
	c := Candidate{Arch: make(Arch, 0, s.Layers), Bits: make(Bits, 0, s.Layers), Design: fpga.Design{Layers: make([]fpga.LayerDesign, 0, s.Layers)}}
	if err := s.DecodeInto(&c, g, data); err != nil {
		return Candidate{}, err
	}
	return c, nil
}

// DecodeInto sets *c to Decode(g, data), reusing the storage of c's
// slices: the allocation-free form for loops that price one genome after
// another. On error *c is left as it was.
func (s *Space) DecodeInto(c *Candidate, g []int, data Dataset) error {
	if err := s.joint.Validate(g); err != nil {
		return fmt.Errorf("fgnas: %w", err)
	}
	*c = Candidate{Arch: c.Arch[:0], Bits: c.Bits[:0], Design: fpga.Design{Layers: c.Design.Layers[:0]}}
	k := 0
	next := func() int { x := g[k]; k++; return x }
	for l := range s.Layers {
		var la LayerArch
		var ld fpga.LayerDesign
		if l < s.Layers-1 {
			la.Embed = embedChoices[next()]
		} else {
			la.Embed = s.Classes
		}
		la.Attn = attnChoices[next()]
		la.Aggr = aggrChoices[next()]
		la.Heads = headChoices[next()]
		la.Act = actChoices[next()]
		ld.T = fpga.Groups{In: linChoices[next()], Out: linChoices[next()], Attn: powChoices[next()], Aggr: powChoices[next()], Act: linChoices[next()]}
		ld.Bits.A = fpga.Fixed{Int: intChoices[next()], Frac: fracChoices[next()]}
		ld.Bits.W = fpga.Fixed{Int: intChoices[next()], Frac: fracChoices[next()]}
		ld.Embed, ld.Heads, ld.Attn, ld.Aggr, ld.Act = la.Embed, la.Heads, la.Attn, la.Aggr, la.Act
		c.Arch = append(c.Arch, la)
		c.Bits = append(c.Bits, ld.Bits)
		c.Design.Layers = append(c.Design.Layers, ld)
	}
	c.Design.InputNNZ = data.FeatureNNZ
	return nil
}

// Format renders a joint genome.
func (s *Space) Format(g []int) string { return s.joint.Format(g) }

// String renders an architecture as "l0: gcn/add/relu 8x1; l1: ...".
func (a Arch) String() string {
	var b strings.Builder
	for i, l := range a {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "l%d: %s/%s/%s %dx%d", i, l.Attn, l.Aggr, l.Act, l.Embed, l.Heads)
	}
	return b.String()
}
