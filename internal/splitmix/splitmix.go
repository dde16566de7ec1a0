// Package splitmix holds SplitMix64's output function, the bit mixer gnnsim
// derives independent seeds and stream ids from (graph i of a set, the inner
// searches of a nested search) and finishes genome hashes with.
//
// It is one function in its own package because graphs and search both need
// it and neither should import the other for it. Its outputs are pinned by a
// test: changing them would change every generated graph and search result.
package splitmix

// Mix64 is SplitMix64's output function applied to x + 0x9e3779b97f4a7c15,
// so Mix64(k*0x9e3779b97f4a7c15) is output k+1 of a SplitMix64 generator
// started at 0. It is a bijection of the 64-bit words in which every input
// bit affects every output bit: neighbouring inputs (indices, seeds) give
// unrelated outputs.
func Mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
