package search

import (
	"math/rand/v2"
)

// Sampler draws genomes of type G and tells them apart; it is all random
// search needs of an encoding.
//
// Genomes are values: once a search holds a genome it never modifies it,
// and neither may the encoding's methods. They may return an argument
// unchanged (shared) when they make no change.
type Sampler[G any] interface {
	// Sample draws a random valid genome.
	Sample(r *rand.Rand) G
	// Hash and Equal identify duplicate genomes; Equal genomes must have
	// equal hashes.
	Hash(g G) uint64
	Equal(a, b G) bool
}

// Encoding adds the variation operators that evolutionary searches need.
type Encoding[G any] interface {
	Sampler[G]
	// Mutate returns a mutated copy of g, or g itself when nothing changed.
	Mutate(r *rand.Rand, g G) G
	// Crossover returns two children of a and b; when no crossover happens
	// they are a and b themselves.
	Crossover(r *rand.Rand, a, b G) (G, G)
}

// validator is implemented by encodings that can check their settings
// before a search starts.
type validator interface{ Validate() error }

// genomeChecker is implemented by encodings that can check a genome that
// comes from outside the search (NSGA2.Initial).
type genomeChecker[G any] interface{ CheckGenome(g G) error }

func validateEncoding(e any) error {
	if v, ok := e.(validator); ok {
		return v.Validate()
	}
	return nil
}

// genomeSet is a hash set of genomes for duplicate elimination. It keeps
// its storage between resets so that a search does not allocate per
// generation once warm.
type genomeSet[G any] struct {
	s     Sampler[G]
	head  map[uint64]int32 // hash -> most recent item with it
	next  []int32          // chain of earlier items with the same hash
	items []G
}

func newGenomeSet[G any](s Sampler[G]) *genomeSet[G] {
	return &genomeSet[G]{s: s, head: make(map[uint64]int32)}
}

func (gs *genomeSet[G]) reset() {
	clear(gs.head)
	gs.next = gs.next[:0]
	clear(gs.items) // drop references for the garbage collector
	gs.items = gs.items[:0]
}

// find returns the insertion position of the genome equal to g, or -1.
func (gs *genomeSet[G]) find(h uint64, g G) int {
	i, ok := gs.head[h]
	for ok && i >= 0 {
		if gs.s.Equal(gs.items[i], g) {
			return int(i)
		}
		i = gs.next[i]
	}
	return -1
}

func (gs *genomeSet[G]) contains(g G) bool { return gs.find(gs.s.Hash(g), g) >= 0 }

// indexOf returns the insertion position of the genome equal to g, or -1.
func (gs *genomeSet[G]) indexOf(g G) int { return gs.find(gs.s.Hash(g), g) }

// add inserts g unless an equal genome is present; it reports whether g
// was new.
func (gs *genomeSet[G]) add(g G) bool {
	h := gs.s.Hash(g)
	if gs.find(h, g) >= 0 {
		return false
	}
	prev, ok := gs.head[h]
	if !ok {
		prev = -1
	}
	gs.head[h] = int32(len(gs.items))
	gs.next = append(gs.next, prev)
	gs.items = append(gs.items, g)
	return true
}

// Genome hashes fold 64-bit words with a multiply-xorshift step and finish
// with SplitMix64's mixer; Equal settles collisions, so speed matters more
// than strength.
const hashSeed = 0xcbf29ce484222325

func hashWord(h, w uint64) uint64 {
	h = (h ^ w) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}
