//go:build !amd64.v3

package vec

// goFusesFMA says whether the Go compiler may fuse x*y + z into one FMA,
// as it may on amd64 from GOAMD64=v3 (fma_v3.go): then math.Tanh's Go
// code may round differently from the kernel's tanh.
const goFusesFMA = false
