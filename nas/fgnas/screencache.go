package fgnas

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"gnnsim/accel/fpga"
	"gnnsim/hw"
	"gnnsim/search"
)

// ScreenCache keeps the hardware draws of separate search's screen (see
// Problem.ScreenDraws) so that problems differing only in their Limits
// price each draw once: the screen of run k draws the same uniform
// hardware genomes for an architecture under every specification (its
// seed is the run's), and a draw's cost (resources, cycles) does not
// depend on the limits, only its verdict does. Table 3's 12
// specifications then price a draw once instead of 12 times. Verdicts,
// and so results, are the same with or without it.
//
// One cache serves problems of one data set and one FPGA model and timing
// (Problem.Data, Problem.Timing but its Budget); Problem.screen reports
// an error for any other. It is safe for concurrent use.
type ScreenCache struct {
	mu      sync.Mutex
	owner   string // data set and timing of the first user
	entries map[screenKey]*screenEntry
}

type screenKey struct {
	seed uint64
	k    int
	arch string
}

// screenEntry is one architecture's draws so far; r continues their
// stream when a screen needs more than were drawn.
type screenEntry struct {
	mu    sync.Mutex
	r     *rand.Rand
	draws []screenDraw
}

type screenDraw struct {
	use    hw.Resources
	cycles int64
}

// NewScreenCache returns an empty cache.
func NewScreenCache() *ScreenCache {
	return &ScreenCache{entries: map[screenKey]*screenEntry{}}
}

// entry returns the draws of architecture arch, screened as the k-th
// under seed, for problem p.
func (c *ScreenCache) entry(p *Problem, seed uint64, k int, arch []int) (*screenEntry, error) {
	t := p.Timing
	t.Budget = fpga.Budget{}
	owner := fmt.Sprintf("%s %+v", p.Data.Name, t)
	var b strings.Builder
	for i, v := range arch {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	key := screenKey{seed: seed, k: k, arch: b.String()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.owner == "" {
		c.owner = owner
	} else if c.owner != owner {
		return nil, fmt.Errorf("fgnas: one screen cache shared by %s and %s", c.owner, owner)
	}
	e, ok := c.entries[key]
	if !ok {
		e = &screenEntry{r: rand.New(rand.NewPCG(seed, uint64(k)))}
		c.entries[key] = e
	}
	return e, nil
}

// screenCount counts the feasible designs among the first ScreenDraws
// uniform hardware genomes for arch (seeded by seed and k), stopping at
// need: with p.Screens, from the draws priced before, pricing only those
// no problem has reached yet.
func (p *Problem) screenCount(hwSp *search.Space, seed uint64, k int, arch []int, need int) (int, error) {
	judge := p.Timing
	judge.Budget = p.Limits.Budget()
	pr := p.pooledPricer()
	defer pr.release()
	var hwg, g []int // reused: a draw keeps its cost, not its genome
	price := func(r *rand.Rand) (screenDraw, error) {
		hwg = hwSp.AppendSample(hwg[:0], r)
		g = p.Space.AppendMerge(g[:0], Hardware, hwg, arch)
		_, s, err := pr.Hardware(g)
		return screenDraw{use: s.Use, cycles: s.Cycles}, err
	}
	n := 0
	if p.Screens == nil {
		r := rand.New(rand.NewPCG(seed, uint64(k)))
		for range p.ScreenDraws {
			d, err := price(r)
			if err != nil {
				return 0, err
			}
			if ok, _ := judge.Judge(d.use, d.cycles); ok {
				if n++; n >= need {
					break
				}
			}
		}
		return n, nil
	}
	e, err := p.Screens.entry(p, seed, k, arch)
	if err != nil {
		return 0, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range p.ScreenDraws {
		if i == len(e.draws) {
			d, err := price(e.r)
			if err != nil {
				return 0, err
			}
			e.draws = append(e.draws, d)
		}
		d := e.draws[i]
		if ok, _ := judge.Judge(d.use, d.cycles); ok {
			if n++; n >= need {
				break
			}
		}
	}
	return n, nil
}
