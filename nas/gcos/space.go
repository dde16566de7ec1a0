package gcos

import (
	"fmt"
	"strconv"

	accel "gnnsim/accel/gcos"
	"gnnsim/search"
	"gnnsim/workload"
)

// TileChoices are the tile sizes a sub-accelerator's TileM, TileK and TileN
// take in the search (Table I's "n ~ 10-100" tiling sizes, as powers of
// two so that 7^3 combinations per sub-accelerator cover 8 to 512).
var TileChoices = []int{8, 16, 32, 64, 128, 256, 512}

// DSPShares are the relative PE-array sizes a sub-accelerator takes: 0
// removes it; the others split the DSP cap in proportion, in multiples of
// 16 DSPs.
var DSPShares = []int{0, 1, 2, 3, 4}

// Design is one point of the joint space: a GNN and its accelerator.
type Design struct {
	Arch Arch
	HW   accel.Config
}

// Space is the joint GNN x accelerator space of seed 001 (Tables I and
// II) for a data set with a given number of classes, or its accelerator
// half alone for a fixed GNN.
type Space struct {
	s       *search.Space
	hidden  []int // the hidden widths and head counts on offer
	heads   []int
	classes int
	fixed   *Arch // hardware-only space
	dsp     int   // DSPs to split
	hwAt    int   // index of the first hardware gene
}

func labels[T any](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return out
}

// scoredChoices are the indices in Attentions of the scored types, which
// take heads.
func scoredChoices() []int {
	var in []int
	for i, a := range Attentions {
		if a.Scored() {
			in = append(in, i)
		}
	}
	return in
}

func enumLabels(n int, name func(int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = name(i)
	}
	return out
}

// NewSpace returns the joint space for a data set of classes classes.
func NewSpace(classes int) (*Space, error) { return newSpace(classes, nil, HiddenChoices, HeadChoices) }

// NewSmallSpace returns the joint space with the hidden widths and head
// counts limited to at most maxHidden and maxHeads: a space whose GNNs
// train in a fraction of a second each (quick runs).
func NewSmallSpace(classes, maxHidden, maxHeads int) (*Space, error) {
	var hidden, heads []int
	for _, h := range HiddenChoices {
		if h <= maxHidden {
			hidden = append(hidden, h)
		}
	}
	for _, h := range HeadChoices {
		if h <= maxHeads {
			heads = append(heads, h)
		}
	}
	if len(hidden) == 0 || len(heads) == 0 {
		return nil, fmt.Errorf("gcos: no hidden width <= %d or head count <= %d", maxHidden, maxHeads)
	}
	return newSpace(classes, nil, hidden, heads)
}

// NewHardwareSpace returns the accelerator space for the fixed GNN a.
func NewHardwareSpace(a Arch) (*Space, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return newSpace(a.Layers[1].Hidden, &a, HiddenChoices, HeadChoices)
}

func newSpace(classes int, fixed *Arch, hidden, heads []int) (*Space, error) {
	if classes < 1 {
		return nil, fmt.Errorf("gcos: %d classes", classes)
	}
	var vars []search.Variable
	if fixed == nil {
		for l := range 2 {
			p := "l" + strconv.Itoa(l) + "."
			vars = append(vars,
				search.Variable{Name: p + "attention", Choices: len(Attentions), Labels: enumLabels(len(Attentions), func(i int) string { return attName(Attentions[i]) }), Block: l},
				search.Variable{Name: p + "aggregation", Choices: len(Aggregations), Labels: enumLabels(len(Aggregations), func(i int) string { return aggName(Aggregations[i]) }), Block: l})
			if l == 0 {
				vars = append(vars,
					search.Variable{Name: p + "activation", Choices: len(Activations), Labels: enumLabels(len(Activations), func(i int) string { return actName(Activations[i]) }), Block: l},
					search.Variable{Name: p + "hidden", Choices: len(hidden), Labels: labels(hidden), Block: l})
			}
			vars = append(vars,
				search.Variable{Name: p + "heads", Choices: len(heads), Labels: labels(heads), Block: l,
					When: []search.Condition{{Var: p + "attention", In: scoredChoices()}}},
				search.Variable{Name: p + "sampling", Choices: len(SamplingChoices), Labels: labels(SamplingChoices), Block: l})
		}
	}
	hwAt := len(vars)
	for i := range accel.MaxSubs {
		p := "sub" + strconv.Itoa(i) + "."
		b := 2 + i
		vars = append(vars,
			search.Variable{Name: p + "dsp", Choices: len(DSPShares), Labels: labels(DSPShares), Block: b},
			search.Variable{Name: p + "tiling", Choices: 3, Labels: enumLabels(3, func(i int) string { return accel.TilingMode(i).String() }), Block: b},
			search.Variable{Name: p + "kernel", Choices: 4, Labels: enumLabels(4, func(i int) string { return accel.KernelMode(i).String() }), Block: b},
			search.Variable{Name: p + "tileM", Choices: len(TileChoices), Labels: labels(TileChoices), Block: b},
			search.Variable{Name: p + "tileK", Choices: len(TileChoices), Labels: labels(TileChoices), Block: b},
			search.Variable{Name: p + "tileN", Choices: len(TileChoices), Labels: labels(TileChoices), Block: b})
	}
	vars = append(vars,
		search.Variable{Name: "repurpose", Choices: 2, Block: 7},
		search.Variable{Name: "share-weights", Choices: 2, Block: 7},
		search.Variable{Name: "allocation", Choices: 2, Labels: []string{"rows", "columns"}, Block: 7})
	s, err := search.NewSpace(vars...)
	if err != nil {
		return nil, err
	}
	return &Space{s: s, hidden: hidden, heads: heads, classes: classes, fixed: fixed, dsp: accel.DSPLimit, hwAt: hwAt}, nil
}

