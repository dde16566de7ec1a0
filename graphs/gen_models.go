package graphs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// checkNodes rejects node counts the CSR cannot hold.
func checkNodes(n int) error {
	if n <= 0 {
		return fmt.Errorf("node count %d must be positive", n)
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("%d nodes exceed the int32 id range", n)
	}
	return nil
}

// checkProb rejects probabilities outside [0, 1] (NaN included).
func checkProb(name string, p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("%s = %v outside [0, 1]", name, p)
	}
	return nil
}

// checkExpectedEdges rejects parameters whose expected edge count would not
// fit in a Graph, before anything is allocated for them.
func checkExpectedEdges(m float64) error {
	if m > MaxEntries/2 {
		return fmt.Errorf("about %.3g edges expected, above the CSR limit of %d", m, MaxEntries/2)
	}
	return nil
}

// skipper walks the successes of a run of independent Bernoulli(p) trials
// by geometric skipping (Batagelj and Brandes 2005): each call to next costs
// O(1) however many failures it jumps, so sampling m edges out of N
// candidate pairs costs O(m), not O(N).
type skipper struct {
	rng   *rand.Rand
	logq  float64 // log(1-p)
	every bool    // p == 1: every trial succeeds
	none  bool    // p == 0: none does
}

func newSkipper(p float64, rng *rand.Rand) skipper {
	return skipper{rng: rng, logq: math.Log1p(-p), every: p == 1, none: p == 0}
}

// gap returns the number of trials up to and including the next success,
// saturated at limit+1 (anything beyond limit means "no more successes").
func (s *skipper) gap(limit int64) int64 {
	switch {
	case s.every:
		return 1
	case s.none:
		return limit + 1
	}
	// 1-Float64() lies in (0, 1], so the log is finite.
	k := math.Floor(math.Log(1-s.rng.Float64()) / s.logq)
	if k >= float64(limit) {
		return limit + 1
	}
	return int64(k) + 1
}

// ErdosRenyi returns a G(n, p) random graph: each of the n(n-1)/2 node pairs
// is an edge independently with probability p. Geometric skipping makes it
// O(n + m) for m drawn edges.
func ErdosRenyi(n int, p float64, rng *rand.Rand) (*Graph, error) {
	if err := checkNodes(n); err != nil {
		return nil, fmt.Errorf("erdos-renyi: %w", err)
	}
	if err := checkProb("p", p); err != nil {
		return nil, fmt.Errorf("erdos-renyi: %w", err)
	}
	pairs := float64(n) * float64(n-1) / 2
	if err := checkExpectedEdges(p * pairs); err != nil {
		return nil, fmt.Errorf("erdos-renyi: %w", err)
	}
	est := expectedCap(p * pairs)
	us, vs := make([]int32, 0, est), make([]int32, 0, est)
	sk := newSkipper(p, rng)
	us, vs = appendLowerPairs(us, vs, &sk, int64(n), 0)
	return FromEdges(n, us, vs)
}

// appendLowerPairs runs one trial of sk per node pair (v, w), w < v < n, in
// row-major order, and appends each success as the edge (base+v, base+w).
func appendLowerPairs(us, vs []int32, sk *skipper, n, base int64) ([]int32, []int32) {
	v, w := int64(1), int64(-1) // w: the trial last consumed within row v
	for v < n {
		w += sk.gap(n * n)
		for w >= v && v < n {
			w -= v
			v++
		}
		if v < n {
			us = append(us, int32(base+v))
			vs = append(vs, int32(base+w))
		}
	}
	return us, vs
}

// expectedCap sizes an edge buffer for mean m: a few standard deviations
// above it so that a binomial draw rarely regrows the slice.
func expectedCap(m float64) int {
	return int(m + 4*math.Sqrt(m) + 16)
}

// BarabasiAlbert returns a preferential-attachment graph on n nodes: it
// starts from m isolated nodes, and each further node joins m distinct
// existing nodes chosen with probability proportional to their degree (the
// first newcomer joins all m seeds, as networkx does). The result is
// connected and has m(n-m) edges.
func BarabasiAlbert(n, m int, rng *rand.Rand) (*Graph, error) {
	if err := checkNodes(n); err != nil {
		return nil, fmt.Errorf("barabasi-albert: %w", err)
	}
	if m < 1 || m >= n {
		return nil, fmt.Errorf("barabasi-albert: m = %d must lie in [1, n) = [1, %d)", m, n)
	}
	edges := int64(m) * int64(n-m)
	if err := checkExpectedEdges(float64(edges)); err != nil {
		return nil, fmt.Errorf("barabasi-albert: %w", err)
	}
	us, vs := make([]int32, 0, edges), make([]int32, 0, edges)
	// repeated lists every edge endpoint: a uniform pick from it is a pick
	// proportional to degree.
	repeated := make([]int32, 0, 2*edges)
	targets := make([]int32, m)
	for i := range targets {
		targets[i] = int32(i)
	}
	for src := m; src < n; src++ {
		for _, t := range targets {
			us = append(us, int32(src))
			vs = append(vs, t)
			repeated = append(repeated, int32(src), t)
		}
		targets = targets[:0]
		for len(targets) < m {
			t := repeated[rng.IntN(len(repeated))]
			if !slices.Contains(targets, t) {
				targets = append(targets, t)
			}
		}
	}
	return FromEdges(n, us, vs)
}

