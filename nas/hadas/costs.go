package hadas

import (
	"fmt"

	"gnnsim/nas/magnas"
	"gnnsim/workload"
)

// Target is the SoC a backbone and its exits run on: a platform (its DVFS
// domains and the evaluator that prices a mapping: the shape of
// soc.Evaluate) and the unit that runs every block.
type Target struct {
	P    *magnas.Platform
	Unit int
}

// Validate checks the target.
func (t Target) Validate() error {
	if t.P == nil {
		return fmt.Errorf("hadas: no platform")
	}
	if err := t.P.Validate(); err != nil {
		return fmt.Errorf("hadas: %w", err)
	}
	if t.Unit < 0 || t.Unit >= len(t.P.Units) {
		return fmt.Errorf("hadas: unit %d of platform %s's %d", t.Unit, t.P.Name, len(t.P.Units))
	}
	return nil
}

// SettingCost is what leaving a backbone at each exit position costs at one
// DVFS setting: ExitPS[i] and ExitPJ[i] for position Positions()[i] (the
// backbone up to it plus its branch), HeadPS[i] and HeadPJ[i] the branch
// alone (what a sample passing the exit pays to try it), and the whole
// backbone.
type SettingCost struct {
	ExitPS, ExitPJ []float64
	HeadPS, HeadPJ []float64
	FullPS, FullPJ float64
}

// Costs prices a backbone's exit paths at every DVFS setting of a target,
// lazily: each setting is priced once, the first time it is asked for, as
// the platform's evaluation of the backbone's segments between exit
// positions and of each exit branch. Not safe for concurrent use.
type Costs struct {
	T     Target
	B     *Backbone
	segs  []workload.Model // prefix to the first position, one per later position, the tail
	exits []workload.Model
	zeros []int
	memo  []*SettingCost
}

// NewCosts prepares the pricing of b on t.
func NewCosts(t Target, b *Backbone) (*Costs, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	pos := b.Positions()
	if len(pos) == 0 {
		return nil, fmt.Errorf("hadas: backbone %s has %d blocks: no exit position from %d on", b.Arch, b.Blocks(), FirstExit)
	}
	c := &Costs{T: t, B: b, memo: make([]*SettingCost, t.P.NumSettings())}
	bl := b.Model.Blocks
	from := 0
	for _, p := range pos {
		to := b.End[p-1] + 1
		c.segs = append(c.segs, workload.Model{Name: fmt.Sprintf("%s[:%d]", b.Name, p), Blocks: bl[from:to]})
		from = to
		x, err := b.ExitBranch(p)
		if err != nil {
			return nil, err
		}
		c.exits = append(c.exits, workload.Model{Name: x.Name, Blocks: []workload.Block{x}})
	}
	c.segs = append(c.segs, workload.Model{Name: b.Name + " tail", Blocks: bl[from:]})
	n := 1
	for _, s := range c.segs {
		n = max(n, len(s.Blocks))
	}
	c.zeros = make([]int, n)
	for i := range c.zeros {
		c.zeros[i] = t.Unit
	}
	return c, nil
}

func (c *Costs) price(m workload.Model, s magnas.Setting) (float64, float64, error) {
	if len(m.Blocks) == 0 {
		return 0, 0, nil
	}
	o, err := c.T.P.EvaluateModel(m, c.zeros[:len(m.Blocks)], s)
	if err != nil {
		return 0, 0, fmt.Errorf("hadas: %s on %s: %w", m.Name, c.T.P.Name, err)
	}
	return float64(o.TimePS), o.EnergyPJ, nil
}

// At returns the costs at setting s.
func (c *Costs) At(s int) (*SettingCost, error) {
	if s < 0 || s >= len(c.memo) {
		return nil, fmt.Errorf("hadas: setting %d of %d", s, len(c.memo))
	}
	if sc := c.memo[s]; sc != nil {
		return sc, nil
	}
	set := c.T.P.Setting(s)
	n := len(c.exits)
	sc := &SettingCost{ExitPS: make([]float64, n), ExitPJ: make([]float64, n), HeadPS: make([]float64, n), HeadPJ: make([]float64, n)}
	var t, e float64
	for i := range n {
		st, se, err := c.price(c.segs[i], set)
		if err != nil {
			return nil, err
		}
		t, e = t+st, e+se
		xt, xe, err := c.price(c.exits[i], set)
		if err != nil {
			return nil, err
		}
		sc.ExitPS[i], sc.ExitPJ[i] = t+xt, e+xe
		sc.HeadPS[i], sc.HeadPJ[i] = xt, xe
	}
	st, se, err := c.price(c.segs[n], set)
	if err != nil {
		return nil, err
	}
	sc.FullPS, sc.FullPJ = t+st, e+se
	if !(sc.FullPS > 0) || !(sc.FullPJ > 0) {
		return nil, fmt.Errorf("hadas: %s costs %v ps, %v pJ at %s", c.B.Arch, sc.FullPS, sc.FullPJ, c.T.P.SettingName(s))
	}
	c.memo[s] = sc
	return sc, nil
}
