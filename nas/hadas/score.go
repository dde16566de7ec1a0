package hadas

import "math"

// FirstCorrect returns N_k, the fraction of samples first classified
// correctly at each chosen exit under the ideal mapping policy (HADAS
// Section IV-C: every input goes to the first exit that classifies it
// correctly), from the exits' top-1 accuracies acc (in order along the
// backbone), into n (reused when large enough), and the fraction covered
// by some exit.
//
// This is the nested model (Overlap with rho = 1), computed exactly: a
// sample an exit classifies correctly stays correct at every later exit
// that is at least as accurate. Then the samples correct by exit k are max(acc_1..acc_k) and
// N_k = max(acc_1..acc_k) - max(acc_1..acc_{k-1}). Exits that reach no
// more samples than their predecessors get N_k = 0.
func FirstCorrect(acc, n []float64) ([]float64, float64) {
	n = n[:0]
	covered := 0.0
	for _, a := range acc {
		d := max(a-covered, 0)
		n = append(n, d)
		covered += d
	}
	return n, covered
}

// Score is HADAS's dynamic score D (Eq. 5-7) of chosen exits: the mean
// over them of
//
//	score_k = N_k * (E_k / E_b) * (L_k / L_b) * dissim_k^gamma,  dissim_k = 1 - max(N_1..N_{k-1})
//
// with n the exits' N_k (FirstCorrect), eRatio and lRatio the energy and
// latency of a sample leaving at each exit (at the DVFS setting searched)
// over the static backbone's (at the default setting). dissim_1 = 1: the
// first exit has no predecessor. gamma = 0 removes the term. It is 0 for
// no exits.
func Score(n, eRatio, lRatio []float64, gamma float64) float64 {
	if len(n) == 0 {
		return 0
	}
	sum, best := 0.0, 0.0
	for k, nk := range n {
		sum += nk * eRatio[k] * lRatio[k] * dissimPow(1-best, gamma)
		best = max(best, nk)
	}
	return sum / float64(len(n))
}

// Coverage is the accuracy side of Eq. 6 that the inner search maximises
// next to the energy gain: the mean over chosen exits of N_k dissim_k^gamma
// (Figure 5's "average of N_i values").
func Coverage(n []float64, gamma float64) float64 {
	if len(n) == 0 {
		return 0
	}
	sum, best := 0.0, 0.0
	for _, nk := range n {
		sum += nk * dissimPow(1-best, gamma)
		best = max(best, nk)
	}
	return sum / float64(len(n))
}

func dissimPow(d, gamma float64) float64 {
	switch gamma {
	case 0:
		return 1
	case 1:
		return d
	}
	return math.Pow(d, gamma)
}

// Expected returns the expected cost per sample under the ideal policy
// with every evaluated exit head charged: a fraction n[k] leaves at the
// k-th chosen exit, having run the backbone up to it and the heads of
// exits 1..k (exit[k] is the backbone up to exit k plus its own head,
// head[j] exit j's head alone); the rest (1 - sum n) runs the whole
// backbone (full) after every chosen head has been tried. A runtime
// controller evaluates each head in turn to decide whether to leave, so
// an exit nobody leaves by still costs its head on every sample that
// reaches it.
func Expected(n, exit, head []float64, full float64) float64 {
	rest := 1.0
	e, heads := 0.0, 0.0
	for k, nk := range n {
		e += nk * (exit[k] + heads)
		heads += head[k]
		rest -= nk
	}
	return e + max(rest, 0)*(full+heads)
}

// PathCosts returns into dst (reused when large enough) the cost of a
// sample leaving at each chosen exit: exit[k] plus the heads of the exits
// before it (Expected's per-exit charge; Eq. 6's E_k and L_k).
func PathCosts(exit, head, dst []float64) []float64 {
	dst = dst[:0]
	heads := 0.0
	for k, x := range exit {
		dst = append(dst, x+heads)
		heads += head[k]
	}
	return dst
}