// WattsStrogatz returns a small-world graph: a ring where every node joins
// its k/2 nearest neighbours on each side, after which each ring edge
// (u, u+j) is, with probability beta, rewired to (u, w) for a uniform w that
// is neither u nor already a neighbour of u (networkx's procedure, including
// its order: offsets j = 1..k/2 outside, nodes u inside). With beta = 0 the
// graph is k-regular; edges never multiply, so it keeps nk/2 edges.
func WattsStrogatz(n, k int, beta float64, rng *rand.Rand) (*Graph, error) {
	if err := checkNodes(n); err != nil {
		return nil, fmt.Errorf("watts-strogatz: %w", err)
	}
	if k < 2 || k%2 != 0 || k >= n {
		return nil, fmt.Errorf("watts-strogatz: k = %d must be even and in [2, n) = [2, %d)", k, n)
	}
	if err := checkProb("beta", beta); err != nil {
		return nil, fmt.Errorf("watts-strogatz: %w", err)
	}
	if err := checkExpectedEdges(float64(n) * float64(k) / 2); err != nil {
		return nil, fmt.Errorf("watts-strogatz: %w", err)
	}
	// Rows are short (about k), so linear scans beat hashing here.
	adj := make([][]int32, n)
	for u := range adj {
		adj[u] = make([]int32, 0, k+2)
	}
	link := func(u, v int32) {
		adj[u] = append(adj[u], v)
		adj[v] = append(adj[v], u)
	}
	unlink := func(u, v int32) {
		i := slices.Index(adj[u], v)
		adj[u] = slices.Delete(adj[u], i, i+1)
		i = slices.Index(adj[v], u)
		adj[v] = slices.Delete(adj[v], i, i+1)
	}
	for u := range n {
		for j := 1; j <= k/2; j++ {
			link(int32(u), int32((u+j)%n))
		}
	}
	for j := 1; j <= k/2; j++ {
		for u := range n {
			if rng.Float64() >= beta {
				continue
			}
			v := int32((u + j) % n)
			if len(adj[u]) >= n-1 {
				continue // u already joins every node: nowhere to go
			}
			w := int32(rng.IntN(n))
			for int(w) == u || slices.Contains(adj[u], w) {
				w = int32(rng.IntN(n))
			}
			unlink(int32(u), v)
			link(int32(u), w)
		}
	}
	us, vs := make([]int32, 0, n*k/2), make([]int32, 0, n*k/2)
	for u := range n {
		for _, v := range adj[u] {
			if int32(u) < v {
				us = append(us, int32(u))
				vs = append(vs, v)
			}
		}
	}
	return FromEdges(n, us, vs)
}

// SBM returns a stochastic block model graph: nodes are numbered block by
// block (sizes[0] nodes in block 0 first), and nodes of blocks r and s are
// joined independently with probability p[r][s]. p must be symmetric.
// Geometric skipping makes it O(n + m + blocks^2).
func SBM(sizes []int, p [][]float64, rng *rand.Rand) (*Graph, error) {
	k := len(sizes)
	if k == 0 {
		return nil, errors.New("sbm: no blocks")
	}
	if len(p) != k {
		return nil, fmt.Errorf("sbm: %d blocks but a %d-row probability matrix", k, len(p))
	}
	start := make([]int64, k+1)
	for r, sz := range sizes {
		if sz <= 0 {
			return nil, fmt.Errorf("sbm: block %d has size %d", r, sz)
		}
		start[r+1] = start[r] + int64(sz)
		if start[r+1] > math.MaxInt32 {
			return nil, fmt.Errorf("sbm: %d+ nodes exceed the int32 id range", start[r+1])
		}
	}
	expected := 0.0
	for r := range k {
		if len(p[r]) != k {
			return nil, fmt.Errorf("sbm: probability row %d has %d entries, want %d", r, len(p[r]), k)
		}
		for s := range k {
			if err := checkProb(fmt.Sprintf("p[%d][%d]", r, s), p[r][s]); err != nil {
				return nil, fmt.Errorf("sbm: %w", err)
			}
			if p[r][s] != p[s][r] {
				return nil, fmt.Errorf("sbm: p[%d][%d] = %v differs from p[%d][%d] = %v", r, s, p[r][s], s, r, p[s][r])
			}
			if s < r {
				expected += p[r][s] * float64(sizes[r]) * float64(sizes[s])
			}
		}
		expected += p[r][r] * float64(sizes[r]) * float64(sizes[r]-1) / 2
	}
	if err := checkExpectedEdges(expected); err != nil {
		return nil, fmt.Errorf("sbm: %w", err)
	}
	est := expectedCap(expected)
	us, vs := make([]int32, 0, est), make([]int32, 0, est)
	for r := range k {
		// Within block r: pairs (v, w), w < v, as in ErdosRenyi.
		sk := newSkipper(p[r][r], rng)
		us, vs = appendLowerPairs(us, vs, &sk, int64(sizes[r]), start[r])
		// Between blocks r and s > r: the sizes[r] x sizes[s] pairs in
		// row-major order.
		for s := r + 1; s < k; s++ {
			sk := newSkipper(p[r][s], rng)
			total := int64(sizes[r]) * int64(sizes[s])
			for idx := sk.gap(total) - 1; idx < total; idx += sk.gap(total) {
				us = append(us, int32(start[r]+idx/int64(sizes[s])))
				vs = append(vs, int32(start[s]+idx%int64(sizes[s])))
			}
		}
	}
	return FromEdges(int(start[k]), us, vs)
}