// Search returns the underlying discrete space.
func (sp *Space) Search() *search.Space { return sp.s }

// Encoding returns G-CoS's variation: every active attribute changes with
// probability 0.5 ("half of the randomly picked design attributes
// changed", seed 001, Sec. V-A). Algorithm 1 does not recombine.
func (sp *Space) Encoding() *search.Discrete {
	d := search.NewDiscrete(sp.s)
	d.MutationProb = 0.5
	d.CrossoverProb = 0
	return d
}

// Decode turns a genome into a design. Sub-accelerators with a DSP share
// of 0 are left out (all 0 keeps the first); when buffers are re-purposed
// or shared, every sub-accelerator takes the first present one's tiling
// and kernel modes (seed 001, Sec. IV-C).
func (sp *Space) Decode(g []int) (Design, error) {
	if err := sp.s.Validate(g); err != nil {
		return Design{}, err
	}
	var d Design
	if sp.fixed != nil {
		d.Arch = *sp.fixed
	} else {
		i := 0
		for l := range 2 {
			ly := &d.Arch.Layers[l]
			ly.Attention, ly.Aggregation = Attentions[g[i]], Aggregations[g[i+1]]
			i += 2
			if l == 0 {
				ly.Activation, ly.Hidden = Activations[g[i]], sp.hidden[g[i+1]]
				i += 2
			} else {
				ly.Activation, ly.Hidden = workload.ActSkip, sp.classes
			}
			ly.Heads = 1
			if g[i] != search.Inactive {
				ly.Heads = sp.heads[g[i]]
			}
			ly.Sampling = SamplingChoices[g[i+1]]
			i += 2
		}
	}
	h := g[sp.hwAt:]
	total := 0
	for i := range accel.MaxSubs {
		total += DSPShares[h[6*i]]
	}
	repurpose, share := h[6*accel.MaxSubs] == 1, h[6*accel.MaxSubs+1] == 1
	cfg := accel.Config{Name: "gcos", Alloc: accel.Allocation(h[6*accel.MaxSubs+2]), Repurpose: repurpose, ShareWeights: share}
	for i := range accel.MaxSubs {
		x := h[6*i : 6*i+6]
		w := DSPShares[x[0]]
		if total == 0 && i == 0 {
			w, total = 1, 1
		}
		if w == 0 {
			continue
		}
		pes := sp.dsp * w / total / 16 * 16
		s := accel.Sub{PEs: max(pes, 16), Tiling: accel.TilingMode(x[1]), Kernel: accel.KernelMode(x[2]),
			TileM: TileChoices[x[3]], TileK: TileChoices[x[4]], TileN: TileChoices[x[5]]}
		if (repurpose || share) && len(cfg.Subs) > 0 {
			s.Tiling, s.Kernel = cfg.Subs[0].Tiling, cfg.Subs[0].Kernel
		}
		cfg.Subs = append(cfg.Subs, s)
	}
	d.HW = cfg
	return d, nil
}
